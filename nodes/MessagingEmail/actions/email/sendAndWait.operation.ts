import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import {
	messageLinks,
	readSendAndWait,
	waitForAnswer,
	warnIfUnreachable,
} from '../../../shared/sendAndWait/config';
import { SEND_AND_WAIT, sendAndWaitFields } from '../../../shared/sendAndWait/fields';
import { startWait } from '../../../shared/sendAndWait/wait';
import { emailHtml, emailText } from '../../../shared/sendAndWait/html';
import type { MessagingClient } from '../../../shared/transport/client';
import { MAX_MESSAGE_BYTES, megabytes } from '../../helpers/attachments';
import { requiredString } from '../../helpers/fields';
import { fromProperties, readFrom, readSubject, readTo } from '../../helpers/message';
import { senderCheck } from '../../helpers/senders';

const properties: INodeProperties[] = [
	...fromProperties,
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Ann <ann@example.com>, bob@example.com',
		description:
			'Who may answer, comma-separated. Each recipient gets an email of their own with their own links; the first answer counts (the output names who gave it), the others then see that it was already answered.',
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
 * Sends one email per recipient (POST /smtp/emails; From, To and Subject read as Send reads them: valid
 * addresses, one-line headers, an approved sender; at most the 10 MB an email may have) whose links open the
 * answer page, then puts the execution to wait. Like n8n's own send-and-wait nodes it sends once per execution,
 * with the first item's values.
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

	const wait = startWait(this);
	// One email per recipient, each with links of their own: the answer says who gave it, and no recipient sees
	// the others' addresses. All are built (and their size checked) before the first is sent.
	const emails = to.map((recipient): IDataObject => {
		const links = messageLinks(this, config, wait, recipient);
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
		return { subject, from, to: [recipient], html, text };
	});
	await senderCheck(this, client)(0, from.email);
	warnIfUnreachable(this, this.getSignedResumeUrl());

	for (const email of emails)
		await client.request({
			method: 'POST',
			path: '/smtp/emails',
			body: { email },
			idempotent: false,
			itemIndex: 0,
		});
	return await waitForAnswer(this, config, waitTill);
}
