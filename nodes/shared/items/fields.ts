import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_REQUESTS_PER_SECOND } from '../transport/pacer';
import { invalidInput } from '../values/inputErrors';
import { readParameter } from './parameters';
import { checkRequestsPerSecond, checkWholeNumber } from '../values/checks';

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

/** Request Options, checked: an expression can give what the editor's minimum and maximum would not allow. */
export function readRequestOptions(context: IExecuteFunctions): {
	requestsPerSecond: number;
	concurrency: number;
} {
	const options = readParameter(context, 'requestOptions', 0, {}) as IDataObject;
	const requestsPerSecond = checkRequestsPerSecond(
		options.requestsPerSecond,
		DEFAULT_REQUESTS_PER_SECOND,
		(problem) => invalidInput(context, 0, 'Max Requests per Second', problem),
	);
	const concurrency = checkWholeNumber(
		options.maxConcurrency ?? DEFAULT_CONCURRENCY,
		{ min: 1, max: 50 },
		(problem) => invalidInput(context, 0, 'Max Concurrent Requests', problem),
	);
	return { requestsPerSecond, concurrency };
}
