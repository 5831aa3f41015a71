import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { readBatching, runBulk } from '../../../shared/items/bulk';
import { batchingField, emailsField, readEmails, UNSUBSCRIBE_BATCH_SIZE } from './shared';
import { readText } from '../../../shared/items/parameters';

const properties: INodeProperties[] = [
	emailsField,
	{
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		default: '',
		description: "Why the addresses are unsubscribed (kept with this item's addresses)",
	},
	batchingField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['unsubscribe'], operation: ['add'] } },
	properties,
);

interface Unsubscription {
	email: string;
	comment?: string;
}

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runBulk<null, Unsubscription>(this, client, {
		batching: readBatching(this, UNSUBSCRIBE_BATCH_SIZE, UNSUBSCRIBE_BATCH_SIZE),
		prepare: (itemIndex) => {
			const comment = readText(this, 'comment', itemIndex).trim();
			const values = readEmails(this, itemIndex).map((email) =>
				comment ? { email, comment } : { email },
			);
			return { key: '', group: null, values };
		},
		send: async ({ entries }) => {
			await client.request({
				method: 'POST',
				path: '/smtp/unsubscribe',
				body: { emails: entries.map(({ value }): IDataObject => ({ ...value })) },
			});
			return entries.map(({ value, items }) => ({ json: { ...value, result: true }, items }));
		},
		describeFailed: (values) => ({ emails: values.map((value) => value.email) }),
	});
}
