import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/router';

import * as addAddress from './addAddress.operation';
import * as getManyAddresses from './getManyAddresses.operation';
import * as getManyIps from './getManyIps.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = { addAddress, getManyAddresses, getManyIps };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['sender'] } },
		options: [
			{
				name: 'Add Address',
				value: 'addAddress',
				description: 'Add a sender email address',
				action: 'Add a sender address',
			},
			{
				name: 'Get Many Addresses',
				value: 'getManyAddresses',
				description: 'List the sender email addresses',
				action: 'Get many sender addresses',
			},
			{
				name: 'Get Many IPs',
				value: 'getManyIps',
				description: 'List the sending IP addresses',
				action: 'Get many sending IP addresses',
			},
		],
		default: 'getManyAddresses',
	},
	...addAddress.description,
	...getManyAddresses.description,
	...getManyIps.description,
];
