import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MessagingClient } from './transport/client';
import { DEFAULT_CONCURRENCY, DEFAULT_REQUESTS_PER_SECOND, RequestPacer } from './transport/pacer';

/** A client for one node execution, paced by the node's "Request Options" (see requestOptionsField). */
export function clientForExecution(context: IExecuteFunctions): MessagingClient {
	const options = context.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const requestsPerSecond = Number(options.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND);
	const concurrency = Math.max(1, Number(options.maxConcurrency ?? DEFAULT_CONCURRENCY));
	return new MessagingClient(context, new RequestPacer(requestsPerSecond, concurrency));
}
