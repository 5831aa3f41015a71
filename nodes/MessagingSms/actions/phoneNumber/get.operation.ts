import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, phoneField, readId, readPhone } from '../../helpers/fields';

const properties: INodeProperties[] = [addressBookIdField, phoneField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List ID');
			const phone = readPhone(this, itemIndex);
			return { addressBookId, phone };
		},
		send: async ({ addressBookId, phone }, itemIndex) => {
			const response = await client.request<IDataObject>({
				method: 'GET',
				path: apiPath`/sms/numbers/info/${addressBookId}/${phone}`,
				unwrapSingle: true,
				itemIndex,
			});
			const data = (response.data ?? {}) as IDataObject;
			return { phone, addressBookId: String(addressBookId), ...data };
		},
	});
}
