/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createHash } from 'node:crypto';

import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/**
 * n8n's deduplication store (`this.helpers.checkProcessedAndRecord` and friends) for runs through n8n-core.
 * n8n-core only forwards these helpers to a deduplicator that n8n's server registers (DataDeduplicationService):
 * n8n's own one (packages/cli, DeduplicationHelper) needs n8n's database and its TypeORM repositories, so it
 * cannot run inside this harness. This one follows what n8n 2.40.7's does (dist/deduplication/deduplication-helper.js),
 * for the mode the package uses ('entries'):
 * - one row per workflow and context: `n:<node id>` for scope 'node', '' for scope 'workflow';
 * - a row holds `{ mode, data }`, data the md5 (base64) of each value's text, oldest first;
 * - checkProcessedAndRecord reads the row, marks each value processed when its hash is in the row as read (n8n
 *   2.40.7; a value given twice in one call is new twice: the package never does that), appends the new ones, drops the oldest beyond maxEntries, writes the
 *   row back: a read, then a write, with no lock in between (two calls that overlap lose one's values);
 * - a row saved in another mode is refused; removeProcessed drops each value's first match; clear deletes the row.
 * The row is kept as JSON text, as in the database, and every read and write waits a turn of the event loop
 * (`roundTrip`), where n8n waits for its database, so overlapping calls interleave as they can in n8n.
 * docs/send-once.md says which of these facts the package relies on.
 */
export class InMemoryDeduplicator implements IDataDeduplicator {
	readonly rows = new Map<string, string>();
	/** Store calls made, by name: tests assert how many round trips a run costs. */
	readonly calls: string[] = [];

	private static rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		if (scope === 'node' && !contextData.node)
			throw new Error("No node information has been provided and so cannot use scope 'node'");
		const context = scope === 'node' ? `n:${contextData.node!.id}` : '';
		return `${contextData.workflow.id}\u0000${context}`;
	}

	private static hash(value: DeduplicationItemTypes): string {
		return createHash('md5').update(value.toString()).digest('base64');
	}

	private async read(key: string): Promise<{ mode: string; data: string[] } | undefined> {
		await roundTrip();
		const text = this.rows.get(key);
		return text === undefined ? undefined : (JSON.parse(text) as { mode: string; data: string[] });
	}

	private async write(key: string, value: { mode: string; data: string[] }, insert: boolean) {
		await roundTrip();
		// n8n inserts a missing row: a second insert of the same row breaks the table's primary key.
		if (insert && this.rows.has(key))
			throw new Error(
				'SQLITE_CONSTRAINT: UNIQUE constraint failed: processed_data.workflowId, processed_data.context',
			);
		this.rows.set(key, JSON.stringify(value));
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		this.calls.push('checkProcessedAndRecord');
		if (options.mode !== 'entries') throw new Error('Only mode "entries" is modelled here');
		const key = InMemoryDeduplicator.rowKey(scope, contextData);
		const row = await this.read(key);
		if (row && row.mode !== options.mode)
			throw new Error(
				'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter.',
			);
		const hashes = items.map((item) => InMemoryDeduplicator.hash(item));
		if (!row) {
			const data = options.maxEntries ? hashes.slice(-options.maxEntries) : hashes;
			await this.write(key, { mode: options.mode, data }, true);
			return { new: items, processed: [] };
		}
		const output: IDeduplicationOutput = { new: [], processed: [] };
		// As n8n 2.40: the row's hashes as they were read; a value twice in one call is new twice.
		const seen = new Set(row.data);
		hashes.forEach((hash, index) => {
			if (seen.has(hash)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.data.push(hash);
			}
		});
		if (options.maxEntries) row.data.splice(0, row.data.length - options.maxEntries);
		await this.write(key, row, false);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		this.calls.push('removeProcessed');
		if (options.mode !== 'entries')
			throw new Error('Removing processed data is not possible in mode "latest"');
		const key = InMemoryDeduplicator.rowKey(scope, contextData);
		const row = await this.read(key);
		if (!row) return;
		for (const item of items) {
			const index = row.data.indexOf(InMemoryDeduplicator.hash(item));
			if (index !== -1) row.data.splice(index, 1);
		}
		await this.write(key, row, false);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.calls.push('clearAllProcessedItems');
		await roundTrip();
		this.rows.delete(InMemoryDeduplicator.rowKey(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		this.calls.push('getProcessedDataCount');
		const row = await this.read(InMemoryDeduplicator.rowKey(scope, contextData));
		return options.mode === 'entries' ? (row?.data.length ?? 0) : 0;
	}

	/** How many values a row holds (what getProcessedDataCount answers), without a round trip. */
	count(workflowId: string, context: string): number {
		const text = this.rows.get(`${workflowId}\u0000${context}`);
		return text === undefined ? 0 : (JSON.parse(text) as { data: string[] }).data.length;
	}

	reset() {
		this.rows.clear();
		this.calls.length = 0;
	}
}

/** One database round trip's worth of waiting: the other executions of the process may run meanwhile. */
async function roundTrip() {
	await new Promise((resolve) => setImmediate(resolve));
}

let store: InMemoryDeduplicator | undefined;

/** The store every run of this process uses (n8n-core takes one deduplicator per process). */
export function deduplicationStore(): InMemoryDeduplicator {
	if (!store) {
		store = new InMemoryDeduplicator();
		void DataDeduplicationService.init(store);
	}
	return store;
}
