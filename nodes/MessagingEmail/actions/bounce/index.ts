import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as getCount from './getCount.operation';
import * as getAll from './getAll.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { getCount, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bounce'] } },
		options: [
			{
				name: 'Get Count',
				value: 'getCount',
				description: 'Get the number of bounces in the last 24 hours',
				action: 'Get the number of bounces',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the bounces of the last 24 hours',
				action: 'Get many bounces',
			},
		],
		default: 'getAll',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
