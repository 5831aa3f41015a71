import type { IExecuteFunctions } from 'n8n-workflow';

import { readRequestOptions } from './fields';
import { MessagingClient } from '../transport/client';
import { RequestPacer } from '../transport/pacer';

/** A client for one node execution, paced by the node's "Request Options" (see requestOptionsField). */
export function clientForExecution(context: IExecuteFunctions): MessagingClient {
	const { requestsPerSecond, concurrency } = readRequestOptions(context);
	return new MessagingClient(context, new RequestPacer(requestsPerSecond, concurrency));
}
