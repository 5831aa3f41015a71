import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as getAll from './getAll.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sendingIp'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the sending IP addresses',
				action: 'Get many sending IP addresses',
			},
		],
		default: 'getAll',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
