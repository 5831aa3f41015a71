import { updateDisplayOptions, type IDataObject, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { runInChunks } from '../../helpers/batch';
import { batchOptionsField, batchSize, emailsField, readEmails } from './shared';

const properties: INodeProperties[] = [
	emailsField,
	{
		displayName: 'Comment',
		name: 'comment',
		type: 'string',
		default: '',
		description: "Why the addresses are unsubscribed (kept with this item's addresses)",
	},
	batchOptionsField,
];

export const description = updateDisplayOptions({ show: { resource: ['unsubscribe'], operation: ['add'] } }, properties);

interface Unsubscription {
	email: string;
	comment?: string;
}

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runInChunks<Unsubscription>(this, client, {
		read: (itemIndex) => {
			const comment = String(this.getNodeParameter('comment', itemIndex, '') ?? '').trim();
			return readEmails(this, itemIndex).map((email) => (comment ? { email, comment } : { email }));
		},
		chunkSize: batchSize(this),
		send: async (emails) => await client.request({ method: 'POST', path: '/smtp/unsubscribe', body: { emails: emails.map((entry): IDataObject => ({ ...entry })) } }),
		output: (entries) => entries.map(({ itemIndex, value }) => ({ json: { ...value, result: true }, pairedItem: { item: itemIndex } })),
		describeFailed: (values) => ({ emails: values.map((value) => value.email) }),
	});
}
