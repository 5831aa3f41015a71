import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['senderId'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sender IDs with their moderation status',
				action: 'Get many SMS senders',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
