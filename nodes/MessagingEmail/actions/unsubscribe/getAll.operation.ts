import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/values/account';
import type { MessagingClient } from '../../../shared/transport/client';
import { unsubscribeOutput } from '../../../shared/records/emailEvents';
import { unsubscribeList } from '../../../shared/records/unsubscribes';
import { dayListProperties, runDayList } from '../../helpers/dayList';

const properties: INodeProperties[] = [
	...dayListProperties('Only addresses unsubscribed on this day; the time part is ignored'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unsubscribe'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const timeZone = await readAccountTimeZone(this);
	return await runDayList(this, client, {
		path: '/smtp/unsubscribe',
		pageSize: 100,
		extract: unsubscribeList,
		output: (record) => unsubscribeOutput(record, timeZone),
	});
}
