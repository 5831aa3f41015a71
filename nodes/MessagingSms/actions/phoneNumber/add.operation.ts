import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { runPhoneBulk } from '../../helpers/bulk';
import { readPhones } from '../../helpers/phones';
import { addressBookIdField, batchingField, phonesField, readId } from '../../helpers/fields';

const properties: INodeProperties[] = [
	addressBookIdField,
	phonesField('Phone numbers to add to the mailing list'),
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['add'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPhoneBulk(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List');
			return {
				key: String(addressBookId),
				group: addressBookId,
				phones: readPhones(this, itemIndex),
			};
		},
		send: async ({ group: addressBookId, phones, items }) => {
			const response = await client.request<object>({
				method: 'POST',
				path: '/sms/numbers',
				body: { addressBookId, phones },
				idempotent: true,
				itemIndex: items[0],
			});
			return [{ json: { addressBookId: String(addressBookId), ...response, phones }, items }];
		},
	});
}
