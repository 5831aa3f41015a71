import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { readId } from '../../helpers/fields';
import { campaignDetail, campaignDetailIn } from '../../../shared/records/sms';
import { campaignIdField } from './shared';
import { readAccountTimeZone } from '../../../shared/values/account';

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['get'] } },
	[campaignIdField],
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => readId(this, itemIndex, 'campaignId', 'Campaign'),
		send: async (id, itemIndex) => {
			const detail = await client.requestValue(
				{ method: 'GET', path: apiPath`/sms/campaigns/info/${id}`, unwrapSingle: true, itemIndex },
				'campaign with its phones',
				campaignDetailIn,
			);
			return campaignDetail(detail, accountZone);
		},
	});
}
