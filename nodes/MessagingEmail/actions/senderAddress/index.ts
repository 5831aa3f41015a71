import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as add from './add.operation';
import * as getAll from './getAll.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { add, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['senderAddress'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add a sender email address',
				action: 'Add a sender address',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the sender email addresses',
				action: 'Get many sender addresses',
			},
		],
		default: 'getAll',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
