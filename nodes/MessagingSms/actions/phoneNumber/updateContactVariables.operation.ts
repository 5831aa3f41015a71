import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, phoneField, readId } from '../../helpers/fields';
import { readPhone } from '../../helpers/phones';
import { readNamed, variablesFields } from '../../helpers/variables';

const properties: INodeProperties[] = [
	addressBookIdField,
	phoneField('The one contact to change'),
	...variablesFields(false),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['updateContactVariables'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List');
			const phone = readPhone(this, itemIndex);
			// The reference: only name and value are sent for this operation.
			return { addressBookId, phone, variables: readNamed(this, itemIndex) };
		},
		send: async ({ addressBookId, phone, variables }, itemIndex) => {
			const response = await client.request<object>({
				method: 'POST',
				path: apiPath`/addressbooks/${addressBookId}/phones/variable`,
				body: { phone, variables },
				idempotent: true,
				itemIndex,
			});
			return {
				...response,
				addressBookId: String(addressBookId),
				phone,
				variables: variables.map((variable) => ({ ...variable })),
			};
		},
	});
}
