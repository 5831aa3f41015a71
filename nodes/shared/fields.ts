import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_REQUESTS_PER_SECOND } from './transport/pacer';

/** "Return All" + "Limit", as every n8n list operation has them. */
export function returnAllAndLimit(displayOptions: IDisplayOptions, maxLimit?: number): INodeProperties[] {
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

/** Reads the fields returnAllAndLimit adds. */
export function readReturnAllAndLimit(context: IExecuteFunctions, itemIndex: number): { returnAll: boolean; limit: number } {
	return {
		returnAll: context.getNodeParameter('returnAll', itemIndex, false) as boolean,
		limit: context.getNodeParameter('limit', itemIndex, 50) as number,
	};
}

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
		{
			displayName: 'Max Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_REQUESTS_PER_SECOND,
			description:
				"Upper bound for this node's requests per second (the service allows 10 per account). 0 means no pacing.",
		},
	],
};
