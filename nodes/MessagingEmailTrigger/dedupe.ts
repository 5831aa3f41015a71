/**
 * Repeats: the service posts a batch again when it did not see a 2xx answer (also the 404s n8n gives while it
 * restarts), so the same event can arrive twice. The trigger remembers the key of every event it emitted in the
 * workflow's static data, which n8n loads with the workflow for every request and saves when it changed, so the
 * memory survives restarts and is shared by every n8n process of the workflow (docs/webhook-trigger.md, "Repeat
 * memory", says where in n8n).
 *
 * What bounds its cost: n8n parses the whole static data for every request and serialises and writes all of it
 * whenever it changed (docs/webhook-trigger.md, "What the memory costs"), so the memory is kept to at most
 * MAX_REMEMBERED_KEYS keys as well as REPEAT_WINDOW_MS: each batch then pays for a bounded store, whatever the
 * day's volume. Keys are grouped by minute of arrival so that the oldest are dropped a minute at a time.
 *
 * Layout (node static data, `repeats`): `{ v: 2, hours: { "<hour>": { "<minute of the hour>": "<keys>" } } }`,
 * keys of the events emitted in that minute of arrival, each KEY_LENGTH characters, one after the other. n8n
 * writes the whole static data per request, so two requests answered at the same time could each write what it
 * loaded plus its own keys only; each process therefore keeps what it knows (Known) and writes the union: keys
 * are lost only if two processes answered batches at once and the one that lost its write stopped before
 * answering another batch. Test URL runs (manual mode) are remembered in memory only, apart from production, so a
 * test never hides a production event.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { canonicalWebhookKind } from '../shared/records/emailEvents';
import { isRecord } from '../shared/values/objects';
import { serviceNumber } from '../shared/records/values';
import { HOUR_MS } from '../shared/values/serviceTime';

/**
 * The service documents no end to its re-posting; 24 hours covers its retries after an outage of a day, and is the
 * window of its bounce list, the daily safety net it advises (docs/service-notes.md, Webhooks).
 */
export const REPEAT_WINDOW_MS = 24 * HOUR_MS;
/**
 * At most this many keys are kept (1.8 MB of static data): the newest, dropped a minute of arrival at a time.
 * An account with up to this many events a day keeps the whole window; at 1 million a day it reaches ~3.6 hours
 * back, at 5 million ~43 minutes (docs/webhook-trigger.md, "What the memory costs").
 */
export const MAX_REMEMBERED_KEYS = 150_000;
const MINUTE_MS = 60_000;
const MINUTES_PER_HOUR = 60;
/** 72 bits of SHA-256 (base64url): a new event is taken for a repeat with odds of ~3e-17 among 150,000 keys. */
export const KEY_LENGTH = 12;
const STATE_VERSION = 2;
/** Version 1 kept one text per hour of arrival; read as the last minute of that hour. */
const HOURLY_VERSION = 1;

/** How far an event's whole content is read to key it when it lacks a message id or a time (body.ts bounds it). */
const MAX_KEY_DEPTH = 64;

/**
 * Canonical text of a value, keys sorted, without recursion: an event nested deeper than MAX_KEY_DEPTH is keyed
 * on its first MAX_KEY_DEPTH levels (body.ts refuses such events before they are keyed).
 */
function stableText(value: unknown): string {
	const parts: string[] = [];
	const stack: Array<{ value: unknown; depth: number } | string> = [{ value, depth: 1 }];
	while (stack.length > 0) {
		const next = stack.pop()!;
		if (typeof next === 'string') {
			parts.push(next);
			continue;
		}
		const current = next.value;
		if (current === null || typeof current !== 'object') {
			parts.push(JSON.stringify(current) ?? 'undefined');
			continue;
		}
		if (next.depth > MAX_KEY_DEPTH) {
			parts.push('…');
			continue;
		}
		const isList = Array.isArray(current);
		const entries: Array<[string | undefined, unknown]> = isList
			? current.map((item) => [undefined, item])
			: Object.keys(current)
					.sort()
					.map((key) => [key, (current as IDataObject)[key]]);
		// Pushed in reverse, so they come off the stack in order.
		stack.push(isList ? ']' : '}');
		for (let index = entries.length - 1; index >= 0; index--) {
			const [key, child] = entries[index];
			stack.push({ value: child, depth: next.depth + 1 });
			stack.push(`${index > 0 ? ',' : ''}${key === undefined ? '' : `${JSON.stringify(key)}:`}`);
		}
		stack.push(isList ? '[' : '{');
	}
	return parts.join('');
}

