import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { listSenders } from '../../helpers/senders';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: () => undefined,
		send: async (_prepared, itemIndex) => await listSenders(client, itemIndex),
	});
}
