import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/items/fields';
import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { blacklistEntry, dataList } from '../../../shared/records/sms';
import { readAccountTimeZone } from '../../../shared/values/account';

const displayOptions = { show: { resource: ['blacklist'], operation: ['getAll'] } };

export const description: INodeProperties[] = updateDisplayOptions(displayOptions, [
	...returnAllAndLimit({}),
]);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => readReturnAllAndLimit(this, itemIndex),
		send: async ({ returnAll, limit }, itemIndex) => {
			// The service returns the whole blacklist at once; Limit is applied here.
			const records = (
				await client.requestList({ method: 'GET', path: '/sms/black_list', itemIndex }, dataList)
			).map((entry) => blacklistEntry(entry, accountZone));
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
