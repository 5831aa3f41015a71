import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IPairedItemData,
} from 'n8n-workflow';

import type { MessagingClient } from './transport/client';
import { mapConcurrently } from './transport/pacer';

/** Bad input for one item: names the parameter and the item, and is raised before anything is sent. */
export function invalidInput(context: IExecuteFunctions, itemIndex: number, parameter: string, problem: string, hint?: string) {
	return new NodeOperationError(context.getNode(), `${parameter}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: hint,
	});
}

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
		if (error.context.serviceErrorCode !== undefined) json.errorCode = error.context.serviceErrorCode as IDataObject[string];
	}
	return json;
}

export function pairedTo(itemIndexes: number[]): IPairedItemData[] {
	return itemIndexes.map((item) => ({ item }));
}

export function toItems(result: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem: { item: itemIndex } }));
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
	},
): Promise<INodeExecutionData[]> {
	const count = context.getInputData().length;
	const continueOnFail = context.continueOnFail();
	const prepared: Array<{ ok: true; value: Prepared } | { ok: false; error: Error }> = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			prepared.push({ ok: true, value: await steps.prepare(itemIndex) });
		} catch (error) {
			if (!continueOnFail) throw withItemIndex(error, itemIndex);
			prepared.push({ ok: false, error: withItemIndex(error, itemIndex) });
		}
	}

	let stopped = false;
	const results = await mapConcurrently(count, client.pacer.concurrency, async (itemIndex) => {
		const entry = prepared[itemIndex];
		if (!entry.ok) return toItems(errorJson(entry.error), itemIndex);
		if (stopped) return [];
		try {
			return toItems(await steps.send(entry.value, itemIndex), itemIndex);
		} catch (error) {
			if (!continueOnFail) {
				stopped = true;
				throw withItemIndex(error, itemIndex);
			}
			return toItems(errorJson(withItemIndex(error, itemIndex)), itemIndex);
		}
	});
	return results.flat();
}

export function chunk<T>(list: T[], size: number): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < list.length; start += size) chunks.push(list.slice(start, start + size));
	return chunks;
}
