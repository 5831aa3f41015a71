import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the node's static data between polls. Kept small on purpose: events are remembered
 * as 8-character digests (48 bits) of their composite key, concatenated per bucket (the bounce's hour, the
 * unsubscribe's day), and a bucket is dropped as soon as the service can no longer return its events.
 */
export const STATE_VERSION = 1;
export const DIGEST_LENGTH = 8;

export type EventType = 'bounce' | 'unsubscribe';

export interface BounceState {
	/** Newest bounce send time seen (service time). Only moves forward. */
	newest?: string;
	/** Hour bucket (`YYYY-MM-DD HH`) → digests of the bounces already handled in that hour. */
	seen: Record<string, string>;
}

export interface UnsubscribeState {
	/** First day still read on every poll (`YYYY-MM-DD`, service time). Only moves forward. */
	from: string;
	/** Day → digests of the unsubscribes already handled on that day. */
	seen: Record<string, string>;
}

export interface TriggerState {
	version: number;
	/** The watched event types, sorted and comma-joined, to notice configuration changes. */
	events: string;
	/** n8n's clock at the end of the last successful poll (ms), for the gap warning. */
	lastPollAt: number;
	/** Warnings waiting for the next emitted item. */
	warnings?: string[];
	bounce?: BounceState;
	unsubscribe?: UnsubscribeState;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const isDigestMap = (value: unknown): value is Record<string, string> =>
	isRecord(value) && Object.values(value).every((digests) => typeof digests === 'string' && digests.length % DIGEST_LENGTH === 0);

/** A deep copy of the stored state, or undefined when there is none (or it is from an unknown version). */
export function readState(stored: IDataObject): TriggerState | undefined {
	const candidate = stored.messagingTrigger;
	if (!isRecord(candidate) || candidate.version !== STATE_VERSION || typeof candidate.events !== 'string') return undefined;
	const copy = JSON.parse(JSON.stringify(candidate)) as TriggerState;
	if (copy.bounce && !isDigestMap(copy.bounce.seen)) copy.bounce = { newest: copy.bounce.newest, seen: {} };
	if (copy.unsubscribe && (!isDigestMap(copy.unsubscribe.seen) || typeof copy.unsubscribe.from !== 'string')) delete copy.unsubscribe;
	return copy;
}

/** Replaces the stored state in place (n8n saves the object it handed out, so it must be mutated, not replaced). */
export function writeState(stored: IDataObject, state: TriggerState): void {
	for (const key of Object.keys(stored)) {
		if (key !== 'messagingTrigger') delete stored[key];
	}
	stored.messagingTrigger = JSON.parse(JSON.stringify(state)) as IDataObject;
}

/** A short digest of an event's composite key (every field of the record, in a fixed order). */
export function digest(parts: unknown[]): string {
	return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, DIGEST_LENGTH);
}

/**
 * The digests of one stream, bucketed, with counts: the same digest twice in a bucket means two identical
 * events (the service listed the same record twice), both handled.
 */
export class SeenSet {
	private readonly buckets = new Map<string, Map<string, number>>();

	constructor(stored: Record<string, string> = {}) {
		for (const [bucket, digests] of Object.entries(stored)) {
			const counts = new Map<string, number>();
			for (let index = 0; index < digests.length; index += DIGEST_LENGTH) {
				const key = digests.slice(index, index + DIGEST_LENGTH);
				counts.set(key, (counts.get(key) ?? 0) + 1);
			}
			this.buckets.set(bucket, counts);
		}
	}

	count(bucket: string, key: string): number {
		return this.buckets.get(bucket)?.get(key) ?? 0;
	}

	add(bucket: string, key: string): void {
		let counts = this.buckets.get(bucket);
		if (!counts) this.buckets.set(bucket, (counts = new Map()));
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}

	/** Drops every bucket for which `keep` is false. */
	prune(keep: (bucket: string) => boolean): void {
		for (const bucket of [...this.buckets.keys()]) if (!keep(bucket)) this.buckets.delete(bucket);
	}

	size(): number {
		let total = 0;
		for (const counts of this.buckets.values()) for (const count of counts.values()) total += count;
		return total;
	}

	toJSON(): Record<string, string> {
		const result: Record<string, string> = {};
		for (const bucket of [...this.buckets.keys()].sort()) {
			const counts = this.buckets.get(bucket)!;
			if (counts.size === 0) continue;
			result[bucket] = [...counts.entries()].map(([key, count]) => key.repeat(count)).join('');
		}
		return result;
	}
}
