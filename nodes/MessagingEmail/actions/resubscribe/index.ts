import type { INodeProperties } from 'n8n-workflow';

import * as sendRequest from './sendRequest.operation';

export { sendRequest };

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
	...sendRequest.description,
];
