import { parsePhpSerialized } from './php-serialized';
import { parseQuery } from './query';
import { isPlainObject } from './schema';
import type { HttpMethod, RouteDefinition } from './types';

/** A request as the reference's form, when it came in one of the vendor client's forms. */
export interface AcceptedForm {
	query: Record<string, unknown>;
	body: unknown;
}

/**
 * The vendor's own Node.js client sends forms the reference does not show, and the live service takes them
 * (sandbox/README.md, "What the vendor's own client sends"). This turns them into the reference's forms, so a
 * route validates and answers them exactly as it answers those:
 * - a GET without a query string carries its parameters as a JSON body; `""` and `null` (and a route's
 *   `vendorForms.notGiven` values) are what the client sends for a parameter its caller left out;
 * - body members named in `vendorForms.jsonText` may be an array or object written as JSON text;
 * - body members named in `vendorForms.phpSerialized` may be PHP-serialized text.
 * Returns undefined when the request is already in the reference's form (the node's requests always are).
 */
export function acceptVendorForms(
	definition: RouteDefinition,
	method: HttpMethod,
	query: Record<string, unknown>,
	body: unknown,
): AcceptedForm | undefined {
	if (
		method === 'GET' &&
		definition.query &&
		Object.keys(query).length === 0 &&
		isPlainObject(body) &&
		Object.keys(body).length > 0
	) {
		return { query: parametersFromBody(definition, body), body: undefined };
	}
	if (!isPlainObject(body)) return undefined;
	const forms = definition.vendorForms ?? {};
	let changed = false;
	const accepted = { ...body };
	const replace = (keys: string[] | undefined, read: (text: string) => unknown) => {
		for (const key of keys ?? []) {
			const value = accepted[key];
			if (typeof value !== 'string') continue;
			const parsed = read(value);
			// Only text that holds an array or object stands for one; anything else is refused as before.
			if (typeof parsed !== 'object' || parsed === null) continue;
			accepted[key] = parsed;
			changed = true;
		}
	};
	replace(forms.jsonText, parseJson);
	replace(forms.phpSerialized, parsePhpSerialized);
	return changed ? { query, body: accepted } : undefined;
}

/** The body's members as the query string would give them (`parseQuery`: arrays and objects as JSON text). */
function parametersFromBody(definition: RouteDefinition, body: Record<string, unknown>) {
	const notGiven = definition.vendorForms?.notGiven ?? {};
	const search = new URLSearchParams();
	for (const [key, value] of Object.entries(body)) {
		if (value === '' || value === null || value === undefined || notGiven[key] === value) continue;
		search.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
	}
	return parseQuery(search, definition.queryArrays, definition.queryObjects);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
