/**
 * Repeats: the service posts a batch again when it did not see a 2xx answer (also the 404s n8n gives while it
 * restarts), so the same event can arrive twice. The trigger remembers the key of every event it emitted for
 * REPEAT_WINDOW_MS, in the workflow's static data: n8n saves a webhook node's static data to its database when it
 * answers the request (live-webhooks.js, executeWebhook: `saveStaticData(workflow)` in the response callback) and
 * loads it with the workflow for every request, so the memory survives restarts and is shared by every n8n process
 * of the workflow (main, webhook processors). n8n's deduplication store (checkProcessedAndRecord) is not offered to
 * webhook nodes: WebhookContext's helpers hold no deduplication functions (n8n-core webhook-context.js, lines
 * 38–43; only execute-context.js and supply-data-context.js add them).
 *
 * Layout (node static data, `repeats`): `{ v: 1, hours: { "<hour number>": "<keys>" } }`, keys of the events
 * emitted in that hour of arrival, each KEY_LENGTH characters, one after the other. Hours older than the window
 * are dropped. n8n writes the whole static data per request, so two requests answered at the same time could each
 * write what it loaded plus its own keys only; each process therefore keeps what it knows (HourKeys) and writes the
 * union: keys are lost only if two processes answered batches at once and the one that lost its write stopped
 * before answering another batch. Test URL runs (manual mode) are remembered in memory only, apart from
 * production, so a test never hides a production event.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { canonicalWebhookKind } from '../shared/records/emailEvents';
import { serviceNumber } from '../shared/records/values';

/**
 * The service documents no end to its re-posting; 24 hours covers its retries after an outage of a day, and is the
 * window of its bounce list, the daily safety net it advises (docs/service-notes.md, Webhooks).
 */
export const REPEAT_WINDOW_MS = 24 * 3_600_000;
const HOUR_MS = 3_600_000;
/** 72 bits of SHA-256 (base64url): a new event is taken for a repeat with odds ~1e-10 among 1 million keys. */
export const KEY_LENGTH = 12;
const STATE_VERSION = 1;

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

/** The keys of one hour: `text` as stored (KEY_LENGTH characters each), `keys` the same as a set. */
interface HourKeys {
	text: string;
	keys: Set<string>;
}

function keysOf(text: string): HourKeys {
	const keys = new Set<string>();
	for (let at = 0; at + KEY_LENGTH <= text.length; at += KEY_LENGTH)
		keys.add(text.slice(at, at + KEY_LENGTH));
	return { text: text.slice(0, text.length - (text.length % KEY_LENGTH)), keys };
}

/** What this process knows, per workflow, node and mode. */
const knownByScope = new Map<string, Map<number, HourKeys>>();

/** The stored hours, or none when the static data holds something else (then it is rewritten from this process). */
function storedHours(staticData: IDataObject | undefined): Map<number, string> {
	const hours = new Map<number, string>();
	const state = staticData?.repeats as IDataObject | undefined;
	if (!state || state.v !== STATE_VERSION || !state.hours || typeof state.hours !== 'object')
		return hours;
	for (const [hour, text] of Object.entries(state.hours as IDataObject))
		if (typeof text === 'string' && Number.isInteger(Number(hour))) hours.set(Number(hour), text);
	return hours;
}

/** Adds to what this process knows of an hour the keys stored by others; true when the store lacks some of ours. */
function reconcile(known: Map<number, HourKeys>, hour: number, stored: string): boolean {
	const mine = known.get(hour);
	if (!mine) {
		known.set(hour, keysOf(stored));
		return false;
	}
	if (stored === mine.text) return false;
	if (stored.length > mine.text.length && stored.startsWith(mine.text)) {
		const added = keysOf(stored.slice(mine.text.length));
		for (const key of added.keys) mine.keys.add(key);
		mine.text += added.text;
		return false;
	}
	if (mine.text.startsWith(stored)) return true;
	// Another process wrote keys this one does not have (and maybe lost some of ours): take the union.
	for (const key of keysOf(stored).keys)
		if (!mine.keys.has(key)) {
			mine.keys.add(key);
			mine.text += key;
		}
	return true;
}

/**
 * One request's view of the repeat memory. `staticData` is the node's static data (production), or undefined to
 * keep the memory in this process only (test URL runs).
 */
export class RepeatMemory {
	private readonly known: Map<number, HourKeys>;
	private readonly hour: number;
	private readonly oldestHour: number;
	private storeLacksKeys = false;
	private added = false;

	constructor(
		scope: string,
		now: number,
		private readonly staticData?: IDataObject,
	) {
		this.hour = Math.floor(now / HOUR_MS);
		// Hours whose every key arrived within the window are kept (the current one and 24 before it).
		this.oldestHour = this.hour - Math.ceil(REPEAT_WINDOW_MS / HOUR_MS);
		let known = knownByScope.get(scope);
		if (!known) {
			known = new Map();
			knownByScope.set(scope, known);
		}
		this.known = known;
		for (const hour of [...known.keys()]) if (hour < this.oldestHour) known.delete(hour);
		if (staticData) {
			const stored = storedHours(staticData);
			for (const [hour, text] of stored)
				if (hour >= this.oldestHour && reconcile(known, hour, text)) this.storeLacksKeys = true;
			for (const hour of known.keys()) if (!stored.has(hour)) this.storeLacksKeys = true;
			for (const hour of stored.keys()) if (hour < this.oldestHour) this.storeLacksKeys = true;
		}
	}

	/** True the first time a key is offered within the window; remembers it. */
	isNew(key: string): boolean {
		for (const { keys } of this.known.values()) if (keys.has(key)) return false;
		let current = this.known.get(this.hour);
		if (!current) {
			current = { text: '', keys: new Set() };
			this.known.set(this.hour, current);
		}
		current.keys.add(key);
		current.text += key;
		this.added = true;
		return true;
	}

	/** Writes what this process knows into the static data when the store lacks any of it (n8n saves it). */
	save() {
		if (!this.staticData || !(this.added || this.storeLacksKeys)) return;
		const hours: IDataObject = {};
		for (const [hour, { text }] of [...this.known].sort(([a], [b]) => a - b))
			if (text) hours[String(hour)] = text;
		this.staticData.repeats = { v: STATE_VERSION, hours };
	}
}

/** For tests: forget what this process knows (as after a restart). */
export function forgetAllRepeats() {
	knownByScope.clear();
}
