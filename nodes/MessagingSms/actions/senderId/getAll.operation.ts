import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/items/fields';
import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { dataList, senderId } from '../../../shared/records/sms';

export const description = updateDisplayOptions(
	{ show: { resource: ['senderId'], operation: ['getAll'] } },
	returnAllAndLimit({}),
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => readReturnAllAndLimit(this, itemIndex),
		send: async ({ returnAll, limit }, itemIndex) => {
			const records = (
				await client.requestList({ method: 'GET', path: '/sms/senders', itemIndex }, dataList)
			).map(senderId);
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
