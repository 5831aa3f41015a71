import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['senderId'] } },
		options: [{ name: 'Get Many', value: 'getMany', description: 'List sender IDs with their moderation status', action: 'Get many sender ids' }],
		default: 'getMany',
	},
	...getMany.description,
];
