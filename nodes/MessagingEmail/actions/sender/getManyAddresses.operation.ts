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
			const answer = await client.requestList({ method: 'GET', path: '/smtp/senders', itemIndex });
			// A bare array of address strings; objects (as some sources show) are kept as they are.
			return answer.map((sender): IDataObject =>
				typeof sender === 'object' && sender !== null
					? (sender as IDataObject)
					: { email: String(sender) },
			);
		},
	});
}