/** `timestamp` as a number when it is one in any form (1795428000, "1795428000"), else its text. */
function timeOf(value: unknown): unknown {
	const seconds = serviceNumber(value);
	if (seconds !== undefined) return seconds;
	return typeof value === 'string' ? value.trim() : value;
}

/**
 * What identifies an event: its kind (either spelling), message, recipient, time, and the link for clicks. The
 * service gives no event id, so two opens of one message in the same second count as one. An event without a
 * message id or a time is keyed on its whole content.
 */
export function eventKey(raw: IDataObject): string {
	const identity =
		raw.message_id !== undefined && raw.timestamp !== undefined
			? JSON.stringify([
					canonicalWebhookKind(String(raw.event ?? '')),
					raw.message_id,
					raw.recipient ?? raw.email ?? null,
					timeOf(raw.timestamp),
					raw.link_url ?? raw.url ?? null,
				])
			: stableText({ ...raw, event: canonicalWebhookKind(String(raw.event ?? '')) });
	return createHash('sha256').update(identity).digest('base64url').slice(0, KEY_LENGTH);
}

/**
 * The keys a process knows, for lookups one key at a time (isNew): an open-addressing table of two 32-bit hashes
 * of each key (64 bits of its 72) and the key's minute, built in one pass over the minutes' texts (~0.2 µs per
 * stored key; a Map of strings: ~0.7 µs), and a lookup never reads the texts (the newest is being appended to).
 * Entries of dropped minutes stay until the table is half full, then it is rebuilt from the texts. A batch's keys
 * (newAmong) are looked up without it unless it is built: see storedAmong.
 */
class KeyIndex {
	private high = new Int32Array(0);
	/** The second hash, never 0: 0 marks an empty slot. */
	private low = new Int32Array(0);
	private minuteOf = new Int32Array(0);
	/** Slots taken, by keys of kept and of dropped minutes. */
	private taken = 0;
	/** Rebuilt on the next lookup, from every minute's text. */
	private stale = true;

	constructor(private readonly texts: Map<number, string>) {}

	private ensure() {
		if (!this.stale) return;
		let keys = 0;
		for (const text of this.texts.values()) keys += Math.floor(text.length / KEY_LENGTH);
		let size = 1024;
		while (size < keys * 2.5) size *= 2;
		this.high = new Int32Array(size);
		this.low = new Int32Array(size);
		this.minuteOf = new Int32Array(size);
		this.taken = 0;
		this.stale = false;
		for (const [minute, text] of this.texts)
			for (let at = 0; at + KEY_LENGTH <= text.length; at += KEY_LENGTH) this.add(minute, text, at);
	}

	/** The two hashes of the key `slotOf` looked for last. */
	private lastHigh = 0;
	private lastLow = 0;

	/** The slot holding the key at `at` in `text` in a kept minute, or the empty slot where it would go. */
	private slotOf(text: string, at: number): number {
		let high = 0;
		let low = 0;
		for (let index = at; index < at + KEY_LENGTH; index++) {
			const code = text.charCodeAt(index);
			high = (Math.imul(high, 31) + code) | 0;
			low = (Math.imul(low ^ code, 0x5bd1e995) + 0x9e3779b9) | 0;
		}
		low = low | 1;
		this.lastHigh = high;
		this.lastLow = low;
		const mask = this.high.length - 1;
		let slot = high & mask;
		while (
			this.low[slot] !== 0 &&
			!(this.low[slot] === low && this.high[slot] === high && this.texts.has(this.minuteOf[slot]))
		)
			slot = (slot + 1) & mask;
		return slot;
	}

	/** Built and up to date: a lookup costs no pass over the texts. */
	get built(): boolean {
		return !this.stale;
	}

	has(key: string): boolean {
		this.ensure();
		return this.low[this.slotOf(key, 0)] !== 0;
	}

	/** Indexes the key at `at` in `text`, which the minute's text holds. */
	add(minute: number, text: string, at: number) {
		if (this.stale) return;
		if ((this.taken + 1) * 2 > this.high.length) {
			this.stale = true;
			return;
		}
		const slot = this.slotOf(text, at);
		if (this.low[slot] !== 0) return;
		this.high[slot] = this.lastHigh;
		this.low[slot] = this.lastLow;
		this.minuteOf[slot] = minute;
		this.taken++;
	}

