import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/values/account';
import { runPerItem } from '../../../shared/items/engine';
import { sendOnceGate } from '../../../shared/sendOnce/gate';
import type { MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, readId } from '../../helpers/fields';
import { applySendWindow } from '../../helpers/sendWindow';
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
	const now = new Date();
	return await runPerItem(this, client, {
		prepare: (itemIndex): IDataObject => {
			const request: IDataObject = {
				sender: readSender(this, itemIndex),
				addressBookId: readId(this, itemIndex, 'addressBookId', 'Mailing List'),
				body: readBody(this, itemIndex),
				...readCampaignOptions(this, itemIndex, accountZone),
			};
			// The key before the window: it must not depend on when the workflow runs.
			once?.readKey(itemIndex, () => request);
			const window = applySendWindow(this, itemIndex, request, accountZone, now);
			return window ? { ...request, sendWindow: window } : request;
		},
		gate: once,
		send: async ({ sendWindow, ...request }, itemIndex) => {
			const response = await client.request<IDataObject>({
				method: 'POST',
				path: '/sms/campaigns',
				body: request,
				itemIndex,
			});
			return {
				...response,
				campaign_id: String(response.campaign_id ?? ''),
				...(sendWindow as IDataObject | undefined),
				...(request.emulate ? { dryRun: true } : {}),
			};
		},
	});
}
