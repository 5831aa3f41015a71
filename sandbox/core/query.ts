/**
 * Parses a query string the way the live service tolerates it. Clients disagree on how to send arrays, so all
 * three forms are accepted: a JSON array string (`phones=["1","2"]`), indexed keys (`phones[0]=1&phones[1]=2`)
 * and repeated keys (`phones=1&phones=2`). A JSON object string (`route={"UA":"national"}`) becomes an object.
 * `arrayKeys` names the parameters a route expects as arrays (a single plain value becomes a one-element array).
 */
export function parseQuery(
	search: URLSearchParams,
	arrayKeys: string[] = [],
	objectKeys: string[] = [],
): Record<string, unknown> {
	const grouped = new Map<string, string[]>();
	const indexed = new Map<string, Array<[number, string]>>();
	for (const [rawKey, value] of search) {
		const indexMatch = /^(.+?)\[(\d*)\]$/.exec(rawKey);
		if (indexMatch) {
			const [, key, index] = indexMatch;
			const list = indexed.get(key) ?? [];
			list.push([index === '' ? list.length : Number(index), value]);
			indexed.set(key, list);
			continue;
		}
		grouped.set(rawKey, [...(grouped.get(rawKey) ?? []), value]);
	}

	const result: Record<string, unknown> = {};
	for (const [key, list] of indexed)
		result[key] = list.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
	for (const [key, values] of grouped) {
		if (arrayKeys.includes(key)) {
			const parsed = values.length === 1 ? tryJson(values[0]) : undefined;
			result[key] = Array.isArray(parsed) ? parsed : values;
		} else if (objectKeys.includes(key)) {
			result[key] = tryJson(values[values.length - 1]) ?? values[values.length - 1];
		} else {
			result[key] = values.length === 1 ? values[0] : values;
		}
	}
	return result;
}

function tryJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}
