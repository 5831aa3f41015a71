import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/values/account';
import { dateRangeOptions, readDateRange, type DateBound } from '../../../shared/values/dates';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/items/fields';
import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { campaignListItem, dataList } from '../../../shared/records/sms';
import { readParameter } from '../../../shared/items/parameters';

const CREATED_AFTER: DateBound = {
	name: 'dateFrom',
	displayName: 'Created After',
	description: "Start of the period, in the workflow's time zone",
};
const CREATED_BEFORE: DateBound = {
	name: 'dateTo',
	displayName: 'Created Before',
	description: "End of the period, in the workflow's time zone",
};

const properties: INodeProperties[] = [
	...returnAllAndLimit({}),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: dateRangeOptions(CREATED_AFTER, CREATED_BEFORE),
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const filters = readParameter(this, 'filters', itemIndex, {}) as IDataObject;
			return {
				query: readDateRange(this, itemIndex, filters, CREATED_AFTER, CREATED_BEFORE, accountZone),
				...readReturnAllAndLimit(this, itemIndex),
			};
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const list = await client.requestList(
				{ method: 'GET', path: '/sms/campaigns/list', query, itemIndex },
				dataList,
			);
			const records = list.map((campaign) => campaignListItem(campaign, accountZone));
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
