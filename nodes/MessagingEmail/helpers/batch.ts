import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk, errorJson, withItemIndex } from '../../shared/items';
import type { MessagingClient } from '../../shared/transport/client';
import { mapConcurrently } from '../../shared/transport/pacer';

export interface Entry<T> {
	itemIndex: number;
	value: T;
}

/**
 * For operations that combine all input items into as few requests as the service allows: reads every item first
 * (bad input fails before anything is sent; with Continue On Fail it becomes that item's error item), then sends
 * the combined values in chunks, concurrently within the client's pace. A failed chunk fails only the items it
 * carried: one error item per such item (with the values of that item the chunk held). Output is ordered by the
 * first input item each output item is paired to.
 */
export async function runInChunks<T>(
	context: IExecuteFunctions,
	client: MessagingClient,
	steps: {
		read: (itemIndex: number) => T[] | Promise<T[]>;
		chunkSize: number;
		send: (values: T[]) => Promise<unknown>;
		/** Output items for one chunk that succeeded. */
		output: (entries: Array<Entry<T>>, answer: unknown) => INodeExecutionData[];
		/** What an error item carries besides the error (e.g. the item's addresses in the failed chunk). */
		describeFailed: (values: T[]) => IDataObject;
	},
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const itemCount = context.getInputData().length;
	const output: INodeExecutionData[] = [];
	const entries: Array<Entry<T>> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			for (const value of await steps.read(itemIndex)) entries.push({ itemIndex, value });
		} catch (error) {
			if (!continueOnFail) throw withItemIndex(error, itemIndex);
			output.push({ json: errorJson(withItemIndex(error, itemIndex)), pairedItem: { item: itemIndex } });
		}
	}

	const chunks = chunk(entries, Math.max(1, steps.chunkSize));
	let stopped = false;
	const results = await mapConcurrently(chunks.length, client.pacer.concurrency, async (index) => {
		const entriesOfChunk = chunks[index];
		if (stopped) return [];
		try {
			const answer = await steps.send(entriesOfChunk.map((entry) => entry.value));
			return steps.output(entriesOfChunk, answer);
		} catch (error) {
			const firstItem = entriesOfChunk[0].itemIndex;
			if (!continueOnFail) {
				stopped = true;
				throw withItemIndex(error, firstItem);
			}
			const items = [...new Set(entriesOfChunk.map((entry) => entry.itemIndex))];
			return items.map((itemIndex) => ({
				json: {
					...errorJson(withItemIndex(error, itemIndex)),
					...steps.describeFailed(entriesOfChunk.filter((entry) => entry.itemIndex === itemIndex).map((entry) => entry.value)),
				},
				pairedItem: { item: itemIndex },
			}));
		}
	});
	output.push(...results.flat());
	const firstPaired = (item: INodeExecutionData) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
		return Math.min(...paired.map((entry) => (typeof entry === 'number' ? entry : (entry?.item ?? 0))));
	};
	return output
		.map((item, position) => ({ item, position, first: firstPaired(item) }))
		.sort((a, b) => a.first - b.first || a.position - b.position)
		.map(({ item }) => item);
}
