import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: () => undefined,
		send: async (_prepared, itemIndex) => {
			const answer = await client.request<IDataObject>({
				method: 'GET',
				path: '/smtp/bounces/day/total',
				itemIndex,
			});
			return { total: Number(answer.total) };
		},
	});
}
