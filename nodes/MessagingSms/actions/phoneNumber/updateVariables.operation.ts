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
	phonesField('Phone numbers whose variables to set'),
	...variablesFields(true),
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['updateVariables'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPhoneBulk<{ addressBookId: number; variables: TypedVariable[] }>(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List');
			const phones = readPhones(this, itemIndex);
			const variables = readTyped(this, itemIndex);
			// Items setting the same variables on the same list share requests.
			return {
				key: JSON.stringify([addressBookId, variables]),
				group: { addressBookId, variables },
				phones,
			};
		},
		send: async ({ group: { addressBookId, variables }, phones, items }) => {
			const response = await client.request<object>({
				method: 'PUT',
				path: '/sms/numbers',
				body: { addressBookId, phones, variables },
				unwrapSingle: true,
				itemIndex: items[0],
			});
			return [{ json: { addressBookId: String(addressBookId), ...response, phones }, items }];
		},
	});
}
