import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../../shared/values/account';
import type { MessagingClient } from '../../../shared/transport/client';
import { bounceList, bounceOutput } from '../../../shared/records/emailEvents';
import { dayListProperties, runDayList } from '../../helpers/dayList';

/** The service's most records per bounce page (its answers carry `request_limit: 100`). */
const BOUNCE_PAGE_SIZE = 100;

const properties: INodeProperties[] = [
	{
		displayName: 'The service keeps bounces of the last 24 hours only',
		name: 'bounceNotice',
		type: 'notice',
		default: '',
	},
	...dayListProperties(
		'Only bounces of this day (within the last 24 hours); the time part is ignored',
	),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['bounce'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const timeZone = await readAccountTimeZone(this);
	return await runDayList(this, client, {
		path: '/smtp/bounces/day',
		pageSize: BOUNCE_PAGE_SIZE,
		extract: (body) => bounceList(body)?.records,
		output: (record) => bounceOutput(record, timeZone),
	});
}
