import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../../shared/items/router';

import * as add from './add.operation';
import * as addWithVariables from './addWithVariables.operation';
import * as get from './get.operation';
import * as remove from './remove.operation';
import * as updateContactVariables from './updateContactVariables.operation';
import * as updateVariables from './updateVariables.operation';

/** This resource's operations by their `operation` value: the node's router reads them from here. */
export const operations: Record<string, Operation> = {
	add,
	addWithVariables,
	get,
	remove,
	updateContactVariables,
	updateVariables,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['phoneNumber'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add phone numbers to a mailing list',
				action: 'Add phone numbers to a list',
			},
			{
				name: 'Add With Variables',
				value: 'addWithVariables',
				description: 'Add phone numbers with variables to a mailing list',
				action: 'Add phone numbers with variables to a list',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one contact of a mailing list',
				action: 'Get a phone number',
			},
			{
				name: 'Remove',
				value: 'remove',
				description: 'Remove phone numbers from a mailing list',
				action: 'Remove phone numbers from a list',
			},
			{
				name: 'Update Contact Variables',
				value: 'updateContactVariables',
				description: "Change one contact's variables (name and value only)",
				action: 'Update contact variables',
			},
			{
				name: 'Update Variables',
				value: 'updateVariables',
				description: 'Set variables on many phone numbers of a mailing list',
				action: 'Update variables of phone numbers',
			},
		],
		default: 'add',
	},
	// Each operation's own fields, shown only for it (its displayOptions), from the table above.
	...Object.values(operations).flatMap((operation) => operation.description ?? []),
];
