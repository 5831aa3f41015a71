import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import type { MessagingClient } from '../../../shared/transport/client';
import { runPhoneBulk } from '../../helpers/bulk';
import { readPhones } from '../../helpers/phones';
import { batchingField, phonesField } from '../../helpers/fields';
import { readText } from '../../../shared/items/parameters';

const properties: INodeProperties[] = [
	phonesField('Phone numbers to blacklist'),
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		default: '',
		required: true,
		description: 'Why the numbers are blacklisted (the service requires a description)',
	},
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['add'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPhoneBulk(this, client, {
		prepare: (itemIndex) => {
			const text = readText(this, 'description', itemIndex).trim();
			if (!text)
				throw invalidInput(this, itemIndex, 'Description', 'the service requires a description');
			const phones = readPhones(this, itemIndex);
			return { key: text, group: text, phones: phones };
		},
		send: async ({ group: text, phones, items }) => {
			const response = await client.request<object>({
				method: 'POST',
				path: '/sms/black_list',
				body: { phones, description: text },
				idempotent: true,
				unwrapSingle: true,
				itemIndex: items[0],
			});
			return [{ json: { ...response, phones }, items }];
		},
	});
}
