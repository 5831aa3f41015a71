import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { isRecord } from '../../../shared/values/objects';
import type { MessagingClient } from '../../../shared/transport/client';
import { requiredEmail } from '../../helpers/fields';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'The address to look up in the unsubscribed list',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unsubscribe'], operation: ['check'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => requiredEmail(this, itemIndex, 'email', 'Email'),
		send: async (email, itemIndex) => {
			// `{result:false}` means "not unsubscribed" here: an answer, not a failure.
			const unsubscribed = await client.requestValue(
				{
					method: 'GET',
					path: '/smtp/unsubscribe/search',
					query: { email },
					resultFalseIsAnswer: true,
					itemIndex,
				},
				'result (true or false)',
				(body) => (isRecord(body) && typeof body.result === 'boolean' ? body.result : undefined),
			);
			return { email, unsubscribed };
		},
	});
}
