import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { readBatching, runBulk } from '../../../shared/items/bulk';
import { batchingField, emailsField, readEmails, UNSUBSCRIBE_BATCH_SIZE } from './shared';

const properties: INodeProperties[] = [emailsField, batchingField];

export const description = updateDisplayOptions(
	{ show: { resource: ['unsubscribe'], operation: ['remove'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runBulk<null, string>(this, client, {
		batching: readBatching(this, UNSUBSCRIBE_BATCH_SIZE, UNSUBSCRIBE_BATCH_SIZE),
		prepare: (itemIndex) => ({ key: '', group: null, values: readEmails(this, itemIndex) }),
		// The live service reads the list from a JSON body on DELETE (docs/service-notes.md, Email).
		send: async ({ entries }) => {
			const emails = entries.map((entry) => entry.value);
			await client.request({ method: 'DELETE', path: '/smtp/unsubscribe', body: { emails } });
			return entries.map(({ value, items }) => ({ json: { email: value, result: true }, items }));
		},
		describeFailed: (emails) => ({ emails }),
	});
}
