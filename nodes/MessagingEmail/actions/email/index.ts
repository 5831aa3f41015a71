import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as get from './get.operation';
import * as getCount from './getCount.operation';
import * as getAll from './getAll.operation';
import * as getManyById from './getManyById.operation';
import * as send from './send.operation';
import * as sendAndWait from './sendAndWait.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = {
	get,
	getCount,
	getAll,
	getManyById,
	send,
	sendAndWait,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['email'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a sent email with its delivery and tracking data',
				action: 'Get a sent email',
			},
			{
				name: 'Get Count',
				value: 'getCount',
				description: 'Get the total number of sent emails',
				action: 'Get the number of sent emails',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sent emails',
				action: 'Get many sent emails',
			},
			{
				name: 'Get Many by ID',
				value: 'getManyById',
				description: 'Get several sent emails by their IDs (any number, 500 per request)',
				action: 'Get many sent emails by ID',
			},
			{ name: 'Send', value: 'send', description: 'Send an email', action: 'Send an email' },
			{
				name: 'Send and Wait for Response',
				value: 'sendAndWait',
				description: 'Send an email and wait for the answer given on the page its link opens',
				action: 'Send an email and wait for response',
			},
		],
		default: 'send',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
