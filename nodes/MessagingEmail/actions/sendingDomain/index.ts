import type { INodeProperties } from 'n8n-workflow';

import * as add from './add.operation';
import * as getAll from './getAll.operation';

export { add, getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sendingDomain'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add a sending domain',
				action: 'Add a sending domain',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the sending domains with their DNS checks',
				action: 'Get many sending domains',
			},
		],
		default: 'getAll',
	},
	...add.description,
	...getAll.description,
];
