import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { readDateParameter } from '../../../shared/dates';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/fields';
import { invalidInput, runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { campaignListItem, dataList } from '../../helpers/records';

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

export const description = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['getMany'] } }, properties);

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
			const query: IDataObject = {};
			const dateFrom = readDateParameter(this, itemIndex, filters.dateFrom, 'Created After');
			const dateTo = readDateParameter(this, itemIndex, filters.dateTo, 'Created Before');
			if (dateFrom) query.dateFrom = dateFrom;
			if (dateTo) query.dateTo = dateTo;
			if (query.dateFrom && query.dateTo && String(query.dateFrom) > String(query.dateTo)) {
				throw invalidInput(this, itemIndex, 'Created After', 'is later than Created Before');
			}
			return {
				query,
				...readReturnAllAndLimit(this, itemIndex),
			};
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const body = await client.request({ method: 'GET', path: '/sms/campaigns/list', query, itemIndex });
			const records = dataList(body).map(campaignListItem);
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
