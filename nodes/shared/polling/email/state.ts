import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { isServiceTime } from '../../values/serviceTime';
import { copyJson, isRecord, kindOf } from '../../values/objects';
import type { Handover } from '../handover';

/**
 * What the trigger keeps in the node's static data between polls. Kept small on purpose: events are remembered
 * as 8-character digests (48 bits) of their composite key, concatenated per bucket (the bounce's hour, the
 * unsubscribe's day), and a bucket is dropped as soon as the service can no longer return its events.
 */
export const STATE_VERSION = 1;
export const STATE_KEY = 'messagingTrigger';
export const DIGEST_LENGTH = 8;
/** A bounce's second within its hour (0–3599), as two base64url characters. */
export const SECOND_LENGTH = 2;

export type EventType = 'bounce' | 'unsubscribe';

export interface BounceState {
	/** Newest bounce send time seen (service time). Only moves forward. */
	newest?: string;
	/** Hour bucket (`YYYY-MM-DD HH`) → digests of the bounces already handled in that hour. */
	seen: Record<string, string>;
	/**
	 * Hour bucket → the second within the hour of each digest in `seen` (same order, two characters each). With
	 * them a poll counts how many handled bounces the service's 24-hour window still holds. Optional: without it
	 * (older states) the next poll reads the whole list and learns them.
	 */
	seconds?: Record<string, string>;
	/** n8n's clock (ms) at the last read of the whole list. */
	fullReadAt?: number;
}

