import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData, type INodeProperties } from 'n8n-workflow';

import type { MessagingClient } from '../../../shared/transport/client';
import { runInChunks } from '../../helpers/batch';
import { batchOptionsField, batchSize, emailsField, readEmails } from './shared';

const properties: INodeProperties[] = [emailsField, batchOptionsField];

export const description = updateDisplayOptions({ show: { resource: ['unsubscribe'], operation: ['remove'] } }, properties);

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runInChunks<string>(this, client, {
		read: (itemIndex) => readEmails(this, itemIndex),
		chunkSize: batchSize(this),
		// The live service reads the list from a JSON body on DELETE (wire notes).
		send: async (emails) => await client.request({ method: 'DELETE', path: '/smtp/unsubscribe', body: { emails } }),
		output: (entries) => entries.map(({ itemIndex, value }) => ({ json: { email: value, result: true }, pairedItem: { item: itemIndex } })),
		describeFailed: (emails) => ({ emails }),
	});
}
