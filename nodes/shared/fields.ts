import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_REQUESTS_PER_SECOND } from './transport/pacer';
import { invalidInput } from './items';
import { readParameter } from './parameters';
import { describeValue } from './objects';

/** "Return All" + "Limit", as every n8n list operation has them. */
export function returnAllAndLimit(
	displayOptions: IDisplayOptions,
	maxLimit?: number,
): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions,
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, ...(maxLimit ? { maxValue: maxLimit } : {}) },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { ...displayOptions, show: { ...displayOptions.show, returnAll: [false] } },
		},
	];
}

/**
 * Reads the fields returnAllAndLimit adds. Limit is a whole number of at least 1, checked here too: an expression
 * bypasses the editor's minimum (-5 would return nothing, "abc" would send limit=NaN). Text holding a whole
 * number ("20", from an expression) is read as that number.
 */
export function readReturnAllAndLimit(
	context: IExecuteFunctions,
	itemIndex: number,
): { returnAll: boolean; limit: number } {
	const returnAll = readParameter(context, 'returnAll', itemIndex, false) === true;
	if (returnAll) return { returnAll, limit: Infinity };
	const limit = checkWholeNumber(
		readParameter(context, 'limit', itemIndex, 50),
		{ min: 1 },
		(problem) => invalidInput(context, itemIndex, 'Limit', problem),
	);
	return { returnAll, limit };
}

const requestsPerSecondOption: INodeProperties = {
	displayName: 'Max Requests per Second',
	name: 'requestsPerSecond',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_REQUESTS_PER_SECOND,
	description:
		"Upper bound for this node's requests per second (the service allows 10 per account). 0 means no pacing.",
};

/** Pacing for one execution; every operation of a node shares it. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: DEFAULT_CONCURRENCY,
			description: 'How many requests may be in flight at once for independent items',
		},
		requestsPerSecondOption,
	],
};

/** A polling trigger's pacing: its requests go one at a time, so only the rate is an option. */
export const pollRequestOptionsField: INodeProperties = {
	...requestOptionsField,
	options: [requestsPerSecondOption],
};

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
 * minimum would not allow.
 */
export function checkRequestsPerSecond(given: unknown, fail: (problem: string) => Error): number {
	const requestsPerSecond = numberFromText(given ?? DEFAULT_REQUESTS_PER_SECOND);
	if (
		typeof requestsPerSecond !== 'number' ||
		!Number.isFinite(requestsPerSecond) ||
		requestsPerSecond < 0
	)
		throw fail(`must be a number of at least 0 (got ${describeValue(given)})`);
	return requestsPerSecond;
}

/** Request Options, checked: an expression can give what the editor's minimum and maximum would not allow. */
export function readRequestOptions(context: IExecuteFunctions): {
	requestsPerSecond: number;
	concurrency: number;
} {
	const options = readParameter(context, 'requestOptions', 0, {}) as IDataObject;
	const requestsPerSecond = checkRequestsPerSecond(options.requestsPerSecond, (problem) =>
		invalidInput(context, 0, 'Max Requests per Second', problem),
	);
	const concurrency = checkWholeNumber(
		options.maxConcurrency ?? DEFAULT_CONCURRENCY,
		{ min: 1, max: 50 },
		(problem) => invalidInput(context, 0, 'Max Concurrent Requests', problem),
	);
	return { requestsPerSecond, concurrency };
}
