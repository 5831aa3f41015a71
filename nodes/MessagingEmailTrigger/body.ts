/**
 * Reading the service's POST: a JSON array of event objects (wire notes). Tolerated too: an empty array, a single
 * event object, a form-encoded body (one event as fields, or the JSON list in one field). Anything else is not a
 * batch: the node answers 400 and emits nothing.
 */
import type { IDataObject } from 'n8n-workflow';
import { isRecord, recordList } from '../shared/objects';

/** A batch holds 500 events (~250 kB); larger bodies are refused with 413. n8n's own limit (16 MB) applies first. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_EVENTS_PER_REQUEST = 10_000;

export type ReadBatch =
	{ ok: true; events: IDataObject[] } | { ok: false; status: 400 | 413; message: string };

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

function fromValue(value: unknown): ReadBatch {
	if (Array.isArray(value)) {
		const events = recordList(value);
		if (!events) return notJson();
		if (events.length > MAX_EVENTS_PER_REQUEST)
			return {
				ok: false,
				status: 413,
				message: `More than ${MAX_EVENTS_PER_REQUEST} events in one request`,
			};
		return { ok: true, events };
	}
	if (isRecord(value)) return { ok: true, events: Object.keys(value).length ? [value] : [] };
	return notJson();
}

/** A form body: a single event's fields, or one field (`events`, `data`, …) holding the JSON list. */
function fromForm(form: IDataObject): ReadBatch {
	if ('event' in form) return { ok: true, events: [form] };
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
