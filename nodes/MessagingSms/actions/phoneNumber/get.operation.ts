import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput, runPerItem } from '../../../shared/items';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, readId } from '../../helpers/fields';
import { parsePhones } from '../../helpers/phones';

const properties: INodeProperties[] = [
	addressBookIdField,
	{ displayName: 'Phone', name: 'phone', type: 'string', default: '', required: true, placeholder: '+380 98 623 5698' },
];

export const description = updateDisplayOptions({ show: { resource: ['phoneNumber'], operation: ['get'] } }, properties);

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List ID');
			const { phones, invalid } = parsePhones(this.getNodeParameter('phone', itemIndex, ''));
			if (invalid.length || phones.length !== 1) {
				throw invalidInput(this, itemIndex, 'Phone', invalid.length ? `not a valid phone number: "${invalid[0]}"` : 'give exactly one phone number');
			}
			return { addressBookId, phone: phones[0] };
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
