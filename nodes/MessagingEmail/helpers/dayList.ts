import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../shared/values/account';
import { readDateParameter } from '../../shared/values/dates';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../shared/items/fields';
import { runPerItem } from '../../shared/items/engine';
import { readParameter } from '../../shared/items/parameters';
import type { MessagingClient } from '../../shared/transport/client';

/**
 * The bounce and unsubscribe lists: Return All/Limit and one optional Day (the service's `date=YYYY-MM-DD`),
 * paged, each record turned into the node's output shape.
 */
export function dayListProperties(dayDescription: string): INodeProperties[] {
	return [
		...returnAllAndLimit({}),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Day',
					name: 'date',
					type: 'dateTime',
					default: '',
					description: dayDescription,
				},
			],
		},
	];
}

export async function runDayList(
	context: IExecuteFunctions,
	client: MessagingClient,
	list: {
		path: string;
		pageSize: number;
		/** The records of one page; undefined when the answer is not such a page. */
		extract?: (body: unknown) => IDataObject[] | undefined;
		output: (record: IDataObject) => IDataObject;
	},
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(context);
	return await runPerItem(context, client, {
		prepare: (itemIndex) => {
			const filters = readParameter(context, 'filters', itemIndex, {}) as IDataObject;
			const date = readDateParameter(context, itemIndex, filters.date, 'Day', accountZone, true);
			return { query: date ? { date } : {}, ...readReturnAllAndLimit(context, itemIndex) };
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const records = await client.paginate(
				{ method: 'GET', path: list.path, query, itemIndex },
				{ returnAll, limit, pageSize: list.pageSize, extract: list.extract },
			);
			return records.map(list.output);
		},
	});
}
