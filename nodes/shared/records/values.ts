import { isRecord } from '../objects';

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
