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
		displayOptions: { show: { resource: ['unsubscribe'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add addresses to the unsubscribed list',
				action: 'Unsubscribe addresses',
			},
			{
				name: 'Check',
				value: 'check',
				description: 'Check whether an address is unsubscribed',
				action: 'Check an address',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List unsubscribed addresses',
				action: 'Get many unsubscribed addresses',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Remove addresses from the unsubscribed list',
				action: 'Remove addresses from the unsubscribed list',
			},
		],
		default: 'add',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
