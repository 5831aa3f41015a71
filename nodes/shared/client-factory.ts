import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import { readRequestOptions } from './fields';
import { MessagingClient } from './transport/client';
import { DEFAULT_REQUESTS_PER_SECOND, RequestPacer } from './transport/pacer';

/** A client for one node execution, paced by the node's "Request Options" (see requestOptionsField). */
export function clientForExecution(context: IExecuteFunctions): MessagingClient {
	const { requestsPerSecond, concurrency } = readRequestOptions(context);
	return new MessagingClient(context, new RequestPacer(requestsPerSecond, concurrency));
}

/**
 * A client for one poll of a polling trigger: its requests go one at a time (each page decides the next), so only
 * "Max Requests per Second" applies (see pollRequestOptionsField).
 */
export function clientForPoll(context: IPollFunctions): MessagingClient {
	const requestOptions = context.getNodeParameter('requestOptions', {}) as IDataObject;
	const given = requestOptions.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND;
	const perSecond = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
	// A bad value used to fall back to the default silently; refuse it as the action nodes do.
	if (typeof perSecond !== 'number' || !Number.isFinite(perSecond) || perSecond < 0)
		throw new NodeOperationError(
			context.getNode(),
			`Max Requests per Second: must be a number of at least 0 (got ${JSON.stringify(given)})`,
		);
	return new MessagingClient(context, new RequestPacer(perSecond, 1));
}
