import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { checkWholeNumber } from '../values/checks';
import { errorJson, forEveryItem, inInputOrder, pairedTo, sendAll, type SendGate } from './engine';
import { invalidInput } from '../values/inputErrors';
import { readParameter } from './parameters';
import type { MessagingClient } from '../transport/client';

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
	/** This request's values, in order. */
	values: V[];
	/** The same values, each with the input items it came from (made only when read). */
	readonly entries: Array<BulkEntry<V>>;
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

/**
 * Reads the "Batching" collection (once per run: items share requests, so a bad Batch Size is an error of item 0).
 * Batch Size is checked here too: an expression bypasses the editor's minimum and maximum. Unset or empty gives
 * the default; text holding a number is read as Request Options read it.
 */
export function readBatching(
	context: IExecuteFunctions,
	defaultSize: number,
	maxSize = Infinity,
): Batching {
	const options = readParameter(context, 'batching', 0, {}) as IDataObject;
	const given = options.batchSize;
	const batchSize = checkWholeNumber(
		given === undefined || given === null || given === '' ? defaultSize : given,
		{ min: 1, max: maxSize },
		(problem) => invalidInput(context, 0, 'Batch Size', problem),
	);
	return { combineItems: options.combineItems !== false, batchSize };
}

function paired(items: number[]) {
	return items.length === 1 ? { item: items[0] } : pairedTo(items);
}

/**
 * What one group key has gathered: its values in first-seen order and, at the same position, the input item
 * each came from (a list only when a repeated value merged several items). Parallel arrays and one identity map
 * instead of an object per value: 100,000 phones are kept as little more than the strings themselves.
 */
interface Gathered<G, V> {
	group: G;
	values: V[];
	items: Array<number | number[]>;
	/** identity → position; only when values are identified. */
	positions?: Map<string, number>;
}

/** One request's share of a group: positions [start, end). */
interface Slice<G, V> {
	gathered: Gathered<G, V>;
	start: number;
	end: number;
}

function itemsAt<G, V>(gathered: Gathered<G, V>, position: number): number[] {
	const of = gathered.items[position];
	return typeof of === 'number' ? [of] : of;
}

/** The input items a slice serves, ascending and once each. */
function sliceItems<G, V>({ gathered, start, end }: Slice<G, V>): number[] {
	const items: number[] = [];
	let merged = false;
	for (let position = start; position < end; position++) {
		const of = gathered.items[position];
		if (typeof of !== 'number') {
			merged = true;
			for (const item of of) items.push(item);
		} else if (items[items.length - 1] !== of) items.push(of);
	}
	// Single items were gathered in input order; merged ones may come from anywhere.
	return merged ? [...new Set(items)].sort((a, b) => a - b) : items;
}

/**
 * The batch handed to `send`, made when its request is about to go (not all of them up front). Most requests need
 * only the values: the entries (an object and a list per value) are made when an operation reads them.
 */
function batchOf<G, V>(slice: Slice<G, V>): BulkBatch<G, V> {
	const { gathered, start, end } = slice;
	let entries: Array<BulkEntry<V>> | undefined;
	return {
		group: gathered.group,
		values: gathered.values.slice(start, end),
		get entries() {
			if (!entries) {
				entries = [];
				for (let position = start; position < end; position++)
					entries.push({ value: gathered.values[position], items: itemsAt(gathered, position) });
			}
			return entries;
		},
		items: sliceItems(slice),
	};
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
		/** Decides which read items are sent (Send Once per Key); without it every read item is. */
		gate?: SendGate;
	},
): Promise<INodeExecutionData[]> {
	const { combineItems, batchSize } = spec.batching;
	const { identify, merge } = spec;

	// Each item's values go into their group as the item is read; nothing per item is kept besides that (with a
	// gate, the plans are kept until it has admitted the items).
	const groups = new Map<string, Gathered<G, V>>();
	const gather = (itemIndex: number, plan: BulkPlan<G, V>) => {
		const key = combineItems ? plan.key : `${plan.key}#${itemIndex}`;
		let gathered = groups.get(key);
		if (!gathered) {
			gathered = { group: plan.group, values: [], items: [] };
			if (identify) gathered.positions = new Map();
			groups.set(key, gathered);
		}
		const { values, items, positions } = gathered;
		for (const value of plan.values) {
			if (!positions) {
				values.push(value);
				items.push(itemIndex);
				continue;
			}
			const identity = identify!(value);
			const position = positions.get(identity);
			if (position === undefined) {
				positions.set(identity, values.length);
				values.push(value);
				items.push(itemIndex);
				continue;
			}
			values[position] = merge ? merge(values[position], value) : value;
			// Items are read in order, so an item already listed is the last one.
			const of = items[position];
			if (typeof of === 'number') {
				if (of !== itemIndex) items[position] = [of, itemIndex];
			} else if (of[of.length - 1] !== itemIndex) of.push(itemIndex);
		}
	};
	const { gate } = spec;
	const plans: Array<[number, BulkPlan<G, V>]> = [];
	const errorItems = await forEveryItem(
		context,
		spec.prepare,
		gate ? (itemIndex, plan) => plans.push([itemIndex, plan]) : gather,
	);
	if (gate) {
		const admitted = await gate.admit(plans.map(([itemIndex]) => itemIndex));
		for (const [itemIndex, plan] of plans) if (admitted.has(itemIndex)) gather(itemIndex, plan);
	}

	const slices: Array<Slice<G, V>> = [];
	for (const gathered of groups.values()) {
		gathered.positions = undefined;
		for (let start = 0; start < gathered.values.length; start += batchSize)
			slices.push({ gathered, start, end: Math.min(start + batchSize, gathered.values.length) });
	}

	const sendSlice = async (slice: Slice<G, V>) =>
		(await spec.send(batchOf(slice))).map(({ json, items }) => ({
			json,
			pairedItem: paired(items),
		}));
	let results: INodeExecutionData[][];
	try {
		results = await sendAll(context, client, slices, {
			send: async (slice) =>
				gate
					? await gate.send(sliceItems(slice), async () => await sendSlice(slice))
					: await sendSlice(slice),
			firstItem: (slice) => sliceItems(slice)[0],
			onFailure: (error, slice) => {
				const batch = batchOf(slice);
				return batch.items.map((itemIndex) => ({
					json: {
						...errorJson(error),
						...spec.describeFailed(
							batch.entries
								.filter((entry) => entry.items.includes(itemIndex))
								.map((entry) => entry.value),
						),
					},
					pairedItem: { item: itemIndex },
				}));
			},
		});
	} finally {
		if (gate) await gate.settle();
	}
	return inInputOrder([...errorItems, ...results.flat(), ...(gate?.notSent() ?? [])]);
}
