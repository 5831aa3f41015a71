import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../../shared/items';
import { parseAddresses } from '../../helpers/addresses';

/**
 * Addresses per POST/DELETE /smtp/unsubscribe request. The service does not document a limit; 500 matches its
 * other bulk limit (POST /smtp/emails/info) and the sandbox enforces it.
 */
export const UNSUBSCRIBE_BATCH_SIZE = 500;

export const emailsField: INodeProperties = {
	displayName: 'Email Addresses',
	name: 'emails',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'ann@example.com, bob@example.com',
	description:
		'One or more addresses, comma-separated (an expression may give an array). Addresses from all input items are combined into as few requests as possible.',
};

export const batchOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Addresses per Request',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: UNSUBSCRIBE_BATCH_SIZE },
			default: UNSUBSCRIBE_BATCH_SIZE,
			description: `How many addresses go into one request (the service does not document a limit; ${UNSUBSCRIBE_BATCH_SIZE} is the most this node sends)`,
		},
	],
};

export function readEmails(context: IExecuteFunctions, itemIndex: number): string[] {
	const parsed = parseAddresses(context.getNodeParameter('emails', itemIndex, ''));
	if (!parsed.ok) throw invalidInput(context, itemIndex, 'Email Addresses', parsed.problem);
	const emails = parsed.addresses.map((address) => address.email);
	if (emails.length === 0) throw invalidInput(context, itemIndex, 'Email Addresses', 'no address given');
	return emails;
}

export function batchSize(context: IExecuteFunctions): number {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const size = Math.floor(Number(options.batchSize ?? UNSUBSCRIBE_BATCH_SIZE));
	return Math.min(UNSUBSCRIBE_BATCH_SIZE, Math.max(1, Number.isFinite(size) ? size : UNSUBSCRIBE_BATCH_SIZE));
}
