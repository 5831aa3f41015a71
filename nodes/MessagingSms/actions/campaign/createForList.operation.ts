import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/account';
import { runPerItem } from '../../../shared/items';
import { sendOnceGate } from '../../../shared/sendOnce/gate';
import type { MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, readId } from '../../helpers/fields';
import {
	bodyField,
	campaignOptionsField,
	readBody,
	readCampaignOptions,
	readSender,
	senderField,
} from './shared';

const properties: INodeProperties[] = [
	senderField,
	addressBookIdField,
	bodyField,
	campaignOptionsField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['createForList'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	const once = sendOnceGate(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex): IDataObject => {
			const request: IDataObject = {
				sender: readSender(this, itemIndex),
				addressBookId: readId(this, itemIndex, 'addressBookId', 'Mailing List'),
				body: readBody(this, itemIndex),
				...readCampaignOptions(this, itemIndex, accountZone),
			};
			once?.readKey(itemIndex, () => request);
			return request;
		},
		gate: once,
		send: async (request, itemIndex) => {
			const response = await client.request<IDataObject>({
				method: 'POST',
				path: '/sms/campaigns',
				body: request,
				itemIndex,
			});
			return {
				...response,
				campaign_id: String(response.campaign_id ?? ''),
				...(request.emulate ? { dryRun: true } : {}),
			};
		},
	});
}
