import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import { readText } from '../../../shared/items/parameters';
import {
	messageLinks,
	readSendAndWait,
	waitForAnswer,
	warnIfUnreachable,
} from '../../../shared/sendAndWait/config';
import { SEND_AND_WAIT, sendAndWaitFields } from '../../../shared/sendAndWait/fields';
import { smsLength, smsText } from '../../../shared/sendAndWait/smsLength';
import { startWait } from '../../../shared/sendAndWait/wait';
import type { MessagingClient } from '../../../shared/transport/client';
import { phoneField } from '../../helpers/fields';
import { readAnswerPhones } from '../../helpers/phones';
import { readSender, senderField } from './shared';

/**
 * What the link adds: a line break and n8n's signed resume link, `<address>/webhook-waiting/<execution>/<node id>?
 * w=<12 characters>&signature=<64 hex>`, about 150 characters plus the instance's address. The editor cannot count an expression, so
 * the notice gives the budget and the run reports the exact length and parts.
 */
const LINK_NOTE =
	'The SMS is your message plus one link (your n8n address and about 150 characters), so it usually takes 2 parts: keep the message to about 130 characters. An emoji, Cyrillic or curly quotes make each part shorter (67 characters instead of 153). The run warns with the exact length and parts; more than 6 parts is refused. Moderation can delay an SMS by minutes; the wait limit counts from sending.';

/**
 * The most parts a Send and Wait SMS may take (918 GSM-7 / 402 UCS-2 characters with the link). An approval
 * request needs a sentence and the link; a longer message is most likely a mapped field that holds more than
 * meant (a whole document), which would go out as hundreds of charged parts.
 */
const MAX_SMS_PARTS = 6;

const properties: INodeProperties[] = [
	senderField,
	phoneField(
		'Who may answer, in international format: one phone, or several separated by commas or new lines. With several, each phone gets an SMS of its own with its own link (about 20 characters longer: it carries the phone); the first answer counts (the output names the phone as responder), the others then see that it was already answered.',
	),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Refund of 120 EUR for order 1042?',
		description: 'Text of the SMS and of the page; the link to the page is added after it',
		hint: 'The link adds your n8n address plus about 150 characters: keep the message short (about 130 characters for 2 GSM-7 parts)',
	},
	{
		displayName: LINK_NOTE,
		name: 'smsLengthNotice',
		type: 'notice',
		default: '',
	},
	...sendAndWaitFields(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: [SEND_AND_WAIT] } },
	properties,
);

/**
 * Sends an SMS (POST /sms/send: a campaign to one phone) to each phone, carrying one link to the answer page,
 * then puts the execution to wait. An SMS has room for one link only, so every response type gets the same link;
 * the page offers the choices. One phone gets the link as it always had (no phone in it, no `responder`); with
 * several, each link carries its phone (signed), so the answer names who gave it and no phone can answer as
 * another. Sent once per execution, with the first item's values.
 */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const sender = readSender(this, 0);
	const phones = readAnswerPhones(this, 0);
	const message = readText(this, 'message', 0).trim();
	if (!message) throw invalidInput(this, 0, 'Message', 'is empty');
	const { config, waitTill } = readSendAndWait(this);
	const wait = startWait(this);
	// Every SMS is built and its length checked before the first is sent: none goes out if one is refused.
	const messages = phones.map((phone) => {
		const recipient = phones.length > 1 ? { phone } : undefined;
		const [link] = messageLinks(this, config, wait, recipient, true);
		const body = smsText(message, link.url);
		return { phone, link: link.url, body, length: smsLength(body) };
	});
	warnIfUnreachable(this, messages[0].link);
	const longest = messages.reduce((a, b) => (b.length.length > a.length.length ? b : a)).length;
	if (longest.parts > MAX_SMS_PARTS)
		throw invalidInput(
			this,
			0,
			'Message',
			`the SMS with its link is ${longest.length} ${longest.encoding} characters: ${longest.parts} parts, more than the ${MAX_SMS_PARTS} a Send and Wait SMS may take`,
			`Shorten the message: ${MAX_SMS_PARTS} parts hold ${MAX_SMS_PARTS * 153} GSM-7 or ${MAX_SMS_PARTS * 67} UCS-2 characters, the link included. Each part is charged.`,
		);
	if (longest.parts > 1) {
		this.addExecutionHints({
			message: `The SMS with its link is ${longest.length} ${longest.encoding} characters: ${longest.parts} parts of ${longest.perPart} (each part is charged). Shorten the message to send one part.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	for (const { phone, body } of messages)
		await client.request({
			method: 'POST',
			path: '/sms/send',
			body: { sender, phones: [phone], body },
			idempotent: false,
			itemIndex: 0,
		});
	return await waitForAnswer(this, config, waitTill);
}