	/** After a minute's text was replaced by another (not extended): every key is indexed again. */
	rebuild() {
		this.stale = true;
	}
}

/** What one process knows of a scope: the text of each minute of arrival as stored, and where each key is. */
interface Known {
	minutes: Map<number, string>;
	index: KeyIndex;
}

/** What this process knows, per workflow, node and mode. */
const knownByScope = new Map<string, Known>();

function* keysIn(text: string) {
	for (let at = 0; at + KEY_LENGTH <= text.length; at += KEY_LENGTH)
		yield text.slice(at, at + KEY_LENGTH);
}

/** A stored text without a cut-off key at its end. */
const wholeKeys = (text: string) => text.slice(0, text.length - (text.length % KEY_LENGTH));

/** A key's first three characters as 18 bits (6 of each base64url character): storedAmong's first filter. */
const prefixOf = (text: string, at: number) =>
	((text.charCodeAt(at) & 63) << 12) |
	((text.charCodeAt(at + 1) & 63) << 6) |
	(text.charCodeAt(at + 2) & 63);

/**
 * Which of `keys` the minutes' texts hold, found in one pass over the texts: a stored key is compared whole only
 * when its first three characters are those of one of `keys` (with 500 keys, ~1 stored key in 500). Building the
 * index instead costs a process that sees the store first ~30 ms at the 150,000-key bound, where this pass costs
 * ~1–2 ms for a batch; a key is compared whole (72 bits), so this finds exactly what the index's 64 bits find.
 */
function storedAmong(minutes: Map<number, string>, keys: readonly string[]): Set<string> {
	const wanted = new Set(keys);
	const marked = new Uint8Array(1 << 18);
	for (const key of wanted) if (key.length === KEY_LENGTH) marked[prefixOf(key, 0)] = 1;
	const found = new Set<string>();
	for (const text of minutes.values())
		for (let at = 0; at + KEY_LENGTH <= text.length; at += KEY_LENGTH)
			if (marked[prefixOf(text, at)] === 1) {
				const key = text.slice(at, at + KEY_LENGTH);
				if (wanted.has(key)) found.add(key);
			}
	return found;
}

/** Adds keys to a minute's text and to the index. */
function append(known: Known, minute: number, keys: string) {
	const before = known.minutes.get(minute) ?? '';
	known.minutes.set(minute, before + keys);
	for (let at = 0; at + KEY_LENGTH <= keys.length; at += KEY_LENGTH)
		known.index.add(minute, keys, at);
}

/** Its keys' entries in the index stop counting: the index checks that a key's minute is kept. */
function forgetMinute(known: Known, minute: number) {
	known.minutes.delete(minute);
}

/**
 * Keeps the newest MAX_REMEMBERED_KEYS keys, dropping whole minutes, oldest first (never the newest minute). The
 * same texts give the same result in every process, so processes agree on what the store holds.
 */
function keepNewest(known: Known) {
	const newestFirst = [...known.minutes.keys()].sort((a, b) => b - a);
	let count = 0;
	for (const minute of newestFirst) {
		count += Math.floor(known.minutes.get(minute)!.length / KEY_LENGTH);
		if (count > MAX_REMEMBERED_KEYS && minute !== newestFirst[0]) forgetMinute(known, minute);
	}
}

/**
 * The stored minutes of arrival (version 1's hours read as their last minute), and whether they are in today's
 * layout; none when the static data holds something else (then it is rewritten from this process).
 */
function storedMinutes(staticData: IDataObject): {
	minutes: Map<number, string>;
	current: boolean;
} {
	const minutes = new Map<number, string>();
	const state = staticData.repeats as IDataObject | undefined;
	if (!isRecord(state) || !isRecord(state.hours)) return { minutes, current: true };
	for (const [hourText, value] of Object.entries(state.hours)) {
		const hour = Number(hourText);
		if (!Number.isInteger(hour)) continue;
		if (state.v === HOURLY_VERSION && typeof value === 'string')
			minutes.set(hour * MINUTES_PER_HOUR + MINUTES_PER_HOUR - 1, value);
		if (state.v !== STATE_VERSION || !isRecord(value)) continue;
		for (const [minuteText, text] of Object.entries(value)) {
			const minute = Number(minuteText);
			if (
				typeof text === 'string' &&
				Number.isInteger(minute) &&
				minute >= 0 &&
				minute < MINUTES_PER_HOUR
			)
				minutes.set(hour * MINUTES_PER_HOUR + minute, text);
		}
	}
	return { minutes, current: state.v === STATE_VERSION };
}

