import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import { readText } from '../../../shared/items/parameters';
import { messageLinks, readSendAndWait, waitForAnswer } from '../../../shared/sendAndWait/config';
import { SEND_AND_WAIT, sendAndWaitFields } from '../../../shared/sendAndWait/fields';
import { smsLength, smsText } from '../../../shared/sendAndWait/smsLength';
import type { MessagingClient } from '../../../shared/transport/client';
import { phoneField } from '../../helpers/fields';
import { readPhone } from '../../helpers/phones';
import { readSender, senderField } from './shared';

/**
 * What the link adds: a line break and n8n's signed resume link, `<address>/webhook-waiting/<execution>/<node id>?
 * signature=<64 hex>`, about 135 characters plus the instance's address. The editor cannot count an expression, so
 * the notice gives the budget and the run reports the exact length and parts.
 */
const LINK_NOTE =
	'The SMS is your message plus one link (your n8n address and about 135 characters), so it usually takes 2 parts: keep the message to about 145 characters. An emoji, Cyrillic or curly quotes make each part shorter (67 characters instead of 153). The run warns with the exact length and parts. Moderation can delay an SMS by minutes; the wait limit counts from sending.';

const properties: INodeProperties[] = [
	senderField,
	phoneField('The one phone number that answers, in international format'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Refund of 120 EUR for order 1042?',
		description: 'Text of the SMS and of the page; the link to the page is added after it',
		hint: 'The link adds your n8n address plus about 135 characters: keep the message short (about 145 characters for 2 GSM-7 parts)',
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
 * Sends one SMS (POST /sms/send: a campaign to one phone) carrying one link to the answer page, then puts the
 * execution to wait. An SMS has room for one link only, so every response type gets the same link; the page
 * offers the choices. Sent once per execution, with the first item's values.
 */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const sender = readSender(this, 0);
	const phone = readPhone(this, 0);
	const message = readText(this, 'message', 0).trim();
	if (!message) throw invalidInput(this, 0, 'Message', 'is empty');
	const { config, waitTill } = readSendAndWait(this);
	const [link] = messageLinks(this, config, true);
	const body = smsText(message, link.url);
	const length = smsLength(body);
	if (length.parts > 1) {
		this.addExecutionHints({
			message: `The SMS with its link is ${length.length} ${length.encoding} characters: ${length.parts} parts of ${length.perPart} (each part is charged). Shorten the message to send one part.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	await client.request({
		method: 'POST',
		path: '/sms/send',
		body: { sender, phones: [phone], body },
		idempotent: false,
		itemIndex: 0,
	});
	return await waitForAnswer(this, config, waitTill);
}
