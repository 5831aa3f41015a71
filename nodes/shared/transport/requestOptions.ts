import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_CONCURRENCY, DEFAULT_REQUESTS_PER_SECOND } from './pacer';

/** The pacer's settings as the nodes show them; the action nodes read them with items/fields.ts readRequestOptions. */

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
