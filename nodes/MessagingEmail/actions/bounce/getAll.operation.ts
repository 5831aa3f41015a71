import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readReturnAllAndLimit, returnAllAndLimit } from '../../../shared/fields';
import { runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { dayFilterField, readDayFilter } from '../../helpers/fields';
import { bounceList, bounceOutput } from '../../../shared/records/emailEvents';

/** The service's most records per bounce page (its answers carry `request_limit: 100`). */
const BOUNCE_PAGE_SIZE = 100;

const properties: INodeProperties[] = [
	{
		displayName: 'The service keeps bounces of the last 24 hours only',
		name: 'bounceNotice',
		type: 'notice',
		default: '',
	},
	...returnAllAndLimit({}),
	dayFilterField('Only bounces of this day (within the last 24 hours); the time part is ignored'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['bounce'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => ({
			query: readDayFilter(this, itemIndex),
			...readReturnAllAndLimit(this, itemIndex),
		}),
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const records = await client.paginate(
				{ method: 'GET', path: '/smtp/bounces/day', query, itemIndex },
				{
					returnAll,
					limit,
					pageSize: BOUNCE_PAGE_SIZE,
					extract: (body) => bounceList(body)?.records,
				},
			);
			const timeZone = this.getTimezone();
			return records.map((record) => bounceOutput(record, timeZone));
		},
	});
}
