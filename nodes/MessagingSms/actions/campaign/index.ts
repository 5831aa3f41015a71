import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as cancel from './cancel.operation';
import * as createForList from './createForList.operation';
import * as deleteCampaign from './delete.operation';
import * as get from './get.operation';
import * as getCost from './getCost.operation';
import * as getAll from './getAll.operation';
import * as sendAndWait from './sendAndWait.operation';
import * as sendToNumbers from './sendToNumbers.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = {
	cancel,
	createForList,
	delete: deleteCampaign,
	get,
	getAll,
	getCost,
	sendAndWait,
	sendToNumbers,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a campaign before sending starts',
				action: 'Cancel a campaign',
			},
			{
				name: 'Create for List',
				value: 'createForList',
				description: 'Send an SMS campaign to a mailing list',
				action: 'Create a campaign for a mailing list',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a campaign',
				action: 'Delete a campaign',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a campaign with the status of each phone',
				action: 'Get a campaign',
			},
			{
				name: 'Get Cost',
				value: 'getCost',
				description: 'Calculate what a campaign would cost',
				action: 'Get the cost of a campaign',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List campaigns created in a period',
				action: 'Get many campaigns',
			},
			{
				name: 'Send and Wait for Response',
				value: 'sendAndWait',
				description:
					'Send one SMS with a link to an answer page and wait for the answer (approval, text or a form)',
				action: 'Send an SMS and wait for response',
			},
			{
				name: 'Send to Numbers',
				value: 'sendToNumbers',
				description: 'Send an SMS campaign to phone numbers',
				action: 'Send an SMS to phone numbers',
			},
		],
		default: 'sendToNumbers',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
