/**
 * Repeats: the service posts a batch again when it did not see a 2xx answer, so the same event can arrive twice.
 * The trigger remembers the keys of the events it emitted, in memory, per workflow, node and mode (test runs
 * never hide production events): for REPEAT_WINDOW_MS and at most REPEAT_MAX_KEYS keys per node, oldest
 * forgotten first. A key is a 22-character digest: ~145 bytes with its map entry (measured), ~2.9 MB when full.
 * Memory, not static data: n8n saves a webhook's static data only after the workflow run ends, so a second batch
 * arriving meanwhile would not see the first one's keys, and every batch would rewrite the workflow row.
 * What it costs: after an n8n restart, or in queue mode across webhook processes, a repeat can pass once.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

export const REPEAT_WINDOW_MS = 24 * 3_600_000;
export const REPEAT_MAX_KEYS = 20_000;

const seenByScope = new Map<string, Map<string, number>>();

/** Keys are sorted, so the same object always gives the same text. */
function stableText(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableText).join(',')}]`;
	if (value && typeof value === 'object') {
		const record = value as IDataObject;
		return `{${Object.keys(record)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableText(record[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'undefined';
}

/**
 * What identifies an event: its kind, message, recipient, time, and the link for clicks. The service gives no
 * event id, so two opens of one message in the same second count as one. An event without a message id or a
 * time is keyed on its whole content.
 */
export function eventKey(raw: IDataObject): string {
	const identity =
		raw.message_id !== undefined && raw.timestamp !== undefined
			? stableText([
					raw.event,
					raw.message_id,
					raw.recipient ?? raw.email,
					raw.timestamp,
					raw.link_url ?? raw.url ?? null,
				])
			: stableText(raw);
	return createHash('sha256').update(identity).digest('base64').slice(0, 22);
}

export class RepeatFilter {
	private readonly seen: Map<string, number>;

	constructor(
		scope: string,
		private readonly now: number,
	) {
		let seen = seenByScope.get(scope);
		if (!seen) {
			seen = new Map();
			seenByScope.set(scope, seen);
		}
		this.seen = seen;
		this.forgetOld();
	}

	/** True the first time a key is offered within the window; records it. */
	isNew(key: string): boolean {
		if (this.seen.has(key)) return false;
		this.seen.set(key, this.now);
		if (this.seen.size > REPEAT_MAX_KEYS) this.seen.delete(this.seen.keys().next().value!);
		return true;
	}

	/** Insertion order is arrival order, so the oldest keys are first. */
	private forgetOld() {
		for (const [key, at] of this.seen) {
			if (at > this.now - REPEAT_WINDOW_MS) break;
			this.seen.delete(key);
		}
	}
}

/** For tests: forget every scope. */
export function forgetAllRepeats() {
	seenByScope.clear();
}
