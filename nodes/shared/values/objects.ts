import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not null, not a list): what an answer, a stored state or a posted body must be before it is read. */
export const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list whose every entry is a JSON object, or undefined: one odd entry makes the whole answer unreadable. */
export const recordList = (value: unknown): IDataObject[] | undefined =>
	Array.isArray(value) && value.every(isRecord) ? value : undefined;

/** What kind of value this is, in words, without the value: for texts that must not quote it (stored state). */
export function kindOf(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return 'text';
	if (typeof value === 'object') return 'an object';
	return `a ${typeof value}`;
}

/** A value as an error describes what it got: its kind, and the value itself (quoted, shortened). */
export function describeValue(value: unknown): string {
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (value === undefined || value === null) return kindOf(value);
	return `${kindOf(value)} (${quoteValue(value)})`;
}

/** A value as it appears in an error ("got …"): its JSON, shortened to 60 characters. */
export function quoteValue(value: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(value) ?? String(value);
	} catch {
		text = String(value);
	}
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The copy `JSON.parse(JSON.stringify(value))` gives of JSON-shaped data, without writing the text out: objects and
 * lists are copied, texts shared (they cannot change), and what JSON drops or turns into null is dropped or null
 * here too. A trigger's state is copied in and out on every poll; at 1.8 MB of digests (100,000 bounces and 100,000
 * unsubscribes in a day) the round trip through text cost ~25 ms of an idle poll.
 */
export function copyJson(value: unknown): unknown {
	return copyJsonValue(value);
}

function copyJsonValue(value: unknown): unknown {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
	// JSON writes -0 as 0 and has no NaN or Infinity.
	if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
	if (Array.isArray(value))
		return value.map((entry) => (isDroppedByJson(entry) ? null : copyJsonValue(entry)));
	if (typeof value === 'object') {
		const withToJson = value as { toJSON?: () => unknown };
		if (typeof withToJson.toJSON === 'function') return copyJsonValue(withToJson.toJSON());
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			if (!isDroppedByJson(entry)) copy[key] = copyJsonValue(entry);
		}
		return copy;
	}
	return undefined;
}

const isDroppedByJson = (value: unknown) =>
	value === undefined || typeof value === 'function' || typeof value === 'symbol';
