import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { runPhoneBulk } from '../../helpers/bulk';
import { readPhones } from '../../helpers/phones';
import { batchingField, phonesField } from '../../helpers/fields';

const properties: INodeProperties[] = [
	phonesField('Phone numbers to take off the blacklist'),
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['remove'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPhoneBulk(this, client, {
		prepare: (itemIndex) => ({
			key: '',
			group: null,
			phones: readPhones(this, itemIndex),
		}),
		send: async ({ phones, items }) => {
			const response = await client.request<object>({
				method: 'DELETE',
				path: '/sms/black_list',
				body: { phones },
				unwrapSingle: true,
				itemIndex: items[0],
			});
			return [{ json: { ...response, phones }, items }];
		},
	});
}
