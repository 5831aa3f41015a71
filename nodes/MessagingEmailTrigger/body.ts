/**
 * Reading the service's POST: a JSON array of event objects (docs/service-notes.md, Webhooks). Accepted on
 * purpose too: a single event object (the service says a payload "may contain one event or an array"), an empty
 * array, a form-encoded body (one event as fields, or the JSON list in one field). Anything else is not a batch:
 * the node answers 400 and emits nothing.
 *
 * An entry is an event when it names its kind as text under `event`, its recipient's address as text (under
 * `recipient`, `email` or `email_to`), and is nested at most MAX_EVENT_DEPTH levels (the service's events are
 * flat). Other entries (`{"test":true}`, `{"event":"opened"}` without an address, an object 5,000 levels deep)
 * are counted as `notEvents` and never emitted: a batch holding only such entries is answered 400, a mixed batch
 * 200 with its events emitted (posting it again would not make the other entries events).
 */
import type { IDataObject } from 'n8n-workflow';
import { isRecord, recordList } from '../shared/values/objects';
import { recipientOf } from '../shared/records/emailEvents';

/**
 * A batch holds 500 events (~250 kB); larger bodies are refused with 413. n8n reads at most 16 MB (its
 * N8N_PAYLOAD_SIZE_MAX) and answers 500 itself, before the node runs, to anything larger.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_EVENTS_PER_REQUEST = 10_000;
/** Levels of objects and lists an event may hold (the event object is level 1). */
export const MAX_EVENT_DEPTH = 32;

export type ReadBatch =
	| { ok: true; events: IDataObject[]; notEvents: number }
	| { ok: false; status: 400 | 413; message: string; notEvents?: number };

const notJson = (): ReadBatch => ({
	ok: false,
	status: 400,
	message: 'The body is not a JSON list of events',
});

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
	} catch {
		return undefined;
	}
}

/** Whether a value nests objects or lists deeper than `limit` levels; walks without recursion. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 1]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		if (current === null || typeof current !== 'object') continue;
		if (depth > limit) return true;
		for (const child of Array.isArray(current) ? current : Object.values(current))
			if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
	}
	return false;
}

const isEvent = (entry: IDataObject): boolean =>
	typeof entry.event === 'string' &&
	entry.event.trim() !== '' &&
	recipientOf(entry) !== undefined &&
	!nestedDeeperThan(entry, MAX_EVENT_DEPTH);

function withEventsOnly(entries: IDataObject[]): ReadBatch {
	const events = entries.filter(isEvent);
	const notEvents = entries.length - events.length;
	if (entries.length > 0 && events.length === 0)
		return {
			ok: false,
			status: 400,
			notEvents,
			message: `No entry is an email event: each needs its kind as text under "event", the recipient's address under "recipient" or "email", and at most ${MAX_EVENT_DEPTH} levels of nesting`,
		};
	return { ok: true, events, notEvents };
}

function fromValue(value: unknown): ReadBatch {
	if (Array.isArray(value)) {
		const entries = recordList(value);
		if (!entries) return notJson();
		if (entries.length > MAX_EVENTS_PER_REQUEST)
			return {
				ok: false,
				status: 413,
				message: `More than ${MAX_EVENTS_PER_REQUEST} events in one request`,
			};
		return withEventsOnly(entries);
	}
	if (isRecord(value)) return withEventsOnly(Object.keys(value).length ? [value] : []);
	return notJson();
}

/** A form body: a single event's fields, or one field (`events`, `data`, …) holding the JSON list. */
function fromForm(form: IDataObject): ReadBatch {
	if ('event' in form) return withEventsOnly([form]);
	const keys = Object.keys(form);
	if (keys.length === 1 && typeof form[keys[0]] === 'string') {
		const parsed = parseJson(form[keys[0]] as string);
		if (parsed !== undefined) return fromValue(parsed);
	}
	return notJson();
}

/**
 * `body` is what n8n parsed (by content type), `rawBody` the bytes it read. A body n8n did not parse (no or an
 * unusual content type, text/plain) is read from the raw bytes as JSON.
 */
export function readBatch(
	body: unknown,
	rawBody: Buffer | string | undefined,
	contentType: string | undefined,
): ReadBatch {
	const size = rawBody === undefined ? 0 : Buffer.byteLength(rawBody);
	if (size > MAX_BODY_BYTES)
		return { ok: false, status: 413, message: `The body is larger than ${MAX_BODY_BYTES} bytes` };
	if (contentType?.startsWith('application/x-www-form-urlencoded') && isRecord(body))
		return fromForm(body);
	if (Array.isArray(body)) return fromValue(body);
	if (isRecord(body) && Object.keys(body).length > 0) return fromValue(body);
	if (typeof body === 'string') {
		const parsed = parseJson(body);
		return parsed === undefined ? notJson() : fromValue(parsed);
	}
	if (size === 0) return notJson();
	const parsed = parseJson(rawBody!.toString());
	return parsed === undefined ? notJson() : fromValue(parsed);
}
