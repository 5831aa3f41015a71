import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { type BulkOutput, readBatching, runBulk } from '../../shared/items/bulk';
import type { SendGate } from '../../shared/items/engine';
import type { MessagingClient } from '../../shared/transport/client';

/** Phones per request when the user sets nothing. The service documents no limit; 1,000 keeps bodies small. */
export const DEFAULT_BATCH_SIZE = 1000;
/** GET endpoints carry the phones in the URL: fewer per request keeps the URL well under 8 KB. */
export const MAX_PHONES_PER_QUERY = 250;

export interface PhonePlan<G, D> {
	/** Items with the same key (same mailing list, same campaign settings...) share requests. */
	key: string;
	group: G;
	/** A phone alone (no data) is kept as the string itself: no object per phone for 100,000 of them. */
	phones: Array<string | { phone: string; data?: D }>;
}

type PhoneValue<D> = string | { phone: string; data?: D };

const phoneOf = <D>(value: PhoneValue<D>) => (typeof value === 'string' ? value : value.phone);
const dataOf = <D>(value: PhoneValue<D>) => (typeof value === 'string' ? undefined : value.data);

export interface PhoneBatch<G, D> {
	group: G;
	/** Unique phones of this request, in order. */
	phones: string[];
	/** The same phones, each with its data and the items it came from (made only when read). */
	readonly entries: Array<{ phone: string; data?: D; items: number[] }>;
	/** Every input item this request serves, ascending. */
	items: number[];
}

/**
 * Bulk SMS operations on the shared bulk engine: phones are combined per group key into as few requests as the
 * batch size allows ("Batching" option); the same phone twice in one group is sent once (the later item's data
 * wins) and paired to both items; a failed request's error items carry the phones of each item it held.
 */
export async function runPhoneBulk<G, D = undefined>(
	context: IExecuteFunctions,
	client: MessagingClient,
	spec: {
		prepare: (itemIndex: number) => PhonePlan<G, D>;
		send: (batch: PhoneBatch<G, D>) => Promise<BulkOutput[]>;
		/**
		 * Phones per request at most, whatever Batch Size says: the option is shared by all bulk SMS operations
		 * and its description names this cap (Check Numbers), so a larger Batch Size is not an error here.
		 */
		maxBatchSize?: number;
		/** Send Once per Key (shared/sendOnce/), when the operation offers it. */
		gate?: SendGate;
	},
): Promise<INodeExecutionData[]> {
	const batching = readBatching(context, DEFAULT_BATCH_SIZE);
	const batchSize = Math.min(batching.batchSize, spec.maxBatchSize ?? Infinity);
	return await runBulk<G, PhoneValue<D>>(context, client, {
		batching: { ...batching, batchSize },
		prepare: (itemIndex) => {
			const plan = spec.prepare(itemIndex);
			return { key: plan.key, group: plan.group, values: plan.phones };
		},
		identify: phoneOf,
		merge: (earlier, later) => (dataOf(later) !== undefined ? later : earlier),
		send: async (batch) => {
			let entries: PhoneBatch<G, D>['entries'] | undefined;
			return await spec.send({
				group: batch.group,
				phones: batch.values.map(phoneOf),
				// Made on first read only (two operations read them), then kept.
				get entries() {
					entries ??= batch.entries.map(({ value, items }) =>
						typeof value === 'string' ? { phone: value, items } : { ...value, items },
					);
					return entries;
				},
				items: batch.items,
			});
		},
		describeFailed: (values) => ({ phones: values.map(phoneOf) }),
		gate: spec.gate,
	});
}
