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
import { normaliseUnsubscribe } from '../../../shared/records/email';

const properties: INodeProperties[] = [
	...returnAllAndLimit({}),
	dayFilterField('Only addresses unsubscribed on this day; the time part is ignored'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unsubscribe'], operation: ['getAll'] } },
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
				{ method: 'GET', path: '/smtp/unsubscribe', query, itemIndex },
				{ returnAll, limit, pageSize: 100 },
			);
			return records.map(normaliseUnsubscribe);
		},
	});
}
