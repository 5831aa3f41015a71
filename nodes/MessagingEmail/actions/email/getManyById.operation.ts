import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { emptyInput, invalidInput } from '../../../shared/values/inputErrors';
import type { MessagingClient } from '../../../shared/transport/client';
import { runBulk } from '../../../shared/items/bulk';
import { normaliseEmailRecord } from '../../../shared/records/email';
import { readParameter } from '../../../shared/items/parameters';
import { describeValue } from '../../../shared/values/objects';
import { readAccountTimeZone } from '../../../shared/values/account';

/** The service's limit for POST /smtp/emails/info. */
const EMAIL_INFO_MAX_IDS = 500;

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

export const description = updateDisplayOptions(
	{ show: { resource: ['email'], operation: ['getManyById'] } },
	properties,
);

function readIds(context: IExecuteFunctions, itemIndex: number): string[] {
	const raw = readParameter(context, 'emailIds', itemIndex, '', { list: true }) as unknown;
	// An object is no ID: it would be asked for as "[object Object]".
	const notText = (Array.isArray(raw) ? raw : [raw]).find(
		(entry) => entry !== null && typeof entry === 'object',
	);
	if (notText !== undefined)
		throw invalidInput(
			context,
			itemIndex,
			'Email IDs',
			`an ID must be text, but one is ${describeValue(notText)}`,
		);
	const list = Array.isArray(raw) ? raw : String(raw ?? '').split(/[,;\s]+/);
	const ids = list.map((id) => String(id ?? '').trim()).filter((id) => id !== '');
	if (ids.length === 0) throw emptyInput(context, itemIndex, 'Email IDs');
	return ids;
}

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	// Each ID is asked for once, however many items name it; its record is paired to all of them.
	return await runBulk<null, string>(this, client, {
		batching: { combineItems: true, batchSize: EMAIL_INFO_MAX_IDS },
		prepare: (itemIndex) => ({ key: '', group: null, values: readIds(this, itemIndex) }),
		identify: (id) => id,
		send: async ({ entries, items }) => {
			const records = await client.requestList({
				method: 'POST',
				path: '/smtp/emails/info',
				body: { emails: entries.map((entry) => entry.value) },
			});
			const requestedBy = new Map(entries.map((entry) => [entry.value, entry.items]));
			return records.map((raw) => {
				const record = normaliseEmailRecord(raw, accountZone);
				return { json: record, items: requestedBy.get(String(record.id)) ?? [items[0]] };
			});
		},
		describeFailed: (ids): IDataObject => ({ emailIds: ids }),
	});
}
