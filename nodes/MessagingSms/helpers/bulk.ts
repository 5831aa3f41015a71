import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { errorJson, inInputOrder, invalidInput, pairedTo, readEveryItem, sendAll } from '../../shared/items';
import type { MessagingClient } from '../../shared/transport/client';
import { parsePhones } from './phones';

/** Phones per request when the user sets nothing. The service documents no limit; 1,000 keeps bodies small. */
export const DEFAULT_BATCH_SIZE = 1000;
/** GET endpoints carry the phones in the URL: fewer per request keeps the URL well under 8 KB. */
export const MAX_PHONES_PER_QUERY = 250;

export interface BulkPlan<G, D> {
	/** Items with the same key (same mailing list, same campaign settings...) share requests. */
	key: string;
	group: G;
	phones: Array<{ phone: string; data?: D }>;
}

export interface BulkBatch<G, D> {
	group: G;
	/** Unique phones of this request, each with the items it came from. */
	entries: Array<{ phone: string; data?: D; items: number[] }>;
	/** Every input item this request serves, ascending. */
	items: number[];
}

export interface BulkOutput {
	json: IDataObject;
	items: number[];
}

interface Batching {
	combineItems: boolean;
	batchSize: number;
}

export function readBatching(context: IExecuteFunctions, maxBatchSize = Infinity): Batching {
	const options = context.getNodeParameter('batching', 0, {}) as IDataObject;
	const size = Number(options.batchSize ?? DEFAULT_BATCH_SIZE);
	return {
		combineItems: options.combineItems !== false,
		batchSize: Math.max(1, Math.min(Number.isFinite(size) ? Math.floor(size) : DEFAULT_BATCH_SIZE, maxBatchSize)),
	};
}

/** The phones of one item, normalised; invalid ones fail the item before anything is sent. */
export function readPhones(context: IExecuteFunctions, itemIndex: number, name = 'phones', displayName = 'Phones'): string[] {
	const { phones, invalid } = parsePhones(context.getNodeParameter(name, itemIndex, ''));
	if (invalid.length) {
		throw invalidInput(
			context,
			itemIndex,
			displayName,
			`not a valid phone number: ${invalid.map((phone) => JSON.stringify(phone)).join(', ')}`,
			'Give international numbers with the country code (7 to 15 digits; spaces, dashes, brackets and a leading + are removed)',
		);
	}
	if (!phones.length) throw invalidInput(context, itemIndex, displayName, 'no phone number given');
	return phones;
}

function paired(items: number[]) {
	return items.length === 1 ? { item: items[0] } : pairedTo(items);
}

/**
 * Bulk operations: the phones of all input items are combined (per group key) into as few requests as the batch
 * size allows, instead of one request per item. Every item is validated before the first request. Each output
 * item is paired to the input items whose phones it carries; a failed request fails only those items when
 * "Continue On Fail" is on. With "Combine Items" off, each item gets its own request(s).
 */
export async function runBulk<G, D = undefined>(
	context: IExecuteFunctions,
	client: MessagingClient,
	spec: {
		prepare: (itemIndex: number) => BulkPlan<G, D>;
		send: (batch: BulkBatch<G, D>) => Promise<BulkOutput[]>;
		maxBatchSize?: number;
	},
): Promise<INodeExecutionData[]> {
	const { combineItems, batchSize } = readBatching(context, spec.maxBatchSize);
	const { values: plans, errorItems } = await readEveryItem(context, spec.prepare);

	const groups = new Map<string, { group: G; entries: Map<string, { phone: string; data?: D; items: number[] }> }>();
	for (const { itemIndex, value: plan } of plans) {
		const key = combineItems ? plan.key : `${plan.key}#${itemIndex}`;
		let group = groups.get(key);
		if (!group) {
			group = { group: plan.group, entries: new Map() };
			groups.set(key, group);
		}
		for (const { phone, data } of plan.phones) {
			const entry = group.entries.get(phone);
			if (!entry) group.entries.set(phone, { phone, data, items: [itemIndex] });
			else {
				// The same phone twice in one group: sent once; the later item's data wins; both items are paired.
				if (data !== undefined) entry.data = data;
				if (!entry.items.includes(itemIndex)) entry.items.push(itemIndex);
			}
		}
	}

	const batches: Array<BulkBatch<G, D>> = [];
	for (const { group, entries } of groups.values()) {
		const list = [...entries.values()];
		for (let start = 0; start < list.length; start += batchSize) {
			const slice = list.slice(start, start + batchSize);
			const items = [...new Set(slice.flatMap((entry) => entry.items))].sort((a, b) => a - b);
			batches.push({ group, entries: slice, items });
		}
	}

	const results = await sendAll(context, client, batches, {
		send: async (batch) => (await spec.send(batch)).map(({ json, items }) => ({ json, pairedItem: paired(items) })),
		firstItem: (batch) => batch.items[0],
		onFailure: (error, batch) => [{ json: { ...errorJson(error), phones: batch.entries.map((entry) => entry.phone) }, pairedItem: paired(batch.items) }],
	});
	return inInputOrder([...errorItems, ...results.flat()]);
}
