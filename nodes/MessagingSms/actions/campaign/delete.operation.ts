import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { readId } from '../../helpers/fields';
import { campaignIdField } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['delete'] } },
	[campaignIdField],
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => readId(this, itemIndex, 'campaignId', 'Campaign'),
		send: async (id, itemIndex) => {
			// DELETE with a JSON body: {"id": …}.
			const response = await client.request<IDataObject>({
				method: 'DELETE',
				path: '/sms/campaigns',
				body: { id },
				itemIndex,
			});
			return { ...response, campaign_id: String(id) };
		},
	});
}
