import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { totalIn } from '../../../shared/records/values';
import type { MessagingClient } from '../../../shared/transport/client';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: () => undefined,
		send: async (_prepared, itemIndex) => {
			const total = await client.requestValue(
				{ method: 'GET', path: '/smtp/bounces/day/total', itemIndex },
				'count',
				totalIn,
			);
			return { total };
		},
	});
}
