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
import { readTyped, variablesFields, type TypedVariable } from '../../helpers/variables';

const properties: INodeProperties[] = [
	addressBookIdField,
	phonesField('Phone numbers to add; each gets the variables below'),
	...variablesFields(true),
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['addWithVariables'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPhoneBulk<number, TypedVariable[]>(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List');
			const phones = readPhones(this, itemIndex);
			const variables = readTyped(this, itemIndex);
			return {
				key: String(addressBookId),
				group: addressBookId,
				phones: phones.map((phone) => ({ phone, data: variables })),
			};
		},
		send: async ({ group: addressBookId, entries, items }) => {
			const phones: Record<string, TypedVariable[][]> = {};
			for (const entry of entries) phones[entry.phone] = [entry.data ?? []];
			const response = await client.request<object>({
				method: 'POST',
				path: '/sms/numbers/variables',
				body: { addressBookId, phones },
				idempotent: true,
				unwrapSingle: true,
				itemIndex: items[0],
			});
			return [
				{
					json: {
						addressBookId: String(addressBookId),
						...response,
						phones: entries.map((entry) => entry.phone),
					},
					items,
				},
			];
		},
	});
}