/** Adds to what this process knows of a minute the keys stored by others; true when the store lacks some of ours. */
function reconcile(known: Known, minute: number, stored: string): boolean {
	const mine = known.minutes.get(minute);
	if (mine === undefined) {
		append(known, minute, wholeKeys(stored));
		return false;
	}
	if (stored === mine) return false;
	if (stored.length > mine.length && stored.startsWith(mine)) {
		append(known, minute, wholeKeys(stored.slice(mine.length)));
		return false;
	}
	if (mine.startsWith(stored)) return true;
	// Another process wrote keys this one does not have (and maybe lost some of ours): take the union.
	const inMine = new Set(keysIn(mine));
	let text = mine;
	for (const key of keysIn(stored))
		if (!inMine.has(key)) {
			inMine.add(key);
			text += key;
		}
	known.minutes.set(minute, text);
	known.index.rebuild();
	return true;
}

/**
 * One request's view of the repeat memory. `staticData` is the node's static data (production), or undefined to
 * keep the memory in this process only (test URL runs).
 */
export class RepeatMemory {
	private readonly known: Known;
	private readonly minute: number;
	private storeLacksKeys = false;
	private added = false;

	constructor(
		scope: string,
		now: number,
		private readonly staticData?: IDataObject,
	) {
		this.minute = Math.floor(now / MINUTE_MS);
		// Minutes whose every key arrived within the window are kept (the current one and a day of them before it).
		const oldestMinute = this.minute - REPEAT_WINDOW_MS / MINUTE_MS;
		let known = knownByScope.get(scope);
		if (!known) {
			const minutes = new Map<number, string>();
			known = { minutes, index: new KeyIndex(minutes) };
			knownByScope.set(scope, known);
		}
		this.known = known;
		for (const minute of [...known.minutes.keys()])
			if (minute < oldestMinute) forgetMinute(known, minute);
		if (!staticData) return;
		const stored = storedMinutes(staticData);
		for (const [minute, text] of stored.minutes)
			if (minute >= oldestMinute && reconcile(known, minute, text)) this.storeLacksKeys = true;
		keepNewest(known);
		if (!stored.current) this.storeLacksKeys = true;
		for (const minute of known.minutes.keys())
			if (!stored.minutes.has(minute)) this.storeLacksKeys = true;
		// Minutes out of the window or over the bound are dropped from the store too.
		for (const minute of stored.minutes.keys())
			if (!known.minutes.has(minute)) this.storeLacksKeys = true;
	}

	/** True the first time a key is offered within the window; remembers it. */
	isNew(key: string): boolean {
		if (this.known.index.has(key)) return false;
		append(this.known, this.minute, key);
		this.added = true;
		return true;
	}

	/**
	 * isNew for each of `keys` in order (a key twice in `keys` is new the first time only), remembering the new ones.
	 * Unless the index is built already, the kept minutes' texts are read once for the whole batch instead of being
	 * indexed, so a process that sees the store first pays no more for a batch than one that answered the day's.
	 */
	newAmong(keys: readonly string[]): boolean[] {
		if (this.known.index.built) return keys.map((key) => this.isNew(key));
		const stored = storedAmong(this.known.minutes, keys);
		const taken = new Set<string>();
		const fresh = keys.map((key) => {
			if (stored.has(key) || taken.has(key)) return false;
			taken.add(key);
			return true;
		});
		if (taken.size > 0) {
			append(this.known, this.minute, [...taken].join(''));
			this.added = true;
		}
		return fresh;
	}

	/** Writes what this process knows into the static data when the store lacks any of it (n8n saves it). */
	save() {
		if (!this.staticData || !(this.added || this.storeLacksKeys)) return;
		keepNewest(this.known);
		const hours: Record<string, IDataObject> = {};
		for (const [minute, text] of [...this.known.minutes].sort(([a], [b]) => a - b)) {
			if (!text) continue;
			const hour = String(Math.floor(minute / MINUTES_PER_HOUR));
			(hours[hour] ??= {})[String(minute % MINUTES_PER_HOUR)] = text;
		}
		this.staticData.repeats = { v: STATE_VERSION, hours };
	}
}

/** For tests: forget what this process knows (as after a restart). */
export function forgetAllRepeats() {
	knownByScope.clear();
}