export interface UnsubscribeState {
	/** First day still read on every poll (`YYYY-MM-DD`, service time). Only moves forward. */
	from: string;
	/** Day → digests of the unsubscribes already handled on that day. */
	seen: Record<string, string>;
	/**
	 * Day → `<entries>:<digest of the last entry>` as the day's list stood when last read (in full, or its new end
	 * after the entries held) and every entry was handled; a poll then asks only for the entries from the last one
	 * on (`0:`: the list was empty).
	 */
	listed?: Record<string, string>;
	/** n8n's clock (ms) at the last read of every watched day in full. */
	fullReadAt?: number;
	/** The last poll left unsubscribes for later: the next poll reads the days in full. */
	pending?: true;
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

/**
 * What the node's static data holds: nothing yet, something that is not a state this version can trust
 * (`damaged`, with the reason), or a state. A state may still have lost one stream (`damage` names it): that
 * stream starts again from now, the other one goes on.
 */
export type StoredState =
	| { kind: 'absent' }
	| { kind: 'damaged'; reason: string }
	| { kind: 'valid'; state: TriggerState; damage: Partial<Record<EventType, string>> };

const HOUR_BUCKET = /^\d{4}-\d{2}-\d{2} \d{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DIGESTS = /^[\w-]*$/;
const LISTED = /^(\d+):([\w-]{8})?$/;

const isTime = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Why a bucket → digests map cannot be trusted, or undefined when it can. */
function digestMapProblem(
	value: unknown,
	bucket: RegExp,
	extraBucket?: string,
): string | undefined {
	if (!isRecord(value)) return `is ${kindOf(value)}, not a map of digests`;
	for (const [key, digests] of Object.entries(value)) {
		if (!bucket.test(key) && key !== extraBucket) return `has the bucket "${key.slice(0, 40)}"`;
		if (typeof digests !== 'string') return `holds ${kindOf(digests)} for ${key}`;
		if (digests.length % DIGEST_LENGTH !== 0 || !DIGESTS.test(digests))
			return `holds a cut or altered digest list for ${key}`;
	}
	return undefined;
}

function bounceProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return `is ${kindOf(value)}`;
	const seen = digestMapProblem(value.seen, HOUR_BUCKET, 'unknown');
	if (seen) return `digests ${seen}`;
	if (value.newest !== undefined && !isServiceTime(value.newest))
		return 'newest send time is not a service time';
	if (value.fullReadAt !== undefined && !isTime(value.fullReadAt))
		return 'full-read time is not a time';
	return undefined;
}

function unsubscribeProblem(value: unknown): string | undefined {
	if (!isRecord(value)) return `is ${kindOf(value)}`;
	if (typeof value.from !== 'string' || !DAY.test(value.from)) return 'first day is not a day';
	const seen = digestMapProblem(value.seen, DAY);
	if (seen) return `digests ${seen}`;
	if (value.fullReadAt !== undefined && !isTime(value.fullReadAt))
		return 'full-read time is not a time';
	return undefined;
}

/** Reads the stored state strictly: every field checked, a deep copy returned. */
export function readState(stored: IDataObject): StoredState {
	const candidate = stored[STATE_KEY];
	if (candidate === undefined) return { kind: 'absent' };
	if (!isRecord(candidate)) return { kind: 'damaged', reason: `the state is ${kindOf(candidate)}` };
	if (candidate.version !== STATE_VERSION)
		return {
			kind: 'damaged',
			reason: `the state has version ${JSON.stringify(candidate.version) ?? 'none'} (this trigger keeps version ${STATE_VERSION})`,
		};
	if (typeof candidate.events !== 'string' || !/^[a-z,]*$/.test(candidate.events))
		return { kind: 'damaged', reason: 'the watched events are missing from the state' };
	if (!isTime(candidate.lastPollAt))
		return { kind: 'damaged', reason: 'the last poll time is missing from the state' };
	if (
		candidate.warnings !== undefined &&
		!(
			Array.isArray(candidate.warnings) &&
			candidate.warnings.every((warning) => typeof warning === 'string')
		)
	)
		return { kind: 'damaged', reason: 'the waiting warnings are not a list of texts' };

	const copy = copyJson(candidate) as TriggerState;
	const damage: Partial<Record<EventType, string>> = {};
	if (copy.bounce !== undefined) {
		const problem = bounceProblem(copy.bounce);
		if (problem) {
			damage.bounce = `bounce state: ${problem}`;
			delete copy.bounce;
		} else {
			copy.bounce = dropBrokenOptionals(copy.bounce, 'seconds', SECOND_LENGTH);
		}
	} else if (copy.events.split(',').includes('bounce')) {
		damage.bounce = 'bounce state: missing';
	}
	if (copy.unsubscribe !== undefined) {
		const problem = unsubscribeProblem(copy.unsubscribe);
		if (problem) {
			damage.unsubscribe = `unsubscribe state: ${problem}`;
			delete copy.unsubscribe;
		} else if (
			copy.unsubscribe.listed !== undefined &&
			!(
				isRecord(copy.unsubscribe.listed) &&
				Object.entries(copy.unsubscribe.listed).every(
					([day, value]) => DAY.test(day) && typeof value === 'string' && LISTED.test(value),
				)
			)
		) {
			// Only an optimisation: without it the next poll reads the days in full.
			delete copy.unsubscribe.listed;
		}
	} else if (copy.events.split(',').includes('unsubscribe')) {
		damage.unsubscribe = 'unsubscribe state: missing';
	}
	return { kind: 'valid', state: copy, damage };
}

/** Drops an optional per-bucket map whose entries do not line up with the digests (the next poll rebuilds it). */
function dropBrokenOptionals(bounce: BounceState, key: 'seconds', width: number): BounceState {
	const map = bounce[key];
	if (map === undefined) return bounce;
	const fits =
		isRecord(map) &&
		Object.entries(bounce.seen).every(([bucket, digests]) => {
			const value = (map as Record<string, unknown>)[bucket];
			return (
				typeof value === 'string' &&
				DIGESTS.test(value) &&
				value.length / width === digests.length / DIGEST_LENGTH
			);
		});
	if (fits) return bounce;
	const rest = { ...bounce };
	delete rest[key];
	return rest;
}

/** The email events' state as its handover (handover.ts) reads it: whole, and made for the same watched events. */
export const emailHandover: Handover<StoredState & { kind: 'valid' }> = {
	stateKey: STATE_KEY,
	label: 'email events',
	read: (stored) => {
		const read = readState(stored);
		return read.kind === 'valid' && Object.keys(read.damage).length === 0 ? read : undefined;
	},
	signature: (read) => read.state.events,
};

/** Replaces the trigger's state in place (n8n saves the object it handed out, so it must be mutated, not replaced). */
export function writeState(stored: IDataObject, state: TriggerState): void {
	stored[STATE_KEY] = copyJson(state) as IDataObject;
}

/** A short digest of an event's composite key (every field of the record, in a fixed order). */
export function digest(parts: unknown[]): string {
	return createHash('sha256')
		.update(JSON.stringify(parts))
		.digest('base64url')
		.slice(0, DIGEST_LENGTH);
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function encodeSecond(second: number): string {
	return ALPHABET[Math.floor(second / 64)] + ALPHABET[second % 64];
}

/** Written for a digest whose second is not known (a state from before seconds were kept). */
const UNKNOWN_SECOND = 4095;

function decodeSecond(text: string): number | undefined {
	const second = ALPHABET.indexOf(text[0]) * 64 + ALPHABET.indexOf(text[1]);
	return second >= 0 && second < 3600 ? second : undefined;
}

interface Entry {
	count: number;
	/** Second within the bucket's hour (bounces), when known. */
	second?: number;
}

/** A bucket as stored (its digests, and their seconds when kept), not read into entries yet. */
interface StoredBucket {
	digests: string;
	seconds?: string;
}

/**
 * The digests of one stream, bucketed, with counts: the same digest twice in a bucket means two identical
 * events (the service listed the same record twice), both handled. For bounces each digest may also carry its
 * second within the hour (a digest covers the send time, so one digest has one second).
 *
 * A bucket is read into entries only when a poll looks into it: an idle poll (a count, a probe) touches one hour's
 * bucket at most, and writes the others back as they came, so its cost does not grow with the day's events.
 */
export class SeenSet {
	private readonly buckets = new Map<string, Map<string, Entry> | StoredBucket>();

	constructor(stored: Record<string, string> = {}, seconds?: Record<string, string>) {
		for (const [bucket, digests] of Object.entries(stored))
			this.buckets.set(bucket, { digests, seconds: seconds?.[bucket] });
	}

	/** The bucket's entries, read from its stored form the first time they are needed. */
	private entries(bucket: string): Map<string, Entry> | undefined {
		const held = this.buckets.get(bucket);
		if (held === undefined || held instanceof Map) return held;
		const entries = new Map<string, Entry>();
		const { digests, seconds: times } = held;
		for (let index = 0; index < digests.length / DIGEST_LENGTH; index++) {
			const key = digests.slice(index * DIGEST_LENGTH, (index + 1) * DIGEST_LENGTH);
			const entry = entries.get(key) ?? { count: 0 };
			entry.count++;
			if (times !== undefined)
				entry.second = decodeSecond(
					times.slice(index * SECOND_LENGTH, (index + 1) * SECOND_LENGTH),
				);
			entries.set(key, entry);
		}
		this.buckets.set(bucket, entries);
		return entries;
	}

	count(bucket: string, key: string): number {
		return this.entries(bucket)?.get(key)?.count ?? 0;
	}

	add(bucket: string, key: string, second?: number): void {
		let entries = this.entries(bucket);
		if (!entries) this.buckets.set(bucket, (entries = new Map()));
		const entry = entries.get(key) ?? { count: 0 };
		entry.count++;
		if (second !== undefined) entry.second = second;
		entries.set(key, entry);
	}

	/** Records the second of a digest already held (learnt when the service lists it again). */
	learn(bucket: string, key: string, second: number): void {
		const entry = this.entries(bucket)?.get(key);
		if (entry) entry.second = second;
	}

	/** Drops every bucket for which `keep` is false. */
	prune(keep: (bucket: string) => boolean): void {
		for (const bucket of [...this.buckets.keys()]) if (!keep(bucket)) this.buckets.delete(bucket);
	}

	size(): number {
		let total = 0;
		for (const bucket of this.buckets.keys()) total += this.countIn(bucket);
		return total;
	}

	/** Digests held in a bucket (its stored form counted without being read). */
	private countIn(bucket: string): number {
		const held = this.buckets.get(bucket);
		if (held === undefined) return 0;
		if (!(held instanceof Map)) return held.digests.length / DIGEST_LENGTH;
		let total = 0;
		for (const entry of held.values()) total += entry.count;
		return total;
	}

	/**
	 * How many held bounces are sent at `time` or later (service time), or undefined when that cannot be told
	 * (a digest of that hour or later without its second, or one without a valid time).
	 */
	countFrom(time: string): number | undefined {
		const hour = time.slice(0, 13);
		const second = Number(time.slice(14, 16)) * 60 + Number(time.slice(17, 19));
		let total = 0;
		for (const bucket of this.buckets.keys()) {
			if (bucket === 'unknown') return undefined;
			if (bucket < hour) continue;
			if (bucket > hour) {
				total += this.countIn(bucket);
				continue;
			}
			for (const entry of this.entries(bucket)!.values()) {
				if (entry.second === undefined) return undefined;
				if (entry.second >= second) total += entry.count;
			}
		}
		return total;
	}

	toJSON(): Record<string, string> {
		return this.serialise(
			(stored) => stored.digests,
			(key, entry) => key.repeat(entry.count),
		);
	}

	/** The seconds for `toJSON()`'s digests, in the same order (`__` where a second is unknown). */
	secondsJSON(): Record<string, string> {
		const unknown = encodeSecond(UNKNOWN_SECOND);
		return this.serialise(
			(stored) =>
				stored.seconds !== undefined &&
				stored.seconds.length / SECOND_LENGTH === stored.digests.length / DIGEST_LENGTH
					? stored.seconds
					: unknown.repeat(stored.digests.length / DIGEST_LENGTH),
			(_key, entry) => encodeSecond(entry.second ?? UNKNOWN_SECOND).repeat(entry.count),
		);
	}

	private serialise(
		asStored: (stored: StoredBucket) => string,
		write: (key: string, entry: Entry) => string,
	): Record<string, string> {
		const result: Record<string, string> = {};
		for (const bucket of [...this.buckets.keys()].sort()) {
			const held = this.buckets.get(bucket)!;
			if (!(held instanceof Map)) {
				if (held.digests.length > 0) result[bucket] = asStored(held);
				continue;
			}
			if (held.size === 0) continue;
			result[bucket] = [...held.entries()].map(([key, entry]) => write(key, entry)).join('');
		}
		return result;
	}
}
