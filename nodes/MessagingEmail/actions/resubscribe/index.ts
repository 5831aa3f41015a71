import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as sendRequest from './sendRequest.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { sendRequest };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['resubscribe'] } },
		options: [
			{
				name: 'Send Request',
				value: 'sendRequest',
				description:
					'Email a contact a request to confirm resubscription (at most 5 per account per 24 hours)',
				action: 'Send a resubscription request',
			},
		],
		default: 'sendRequest',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
