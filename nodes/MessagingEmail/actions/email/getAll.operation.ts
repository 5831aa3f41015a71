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
import { normaliseEmailRecord } from '../../../shared/records/email';
import { readParameter } from '../../../shared/items/parameters';

const displayOptions = { show: { resource: ['email'], operation: ['getAll'] } };

const SENT_AFTER: DateBound = {
	name: 'from',
	displayName: 'Sent After',
	description: "Only emails sent at or after this time (in the workflow's time zone)",
};
const SENT_BEFORE: DateBound = {
	name: 'to',
	displayName: 'Sent Before',
	description: "Only emails sent at or before this time (in the workflow's time zone)",
};

const properties: INodeProperties[] = [
	...returnAllAndLimit({}),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				type: 'string',
				default: '',
				placeholder: 'name@email.com',
				description: 'Only emails sent to this address',
			},
			{
				displayName: 'Sender',
				name: 'sender',
				type: 'string',
				default: '',
				placeholder: 'name@email.com',
				description: 'Only emails sent from this address',
			},
			...dateRangeOptions(SENT_AFTER, SENT_BEFORE),
			{
				displayName: 'Skip Country',
				name: 'skipCountry',
				type: 'boolean',
				default: false,
				description:
					'Whether the service should leave the recipient country unspecified (country=off)',
			},
		],
	},
];

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const filters = readParameter(this, 'filters', itemIndex, {}) as IDataObject;
			const query = readDateRange(this, itemIndex, filters, SENT_AFTER, SENT_BEFORE, accountZone);
			if (filters.sender) query.sender = String(filters.sender).trim();
			if (filters.recipient) query.recipient = String(filters.recipient).trim();
			if (filters.skipCountry === true) query.country = 'off';
			return {
				query,
				...readReturnAllAndLimit(this, itemIndex),
			};
		},
		send: async ({ query, returnAll, limit }, itemIndex) => {
			const records = await client.paginate(
				{ method: 'GET', path: '/smtp/emails', query, itemIndex },
				{ returnAll, limit, pageSize: 100 },
			);
			return records.map((record) => normaliseEmailRecord(record, accountZone));
		},
	});
}
