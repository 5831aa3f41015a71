import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk, errorJson, inInputOrder, readEveryItem, sendAll, withItemIndex } from '../../shared/items';
import type { MessagingClient } from '../../shared/transport/client';

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
	const { values, errorItems } = await readEveryItem(context, steps.read);
	const entries = values.flatMap(({ itemIndex, value }) => value.map((one) => ({ itemIndex, value: one })));
	const results = await sendAll(context, client, chunk(entries, Math.max(1, steps.chunkSize)), {
		send: async (entriesOfChunk) => steps.output(entriesOfChunk, await steps.send(entriesOfChunk.map((entry) => entry.value))),
		firstItem: (entriesOfChunk) => entriesOfChunk[0].itemIndex,
		onFailure: (error, entriesOfChunk) =>
			[...new Set(entriesOfChunk.map((entry) => entry.itemIndex))].map((itemIndex) => ({
				json: {
					...errorJson(withItemIndex(error, itemIndex)),
					...steps.describeFailed(entriesOfChunk.filter((entry) => entry.itemIndex === itemIndex).map((entry) => entry.value)),
				},
				pairedItem: { item: itemIndex },
			})),
	});
	return inInputOrder([...errorItems, ...results.flat()]);
}
