import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { errorJson, inInputOrder, pairedTo, readEveryItem, sendAll, withItemIndex } from './items';
import { readParameter } from './parameters';
import type { MessagingClient } from './transport/client';

/**
 * The one bulk engine: the values of all input items (phones, addresses, email IDs) are combined per group key
 * (same mailing list, same campaign settings...) into as few requests as the batch size allows, instead of one
 * request per item. Every item is read first (bad input fails before anything is sent; with Continue On Fail it
 * becomes that item's error item). A failed request fails only the items it carried: one error item per such
 * item, with that item's values the request held. Output is ordered by the first input item each output item is
 * paired to.
 */

export interface BulkPlan<G, V> {
	/** Items with the same key share requests. */
	key: string;
	group: G;
	values: V[];
}

export interface BulkEntry<V> {
	value: V;
	/** The input items this value came from (more than one when `identify` merged a repeated value). */
	items: number[];
}

export interface BulkBatch<G, V> {
	group: G;
	entries: Array<BulkEntry<V>>;
	/** Every input item this request serves, ascending. */
	items: number[];
}

export interface BulkOutput {
	json: IDataObject;
	items: number[];
}

export interface Batching {
	combineItems: boolean;
	batchSize: number;
}

/** The one option shape of bulk operations: a "Batching" collection (Combine Items, Batch Size). */
export function batchingField({
	unit,
	defaultSize,
	maxSize,
	note,
}: {
	unit: string;
	defaultSize: number;
	maxSize?: number;
	/** Where the size comes from, shown in brackets after "Max <unit> per request". */
	note: string;
}): INodeProperties {
	return {
		displayName: 'Batching',
		name: 'batching',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Combine Items',
				name: 'combineItems',
				type: 'boolean',
				default: true,
				description: `Whether to combine the ${unit} of all input items into as few requests as possible. Off: each item is sent on its own.`,
			},
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: maxSize ? { minValue: 1, maxValue: maxSize } : { minValue: 1 },
				default: defaultSize,
				description: `Max ${unit} per request (${note})`,
			},
		],
	};
}

/** Reads the "Batching" collection (once per run: items share requests). */
export function readBatching(
	context: IExecuteFunctions,
	defaultSize: number,
	maxSize = Infinity,
): Batching {
	const options = readParameter(context, 'batching', 0, {}) as IDataObject;
	const size = Math.floor(Number(options.batchSize ?? defaultSize));
	return {
		combineItems: options.combineItems !== false,
		batchSize: Math.max(1, Math.min(Number.isFinite(size) ? size : defaultSize, maxSize)),
	};
}

function paired(items: number[]) {
	return items.length === 1 ? { item: items[0] } : pairedTo(items);
}

export async function runBulk<G, V>(
	context: IExecuteFunctions,
	client: MessagingClient,
	spec: {
		batching: Batching;
		prepare: (itemIndex: number) => BulkPlan<G, V> | Promise<BulkPlan<G, V>>;
		/**
		 * Values with the same identity in one group are sent once, paired to every item that gave them; `merge`
		 * decides what is sent (default: the later item's value). Without it every value is sent as given.
		 */
		identify?: (value: V) => string;
		merge?: (earlier: V, later: V) => V;
		send: (batch: BulkBatch<G, V>) => Promise<BulkOutput[]>;
		/** What an error item carries besides the error (e.g. the item's phones in the failed request). */
		describeFailed: (values: V[]) => IDataObject;
	},
): Promise<INodeExecutionData[]> {
	const { combineItems, batchSize } = spec.batching;
	const { values: plans, errorItems } = await readEveryItem(context, spec.prepare);

	const groups = new Map<string, { group: G; entries: Map<string, BulkEntry<V>> }>();
	let position = 0;
	for (const { itemIndex, value: plan } of plans) {
		const key = combineItems ? plan.key : `${plan.key}#${itemIndex}`;
		let group = groups.get(key);
		if (!group) {
			group = { group: plan.group, entries: new Map() };
			groups.set(key, group);
		}
		for (const value of plan.values) {
			const identity = spec.identify ? spec.identify(value) : String(position++);
			const entry = group.entries.get(identity);
			if (!entry) group.entries.set(identity, { value, items: [itemIndex] });
			else {
				entry.value = spec.merge ? spec.merge(entry.value, value) : value;
				if (!entry.items.includes(itemIndex)) entry.items.push(itemIndex);
			}
		}
	}

	const batches: Array<BulkBatch<G, V>> = [];
	for (const { group, entries } of groups.values()) {
		const list = [...entries.values()];
		for (let start = 0; start < list.length; start += batchSize) {
			const slice = list.slice(start, start + batchSize);
			const items = [...new Set(slice.flatMap((entry) => entry.items))].sort((a, b) => a - b);
			batches.push({ group, entries: slice, items });
		}
	}

	const results = await sendAll(context, client, batches, {
		send: async (batch) =>
			(await spec.send(batch)).map(({ json, items }) => ({ json, pairedItem: paired(items) })),
		firstItem: (batch) => batch.items[0],
		onFailure: (error, batch) =>
			batch.items.map((itemIndex) => ({
				json: {
					...errorJson(withItemIndex(error, itemIndex)),
					...spec.describeFailed(
						batch.entries
							.filter((entry) => entry.items.includes(itemIndex))
							.map((entry) => entry.value),
					),
				},
				pairedItem: { item: itemIndex },
			})),
	});
	return inInputOrder([...errorItems, ...results.flat()]);
}
