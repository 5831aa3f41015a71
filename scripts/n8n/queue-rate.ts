/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * Issue 11's rate-limit check in queue mode, shared by test/queue/queue.queue.ts (check 3) and the bench's queue
 * row (bench/scenarios/s8-queue.ts): three executions of the template example, 300 emails each (Messaging Email →
 * Send, one request per item), started at once on the main of a QueueStack and run by its workers against one
 * account limited to 10 requests/s. Each execution has its own pacer; they share nothing but the service.
 * Figures come from the sandbox's request log and the executions' outputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { LoggedRequest } from '../../sandbox/core/request-log';
import { ROOT } from './instance';
import { finished, startExecution, type QueueExecution, type QueueStack } from './queue';

export const RATE_CHECK = {
	executions: 3,
	/** Rows per execution in the bench (scenario 8), which measures the share of the limit reached. */
	rows: 300,
	/**
	 * Rows per execution in the queue suite's check 3, which asserts what holds at any load (nothing failed or sent
	 * twice, never above the limit), not the share: 3 x 100 converge as 3 x 300 do (pacer-convergence), in a third of
	 * the time.
	 */
	testRows: 100,
	limit: 10,
	workflowIds: ['queueRateSend001', 'queueRateSend002', 'queueRateSend003'],
	example: 'template-email-from-rows.json',
	sendNode: 'Send Welcome Template',
};

export interface RateWorkflow {
	id: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

/**
 * The template example (examples/template-email-from-rows.json) sending `rows` generated rows, each to its own
 * recipient (`user<i>@<id>.example.com`), on `credential`.
 */
export function sendRowsWorkflow(
	id: string,
	rows: number,
	credential: { id: string; name: string },
): RateWorkflow {
	const workflow = JSON.parse(
		readFileSync(join(ROOT, 'examples', RATE_CHECK.example), 'utf8'),
	) as RateWorkflow;
	workflow.id = id;
	workflow.name = `queue: ${rows} template emails (${id})`;
	for (const node of workflow.nodes)
		if (node.credentials?.messagingServiceApi) node.credentials.messagingServiceApi = credential;
	const code = workflow.nodes.find((node) => node.name === 'Sheet Rows')!;
	code.parameters.jsCode = `return Array.from({ length: ${rows} }, (_, i) => ({ json: { name: 'User ' + i, email: 'user' + i + '@${id.toLowerCase()}.example.com', code: 'C-' + i } }));`;
	return workflow;
}

/** The check's workflows of `rows` rows each, to import before the stack starts. */
export function rateWorkflows(
	credential: { id: string; name: string },
	rows: number = RATE_CHECK.rows,
): RateWorkflow[] {
	return RATE_CHECK.workflowIds.map((id) => sendRowsWorkflow(id, rows, credential));
}

export interface RateFigures {
	/** Which worker (1-based) ran each execution. */
	workers: Array<number | undefined>;
	/** Requests the sandbox logged (token exchanges, sender checks and sends), accepted or not. */
	requests: number;
	/** Requests answered with anything but a rate limit. */
	accepted: number;
	rateLimited: number;
	/** Seconds from the first request the sandbox logged to the last. */
	seconds: number;
	acceptedPerSecond: number;
	shareOfLimit: number;
	/** Input rows without a `result: true` output item. */
	failedItems: number;
	executionErrors: Array<string | undefined>;
	emailsAccepted: number;
	/** Recipients the sandbox accepted more than once. */
	duplicates: number;
	/** Accepted requests in each second of the run. */
	perSecond: number[];
}

/** The figures of one run, from what the sandbox saw and what the executions output. */
export function rateFigures(
	log: LoggedRequest[],
	sentRecipients: string[],
	executions: QueueExecution[],
	workers: Array<number | undefined>,
	rows: number = RATE_CHECK.rows,
): RateFigures {
	const accepted = log.filter((entry) => entry.status !== 429);
	const seconds = (log[log.length - 1].receivedAt - log[0].receivedAt) / 1000;
	const acceptedPerSecond = accepted.length / seconds;
	const perSecond = Array.from({ length: Math.max(1, Math.ceil(seconds)) }, () => 0);
	for (const entry of accepted)
		perSecond[
			Math.min(perSecond.length - 1, Math.floor((entry.receivedAt - log[0].receivedAt) / 1000))
		]++;
	const perRecipient = new Map<string, number>();
	for (const recipient of sentRecipients)
		perRecipient.set(recipient, (perRecipient.get(recipient) ?? 0) + 1);
	const sentOk = executions
		.map(
			(execution) =>
				(
					execution.data?.resultData.runData[RATE_CHECK.sendNode]?.[0]?.data?.main?.[0] ?? []
				).filter((item) => item.json.result === true).length,
		)
		.reduce((sum, count) => sum + count, 0);
	return {
		workers,
		requests: log.length,
		accepted: accepted.length,
		rateLimited: log.length - accepted.length,
		seconds,
		acceptedPerSecond,
		shareOfLimit: acceptedPerSecond / RATE_CHECK.limit,
		failedItems: executions.length * rows - sentOk,
		executionErrors: executions.map((execution) => execution.data?.resultData.error?.message),
		emailsAccepted: sentRecipients.length,
		duplicates: [...perRecipient.values()].filter((count) => count > 1).length,
		perSecond,
	};
}

/**
 * Starts the check's executions at once on the stack's main and waits for them. The sandbox behind `baseUrl` must
 * be limited to RATE_CHECK.limit, its log and sent emails emptied before; `sandbox` reads them afterwards.
 */
export async function runRateCheck(
	stack: QueueStack,
	sandbox: { log: () => LoggedRequest[]; sentRecipients: () => string[] },
	credential: { id: string; name: string },
	rows: number = RATE_CHECK.rows,
): Promise<{ executions: QueueExecution[]; figures: RateFigures }> {
	const workflows = rateWorkflows(credential, rows);
	const ids = await Promise.all(
		workflows.map(async (workflow) => await startExecution(stack.main, workflow)),
	);
	const executions = await finished(stack.main, ids);
	const workers = executions.map((execution) => stack.workerOf(execution.id));
	return {
		executions,
		figures: rateFigures(sandbox.log(), sandbox.sentRecipients(), executions, workers, rows),
	};
}
