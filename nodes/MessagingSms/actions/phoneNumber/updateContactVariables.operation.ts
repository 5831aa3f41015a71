import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput, runPerItem } from '../../../shared/items';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, readId, readNamed, variablesFields } from '../../helpers/fields';
import { parsePhones } from '../../helpers/phones';

const properties: INodeProperties[] = [
	addressBookIdField,
	{
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+380 98 623 5698',
		description: 'The one contact to change',
	},
	...variablesFields(false),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['updateContactVariables'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List ID');
			const { phones, invalid } = parsePhones(this.getNodeParameter('phone', itemIndex, ''));
			if (invalid.length || phones.length !== 1) {
				throw invalidInput(this, itemIndex, 'Phone', invalid.length ? `not a valid phone number: "${invalid[0]}"` : 'give exactly one phone number');
			}
			// The reference: only name and value are sent for this operation.
			return { addressBookId, phone: phones[0], variables: readNamed(this, itemIndex) };
		},
		send: async ({ addressBookId, phone, variables }, itemIndex) => {
			const response = await client.request<object>({
				method: 'POST',
				path: apiPath`/addressbooks/${addressBookId}/phones/variable`,
				body: { phone, variables: variables as unknown as string[] },
				idempotent: true,
				itemIndex,
			});
			return { ...response, addressBookId: String(addressBookId), phone, variables: variables as unknown as string[] };
		},
	});
}
