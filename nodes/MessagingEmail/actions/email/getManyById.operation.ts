import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput, pairedTo } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { runInChunks } from '../../helpers/batch';
import { normaliseEmailRecord } from '../../helpers/normalise';

/** The service's limit for POST /smtp/emails/info. */
export const EMAIL_INFO_MAX_IDS = 500;

const properties: INodeProperties[] = [
	{
		displayName: 'Email IDs',
		name: 'emailIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'pzkic9-0afezp-fc, q1w2e3-r4t5y6-u7',
		description:
			'IDs of sent emails, comma-separated (an expression may give an array). IDs from all input items are combined and sent in requests of at most 500.',
	},
];

export const description = updateDisplayOptions({ show: { resource: ['email'], operation: ['getManyById'] } }, properties);

function readIds(context: IExecuteFunctions, itemIndex: number): string[] {
	const raw = context.getNodeParameter('emailIds', itemIndex, '') as unknown;
	const list = Array.isArray(raw) ? raw : String(raw ?? '').split(/[,;\s]+/);
	const ids = list.map((id) => String(id ?? '').trim()).filter((id) => id !== '');
	if (ids.length === 0) throw invalidInput(context, itemIndex, 'Email IDs', 'no email ID given');
	return ids;
}

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	// Each ID is asked for once, however many items name it; its record is paired to all of them.
	const requestedBy = new Map<string, number[]>();
	return await runInChunks<string>(this, client, {
		read: (itemIndex) => {
			const fresh: string[] = [];
			for (const id of readIds(this, itemIndex)) {
				const items = requestedBy.get(id);
				if (!items) {
					requestedBy.set(id, [itemIndex]);
					fresh.push(id);
				} else if (!items.includes(itemIndex)) {
					items.push(itemIndex);
				}
			}
			return fresh;
		},
		chunkSize: EMAIL_INFO_MAX_IDS,
		send: async (ids) => await client.request({ method: 'POST', path: '/smtp/emails/info', body: { emails: ids } }),
		output: (entries, answer) => {
			const records = Array.isArray(answer) ? answer : [];
			return records.map((raw) => {
				const record = normaliseEmailRecord(raw);
				const items = requestedBy.get(String(record.id)) ?? [];
				return { json: record, pairedItem: pairedTo(items.length ? items : [entries[0].itemIndex]) };
			});
		},
		describeFailed: (ids): IDataObject => ({ emailIds: ids }),
	});
}
