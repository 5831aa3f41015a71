import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { requiredEmail, requiredString } from '../../helpers/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'The sender address to add',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		description: 'Name shown with the address',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['senderAddress'], operation: ['add'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => ({
			email: requiredEmail(this, itemIndex, 'email', 'Email'),
			name: requiredString(this, itemIndex, 'name', 'Name'),
		}),
		send: async (body, itemIndex) => {
			const answer = await client.request<IDataObject>({
				method: 'POST',
				path: '/senders',
				body,
				itemIndex,
			});
			return { result: answer?.result ?? true, ...body };
		},
	});
}
