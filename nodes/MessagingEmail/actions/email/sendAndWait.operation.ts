import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/items';
import { messageLinks, readSendAndWait, waitForAnswer } from '../../../shared/sendAndWait/config';
import { SEND_AND_WAIT, sendAndWaitFields } from '../../../shared/sendAndWait/fields';
import { emailHtml, emailText } from '../../../shared/sendAndWait/html';
import type { MessagingClient } from '../../../shared/transport/client';
import { MAX_MESSAGE_BYTES, megabytes } from '../../helpers/attachments';
import { requiredString } from '../../helpers/fields';
import { readFrom, readSubject, readTo } from '../../helpers/message';
import { senderAddressLocator, senderCheck } from '../../helpers/senders';

const properties: INodeProperties[] = [
	senderAddressLocator(
		'fromEmail',
		'From',
		'An approved sender address of your account (Sender Address → Get Many; add one with Sender Address → Add): pick it from the list or type it',
	),
	{
		displayName: 'From Name',
		name: 'fromName',
		type: 'string',
		default: '',
		description: 'Name shown as the sender',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Ann <ann@example.com>, bob@example.com',
		description:
			'Who may answer, comma-separated. With several recipients the first answer counts; the others then see that it was already answered.',
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Approval required',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description:
			'Plain text (shown escaped, line breaks kept), above the links in the email and on the page',
	},
	...sendAndWaitFields(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['email'], operation: [SEND_AND_WAIT] } },
	properties,
);

/**
 * Sends one email (POST /smtp/emails, read as Send reads From, To and Subject: valid addresses, one-line headers, an approved sender; at most the 10 MB an email may have) whose
 * links open the answer page, then puts the execution to wait. Like n8n's own send-and-wait nodes it sends once
 * per execution, with the first item's values.
 */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const from = readFrom(this, 0);
	const to = readTo(this, 0);
	const subject = readSubject(this, 0);
	const message = requiredString(this, 0, 'message', 'Message');
	const { config, waitTill } = readSendAndWait(this);

	const links = messageLinks(this, config);
	const html = Buffer.from(emailHtml(subject, message, links), 'utf8').toString('base64');
	const text = emailText(message, links);
	const size = html.length + Buffer.byteLength(text, 'utf8');
	if (size > MAX_MESSAGE_BYTES)
		throw invalidInput(
			this,
			0,
			'Message',
			`the email would be ${megabytes(size)} (Base64 HTML and text), over the ${megabytes(MAX_MESSAGE_BYTES)} an email may have`,
			'Shorten the message: put long content behind a link.',
		);
	await senderCheck(this, client)(0, from.email);

	const email: IDataObject = { subject, from, to, html, text };
	await client.request({
		method: 'POST',
		path: '/smtp/emails',
		body: { email },
		idempotent: false,
		itemIndex: 0,
	});
	return await waitForAnswer(this, config, waitTill);
}
