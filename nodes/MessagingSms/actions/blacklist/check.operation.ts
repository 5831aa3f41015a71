import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { MAX_PHONES_PER_QUERY, runPhoneBulk } from '../../helpers/bulk';
import { readPhones } from '../../helpers/phones';
import { batchingField, phonesField } from '../../helpers/fields';
import { blacklistEntry, dataList } from '../../../shared/records/sms';
import { readAccountTimeZone } from '../../../shared/values/account';

const properties: INodeProperties[] = [
	phonesField('Phone numbers to look up in the blacklist'),
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['check'] } },
	properties,
);

/** One output item per phone asked about: `blacklisted` true with the entry's fields, or false. */
export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPhoneBulk(this, client, {
		maxBatchSize: MAX_PHONES_PER_QUERY,
		prepare: (itemIndex) => ({
			key: '',
			group: null,
			phones: readPhones(this, itemIndex),
		}),
		send: async ({ phones, entries, items }) => {
			// An answer without its list is an error: read as "none found", it would clear blacklisted numbers.
			const listed = await client.requestList(
				{
					method: 'GET',
					path: '/sms/black_list/by_numbers',
					query: { phones },
					itemIndex: items[0],
				},
				dataList,
			);
			const found = new Map<string, IDataObject>(
				listed.map((raw) => {
					const record = blacklistEntry(raw, accountZone);
					return [record.phone as string, record];
				}),
			);
			return entries.map((entry) => {
				const record = found.get(entry.phone);
				return {
					json: record
						? { ...record, phone: entry.phone, blacklisted: true }
						: { phone: entry.phone, blacklisted: false },
					items: entry.items,
				};
			});
		},
	});
}
