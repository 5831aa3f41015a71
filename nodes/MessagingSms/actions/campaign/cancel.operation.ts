import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { withServiceHint } from '../../../shared/transport/errors';
import { readId } from '../../helpers/fields';
import { campaignIdField } from './shared';

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['cancel'] } },
	[campaignIdField],
);

/** The service's code for "sending has already started". */
const ALREADY_SENDING = 602;

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => readId(this, itemIndex, 'campaignId', 'Campaign'),
		send: async (id, itemIndex) => {
			const response = await withServiceHint(
				client.request<IDataObject>({
					method: 'PUT',
					path: apiPath`/sms/campaigns/cancel/${id}`,
					itemIndex,
				}),
				(error) => Number(error.context.serviceErrorCode) === ALREADY_SENDING,
				`Campaign ${id} can no longer be cancelled: the service has started sending it. ` +
					'A campaign can be cancelled only before sending starts (while it is in moderation or scheduled).',
			);
			return { ...response, campaign_id: String(id) };
		},
	});
}
