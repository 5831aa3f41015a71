/**
 * Checks of option values, shared by the action nodes and the triggers: pure, so a trigger that sends nothing does
 * not load the item engine to read its settings. Each caller raises the problem its own way (`fail`).
 */
import { describeValue } from './objects';

/**
 * A number option given as text by an expression ("20", "2.5") is read as that number; any other value is
 * returned as it is, for the caller's check to refuse ("0x10", "1e3" and "" are not read as numbers).
 */
export function numberFromText(value: unknown): unknown {
	return typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

/**
 * A whole-number option checked the same way everywhere (Limit, Batch Size, Max Concurrent Requests, Max Events
 * per Poll): an expression can give what the editor's minimum and maximum would not allow. Text holding a whole
 * number is read as that number; `fail` raises the problem its own way (an item's error or the trigger's).
 */
export function checkWholeNumber(
	given: unknown,
	range: { min: number; max?: number },
	fail: (problem: string) => Error,
): number {
	const value = numberFromText(given);
	const max = range.max ?? Infinity;
	if (
		typeof value === 'number' &&
		Number.isSafeInteger(value) &&
		value >= range.min &&
		value <= max
	)
		return value;
	const bounds = Number.isFinite(max) ? `from ${range.min} to ${max}` : `of at least ${range.min}`;
	throw fail(`must be a whole number ${bounds} (got ${describeValue(given)})`);
}

/**
 * Max Requests per Second, checked the same way for the action nodes and the polling triggers (each raises the
 * problem its own way: the triggers have no input item to name). An expression can give what the editor's
 * minimum would not allow. `fallback`: the value when none is given (the pacer's default).
 */
export function checkRequestsPerSecond(
	given: unknown,
	fallback: number,
	fail: (problem: string) => Error,
): number {
	const requestsPerSecond = numberFromText(given ?? fallback);
	if (
		typeof requestsPerSecond !== 'number' ||
		!Number.isFinite(requestsPerSecond) ||
		requestsPerSecond < 0
	)
		throw fail(`must be a number of at least 0 (got ${describeValue(given)})`);
	return requestsPerSecond;
}
