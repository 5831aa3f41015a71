import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { MAX_PHONES_PER_QUERY, readPhones, runBulk } from '../../helpers/bulk';
import { batchingField, phonesField } from '../../helpers/fields';
import { blacklistEntry, dataList } from '../../helpers/records';

const properties: INodeProperties[] = [phonesField('Phone numbers to look up in the blacklist'), batchingField];

export const description = updateDisplayOptions({ show: { resource: ['blacklist'], operation: ['check'] } }, properties);

/** One output item per phone asked about: `blacklisted` true with the entry's fields, or false. */
export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runBulk(this, client, {
		maxBatchSize: MAX_PHONES_PER_QUERY,
		prepare: (itemIndex) => ({ key: '', group: null, phones: readPhones(this, itemIndex).map((phone) => ({ phone })) }),
		send: async ({ entries, items }) => {
			const response = await client.request({
				method: 'GET',
				path: '/sms/black_list/by_numbers',
				query: { phones: entries.map((entry) => entry.phone) },
				itemIndex: items[0],
			});
			const found = new Map<string, IDataObject>(dataList(response).map((raw) => {
				const record = blacklistEntry(raw);
				return [record.phone as string, record];
			}));
			return entries.map((entry) => {
				const record = found.get(entry.phone);
				return {
					json: record ? { ...record, phone: entry.phone, blacklisted: true } : { phone: entry.phone, blacklisted: false },
					items: entry.items,
				};
			});
		},
	});
}
