import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { checkDateRange, readDateParameter } from '../../../shared/dates';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/fields';
import { runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { campaignListItem, dataList } from '../../../shared/records/sms';
import { readParameter } from '../../../shared/parameters';

const properties: INodeProperties[] = [
	...returnAllAndLimit({}),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add filter',
		default: {},
		options: [
			{
				displayName: 'Created After',
				name: 'dateFrom',
				type: 'dateTime',
				default: '',
				description: "Start of the period, in the workflow's time zone",
			},
			{
				displayName: 'Created Before',
				name: 'dateTo',
				type: 'dateTime',
				default: '',
				description: "End of the period, in the workflow's time zone",
			},
		],
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
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const filters = readParameter(this, 'filters', itemIndex, {}) as IDataObject;
			const query: IDataObject = {};
			const dateFrom = readDateParameter(this, itemIndex, filters.dateFrom, 'Created After');
			const dateTo = readDateParameter(this, itemIndex, filters.dateTo, 'Created Before');
			if (dateFrom) query.dateFrom = dateFrom;
			if (dateTo) query.dateTo = dateTo;
			checkDateRange(
				this,
				itemIndex,
				{ value: dateFrom, displayName: 'Created After' },
				{ value: dateTo, displayName: 'Created Before' },
			);
			return {
				query,
				...readReturnAllAndLimit(this, itemIndex),
			};
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const list = await client.requestList(
				{ method: 'GET', path: '/sms/campaigns/list', query, itemIndex },
				dataList,
			);
			const records = list.map(campaignListItem);
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
