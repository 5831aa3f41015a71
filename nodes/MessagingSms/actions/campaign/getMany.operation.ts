import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import { dateParameterToService } from '../../../shared/dates';
import { returnAllAndLimit } from '../../../shared/fields';
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
			for (const [key, label] of [
				['dateFrom', 'Created After'],
				['dateTo', 'Created Before'],
			] as const) {
				if (filters[key] === undefined || filters[key] === '' || filters[key] === null) continue;
				try {
					query[key] = dateParameterToService(filters[key], this.getTimezone());
				} catch {
					throw invalidInput(this, itemIndex, label, `${JSON.stringify(filters[key])} is not a date`);
				}
			}
			if (query.dateFrom && query.dateTo && String(query.dateFrom) > String(query.dateTo)) {
				throw invalidInput(this, itemIndex, 'Created After', 'is later than Created Before');
			}
			return {
				query,
				returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
				limit: this.getNodeParameter('limit', itemIndex, 50) as number,
			};
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const body = await client.request({ method: 'GET', path: '/sms/campaigns/list', query, itemIndex });
			const records = dataList(body).map(campaignListItem);
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
