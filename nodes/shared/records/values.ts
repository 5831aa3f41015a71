import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../values/objects';
import { serviceTimeToDate } from '../values/serviceTime';

/**
 * One reading of the service's loosely typed values for every output record: the same field arrives as a number in
 * one answer and as text in another ("550", "0.35"). Text that is not a plain decimal number ("", " ", "1e3",
 * "0x10") is not read as one.
 */
export function serviceNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

export const numberOrNull = (value: unknown): number | null => serviceNumber(value) ?? null;

export const textOrNull = (value: unknown): string | null =>
	value === undefined || value === null ? null : String(value);

/** `{ total: int }` of the count endpoints: a whole number of at least 0, or undefined. */
export function totalIn(body: unknown): number | undefined {
	const total = isRecord(body) ? serviceNumber(body.total) : undefined;
	return total !== undefined && Number.isInteger(total) && total >= 0 ? total : undefined;
}

/** `send_date` → `sendDateIso`: the name of the ISO twin the package adds beside a service time it passes through. */
const isoTwinName = (key: string): string =>
	`${key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase())}Iso`;

/**
 * The output vocabulary's rule for times (docs/architecture.md): every service time the package outputs has an ISO
 * twin. Beside each of `keys` the record holds, `<camelCase key>Iso` is the instant in ISO 8601 (UTC), read as a
 * wall-clock time in `timeZone`, or null when the service's value is no time (null, "", another format).
 */
export function withIsoTwins(record: IDataObject, keys: string[], timeZone: string): IDataObject {
	for (const key of keys) {
		if (!(key in record)) continue;
		record[isoTwinName(key)] = serviceTimeToDate(record[key], timeZone)?.toISOString() ?? null;
	}
	return record;
}
