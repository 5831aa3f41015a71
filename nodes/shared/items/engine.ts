import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IPairedItemData,
} from 'n8n-workflow';

import type { MessagingClient } from '../transport/client';
import { mapConcurrently } from '../transport/pacer';

/** n8n drops the item index when a NodeApiError is wrapped again; set it on the error itself. */
export function withItemIndex(error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return error instanceof Error ? error : new Error(String(error));
}

export function errorJson(error: unknown): IDataObject {
	const json: IDataObject = { error: error instanceof Error ? error.message : String(error) };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
		if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
		if (error.context.serviceErrorCode !== undefined)
			json.errorCode = error.context.serviceErrorCode as IDataObject[string];
	}
	return json;
}

export function pairedTo(itemIndexes: number[]): IPairedItemData[] {
	return itemIndexes.map((item) => ({ item }));
}

function toItems(result: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({
		json,
		pairedItem: { item: itemIndex },
	}));
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
	return (
		value !== null &&
		(typeof value === 'object' || typeof value === 'function') &&
		typeof (value as { then?: unknown }).then === 'function'
	);
}

/**
 * Reads every input item in order and hands each value to `take` as it is read (nothing is kept here, so a
 * bulk operation holds only what it combines, not one record per item). Without "Continue On Fail" the first bad
 * item throws; with it, each bad item becomes an error item (returned) and the others go on. A read that returns
 * a plain value is not awaited: 100,000 items would otherwise make 100,000 promises.
 */
export async function forEveryItem<T>(
	context: IExecuteFunctions,
	read: (itemIndex: number) => T | Promise<T>,
	take: (itemIndex: number, value: T) => void,
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const errorItems: INodeExecutionData[] = [];
	const count = context.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		let value: T;
		try {
			const result = read(itemIndex);
			value = isThenable(result) ? await result : result;
		} catch (error) {
			if (!continueOnFail) throw withItemIndex(error, itemIndex);
			errorItems.push(...toItems(errorJson(withItemIndex(error, itemIndex)), itemIndex));
			continue;
		}
		take(itemIndex, value);
	}
	return errorItems;
}

/**
 * Reads every input item before anything is sent, so bad input fails first. Without "Continue On Fail" the first
 * bad item throws; with it, each bad item becomes an error item and the others go on.
 */
async function readEveryItem<T>(
	context: IExecuteFunctions,
	read: (itemIndex: number) => T | Promise<T>,
): Promise<{ values: Array<{ itemIndex: number; value: T }>; errorItems: INodeExecutionData[] }> {
	const values: Array<{ itemIndex: number; value: T }> = [];
	const errorItems = await forEveryItem(context, read, (itemIndex, value) =>
		values.push({ itemIndex, value }),
	);
	return { values, errorItems };
}

/**
 * Sends the tasks concurrently within the client's pace. Without "Continue On Fail" the first failure stops new
 * requests and is thrown (tagged with the task's first item); with it, `onFailure` turns it into output items.
 * Results keep the tasks' order.
 */
export async function sendAll<T>(
	context: IExecuteFunctions,
	client: MessagingClient,
	tasks: T[],
	steps: {
		send: (task: T) => Promise<INodeExecutionData[]>;
		firstItem: (task: T) => number;
		onFailure: (error: Error, task: T) => INodeExecutionData[];
	},
): Promise<INodeExecutionData[][]> {
	const continueOnFail = context.continueOnFail();
	let stopped = false;
	return await mapConcurrently(tasks.length, client.pacer.concurrency, async (index) => {
		const task = tasks[index];
		if (stopped) return [];
		try {
			return await steps.send(task);
		} catch (error) {
			const tagged = withItemIndex(error, steps.firstItem(task));
			if (!continueOnFail) {
				stopped = true;
				throw tagged;
			}
			return steps.onFailure(tagged, task);
		}
	});
}

/**
 * One request (or a few) per input item, in two phases: every item is read and validated first, so bad input
 * fails before anything is sent; then items go out concurrently within the client's pace. Output keeps input
 * order, one or more items per input, each paired to it. With "Continue On Fail" a failed item becomes an
 * error item and the rest go on; without it, the first failure stops new requests and is thrown.
 */
export async function runPerItem<Prepared>(
	context: IExecuteFunctions,
	client: MessagingClient,
	steps: {
		prepare: (itemIndex: number) => Prepared | Promise<Prepared>;
		send: (prepared: Prepared, itemIndex: number) => Promise<IDataObject | IDataObject[]>;
		/** Decides which read items are sent (Send Once per Key); without it every read item is. */
		gate?: SendGate;
	},
): Promise<INodeExecutionData[]> {
	const { gate } = steps;
	const read = await readEveryItem(context, steps.prepare);
	let { values } = read;
	if (gate) {
		const admitted = await gate.admit(values.map(({ itemIndex }) => itemIndex));
		values = values.filter(({ itemIndex }) => admitted.has(itemIndex));
	}
	const send = async (value: Prepared, itemIndex: number) =>
		toItems(await steps.send(value, itemIndex), itemIndex);
	let results: INodeExecutionData[][];
	try {
		results = await sendAll(context, client, values, {
			send: async ({ value, itemIndex }) =>
				gate
					? await gate.send([itemIndex], async () => await send(value, itemIndex))
					: await send(value, itemIndex),
			firstItem: ({ itemIndex }) => itemIndex,
			onFailure: (error, { itemIndex }) => toItems(errorJson(error), itemIndex),
		});
	} finally {
		if (gate) await gate.settle();
	}
	return inInputOrder([...read.errorItems, ...results.flat(), ...(gate?.notSent() ?? [])]);
}

/**
 * Between reading and sending: which items go out, and what the others output (Send Once per Key,
 * shared/sendOnce/). The engines call `admit` once every item is read, run each request through `send`, and
 * `settle` once sending stopped (also after a failure), then add `notSent()` to the output.
 */
export interface SendGate {
	admit(itemIndexes: number[]): Promise<Set<number>>;
	/** Runs one request for these items; marks its output items (sent now) or handles its failure. */
	send(
		itemIndexes: number[],
		request: () => Promise<INodeExecutionData[]>,
	): Promise<INodeExecutionData[]>;
	settle(): Promise<void>;
	notSent(): INodeExecutionData[];
}

/** Orders output items by the first input item each is paired to (stable for items of the same input). */
export function inInputOrder(items: INodeExecutionData[]): INodeExecutionData[] {
	const firstPaired = (item: INodeExecutionData) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
		// A loop, not Math.min(...paired): a bulk output may be paired to 100,000 items, too many arguments.
		let first = Infinity;
		for (const entry of paired) {
			const index = typeof entry === 'number' ? entry : (entry?.item ?? 0);
			if (index < first) first = index;
		}
		return first;
	};
	return items
		.map((item, position) => ({ item, position, first: firstPaired(item) }))
		.sort((a, b) => a.first - b.first || a.position - b.position)
		.map(({ item }) => item);
}

export function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size)
		chunks.push(list.slice(start, start + size));
	return chunks;
}
