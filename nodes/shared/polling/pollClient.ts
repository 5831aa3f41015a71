import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { checkRequestsPerSecond } from '../values/checks';
import { MessagingClient } from '../transport/client';
import { DEFAULT_REQUESTS_PER_SECOND, RequestPacer } from '../transport/pacer';

/**
 * A client for one poll of a polling trigger: its requests go one at a time (each page decides the next), so only
 * "Max Requests per Second" applies (see pollRequestOptionsField). Its value is checked as the action nodes check
 * it, so a workflow's triggers and action nodes accept the same values. `paceCap`: a lower pace the poll learned
 * the service allows (pacing off stays off).
 */
export function clientForPoll(context: IPollFunctions, paceCap?: number): MessagingClient {
	const requestOptions = context.getNodeParameter('requestOptions', {}) as IDataObject;
	const perSecond = checkRequestsPerSecond(
		requestOptions.requestsPerSecond,
		DEFAULT_REQUESTS_PER_SECOND,
		(problem) => new NodeOperationError(context.getNode(), `Max Requests per Second: ${problem}`),
	);
	const pace = paceCap !== undefined && perSecond > 0 ? Math.min(perSecond, paceCap) : perSecond;
	return new MessagingClient(context, new RequestPacer(pace, 1));
}
