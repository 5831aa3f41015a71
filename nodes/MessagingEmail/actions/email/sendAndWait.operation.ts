import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import { readParameter, readText } from '../../../shared/items/parameters';
import { messageLinks, readSendAndWait, waitForAnswer } from '../../../shared/sendAndWait/config';
import { SEND_AND_WAIT, sendAndWaitFields } from '../../../shared/sendAndWait/fields';
import { emailHtml, emailText } from '../../../shared/sendAndWait/html';
import type { MessagingClient } from '../../../shared/transport/client';
import { ADDRESS_FORM_HINT, parseAddresses } from '../../helpers/addresses';
import { requiredEmail, requiredString } from '../../helpers/fields';
import { FROM_HINTS, senderAddressLocator } from '../../helpers/senders';
import { senderCheck } from './send.operation';

const properties: INodeProperties[] = [
	senderAddressLocator(
		'fromEmail',
		'From',
		'An approved sender address of your account (Email → Sender Address → Get Many): pick it from the list or type it',
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
 * Sends one email (POST /smtp/emails, with the same checks as Send: valid addresses, an approved sender) whose
 * links open the answer page, then puts the execution to wait. Like n8n's own send-and-wait nodes it sends once
 * per execution, with the first item's values.
 */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const fromEmail = requiredEmail(this, 0, 'fromEmail', 'From', FROM_HINTS);
	const fromName = readText(this, 'fromName', 0).trim();
	const parsed = parseAddresses(readParameter(this, 'to', 0, '', { list: true }));
	if (!parsed.ok) throw invalidInput(this, 0, 'To', parsed.problem, ADDRESS_FORM_HINT);
	if (parsed.addresses.length === 0)
		throw invalidInput(this, 0, 'To', 'no recipient', 'Give at least one address.');
	const subject = requiredString(this, 0, 'subject', 'Subject');
	const message = requiredString(this, 0, 'message', 'Message');
	const { config, waitTill } = readSendAndWait(this);
	await senderCheck(this, client)(0, fromEmail);

	const links = messageLinks(this, config);
	const email: IDataObject = {
		subject,
		from: fromName ? { name: fromName, email: fromEmail } : { email: fromEmail },
		to: parsed.addresses,
		html: Buffer.from(emailHtml(subject, message, links), 'utf8').toString('base64'),
		text: emailText(message, links),
	};
	await client.request({
		method: 'POST',
		path: '/smtp/emails',
		body: { email },
		idempotent: false,
		itemIndex: 0,
	});
	return await waitForAnswer(this, config, waitTill);
}
