import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/values/account';
import { sendOnceGate } from '../../../shared/sendOnce/gate';
import type { MessagingClient } from '../../../shared/transport/client';
import { runPhoneBulk } from '../../helpers/bulk';
import { readPhones } from '../../helpers/phones';
import { applySendWindow } from '../../helpers/sendWindow';
import { batchingField, phonesField } from '../../helpers/fields';
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
	phonesField('Recipients'),
	bodyField,
	campaignOptionsField,
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['sendToNumbers'] } },
	properties,
);

/** Items with the same sender, message and settings become one campaign per batch of recipients. */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	const once = sendOnceGate(this);
	const now = new Date();
	return await runPhoneBulk<IDataObject>(this, client, {
		gate: once,
		prepare: (itemIndex) => {
			const settings: IDataObject = {
				sender: readSender(this, itemIndex),
				body: readBody(this, itemIndex),
				...readCampaignOptions(this, itemIndex, accountZone),
			};
			const phones = readPhones(this, itemIndex);
			// The key before the window: it must not depend on when the workflow runs.
			once?.readKey(itemIndex, () => [settings, [...new Set(phones)].sort()]);
			const window = applySendWindow(this, itemIndex, settings, accountZone, now);
			if (window) settings.sendWindow = window;
			return {
				key: JSON.stringify(settings),
				group: settings,
				phones,
			};
		},
		send: async ({ group: settings, phones, items }) => {
			const { sender, body, sendWindow, ...rest } = settings;
			const response = await client.request<IDataObject>({
				method: 'POST',
				path: '/sms/send',
				body: { sender, phones, body, ...rest },
				itemIndex: items[0],
			});
			const json: IDataObject = {
				...response,
				campaign_id: String(response.campaign_id ?? ''),
				phones,
				...(sendWindow as IDataObject | undefined),
			};
			if (settings.emulate) json.dryRun = true;
			return [{ json, items }];
		},
	});
}
