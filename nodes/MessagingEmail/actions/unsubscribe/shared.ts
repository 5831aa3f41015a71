import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { batchingField as sharedBatchingField } from '../../../shared/items/bulk';
import { emptyInput, invalidInput } from '../../../shared/values/inputErrors';
import { parseAddresses } from '../../helpers/addresses';
import { readParameter } from '../../../shared/items/parameters';

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

export const batchingField = sharedBatchingField({
	unit: 'addresses',
	defaultSize: UNSUBSCRIBE_BATCH_SIZE,
	maxSize: UNSUBSCRIBE_BATCH_SIZE,
	note: `the service does not document a limit; ${UNSUBSCRIBE_BATCH_SIZE} is the most this node sends`,
});

export function readEmails(context: IExecuteFunctions, itemIndex: number): string[] {
	const parsed = parseAddresses(readParameter(context, 'emails', itemIndex, '', { list: true }));
	if (!parsed.ok) throw invalidInput(context, itemIndex, 'Email Addresses', parsed.problem);
	const emails = parsed.addresses.map((address) => address.email);
	if (emails.length === 0) throw emptyInput(context, itemIndex, 'Email Addresses');
	return emails;
}
