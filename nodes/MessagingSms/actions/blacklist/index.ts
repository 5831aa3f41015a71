import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as add from './add.operation';
import * as check from './check.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { add, check, getAll, remove };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['blacklist'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add phone numbers to the blacklist',
				action: 'Add phone numbers to the blacklist',
			},
			{
				name: 'Check Numbers',
				value: 'check',
				description: 'Check whether phone numbers are blacklisted',
				action: 'Check phone numbers against the blacklist',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the blacklist',
				action: 'Get many blacklist entries',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Remove phone numbers from the blacklist',
				action: 'Remove phone numbers from the blacklist',
			},
		],
		default: 'add',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
