import { startSandbox, type Sandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';
import type { ExecuteResult, N8nInstance } from '../../scripts/n8n/instance';
import { QueueStack } from '../../scripts/n8n/queue';
import { SANDBOX_CREDENTIALS, sleep, type Workflow } from '../e2e/helpers';
import { AttributionRelay } from './attribution';

/**
 * What every queue-mode check needs: the sandbox (in this process, so its request log and clock are at hand), the
 * attribution relay in front of it (which n8n process sent what), and the queue stack.
 */
export interface QueueWorld {
	sandbox: Sandbox;
	relay: AttributionRelay;
	stack: QueueStack;
}

export async function startWorld(
	setup: (main: N8nInstance, sandboxUrl: string) => Promise<void>,
): Promise<QueueWorld> {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball)
		throw new Error(
			'E2E_TARBALL is not set: run through jest.queue.config.js (its global setup packs)',
		);
	const sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	const world = { sandbox } as QueueWorld;
	const target = new URL(sandbox.url);
	world.relay = new AttributionRelay({ host: target.hostname, port: Number(target.port) }, () =>
		processIds(world.stack),
	);
	await world.relay.start();
	world.stack = new QueueStack({
		tarball,
		workers: 2,
		// Two jobs per worker: three long executions started at once must use both workers.
		workerConcurrency: 2,
		// A killed worker's job is declared stalled after ~20 s instead of up to 90 s (defaults 60 s lock, 30 s check).
		env: {
			QUEUE_WORKER_LOCK_DURATION: '15000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
			QUEUE_WORKER_STALLED_INTERVAL: '5000',
		},
	});
	await world.stack.start(async (main) => await setup(main, world.relay.url));
	return world;
}

/** Stops everything started, whatever failed before (each step is tried). */
export async function stopWorld(world: Partial<QueueWorld>): Promise<void> {
	try {
		await world.stack?.stop();
	} finally {
		await world.relay?.close();
		await world.sandbox?.close();
	}
}

function processIds(stack: QueueStack | undefined): Record<string, number | undefined> {
	if (!stack) return {};
	const ids: Record<string, number | undefined> = { main: stack.main?.pid };
	stack.workers.forEach((worker, index) => (ids[`worker${index + 1}`] = worker?.service.pid));
	if (stack.webhook) ids.webhook = stack.webhook.service.pid;
	return ids;
}

export async function resetSandbox(sandbox: Sandbox) {
	emailStateOf(sandbox).reset();
	const reset = await fetch(`${sandbox.url}/__sandbox/sms/reset`, { method: 'POST' });
	if (reset.status !== 200) throw new Error(`sms reset → ${reset.status}`);
	sandbox.log.clear();
}

export interface QueueExecution {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt: string;
	stoppedAt?: string;
	workflowId: string;
	data?: NonNullable<ExecuteResult['run']>['data'];
}

/** Starts a manual execution on the main (REST, as the editor's button does); a worker runs it. */
export async function startExecution(main: N8nInstance, workflow: Workflow): Promise<string> {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`${workflow.id} has no manual trigger`);
	const answer = (await main.rest('POST', `/rest/workflows/${workflow.id}/run`, {
		triggerToStartFrom: { name: trigger.name },
	})) as { data: { executionId?: string; waitingForWebhook?: boolean } };
	if (!answer.data.executionId)
		throw new Error(`${workflow.id}: no execution started: ${JSON.stringify(answer)}`);
	return answer.data.executionId;
}

const DONE = new Set(['success', 'error', 'crashed', 'canceled']);

/** Waits until every execution has ended; returns them with their data, in the order of `ids`. */
export async function finished(
	main: N8nInstance,
	ids: string[],
	timeoutMs = 300_000,
): Promise<QueueExecution[]> {
	const deadline = Date.now() + timeoutMs;
	const done = new Map<string, QueueExecution>();
	while (done.size < ids.length) {
		for (const id of ids.filter((candidate) => !done.has(candidate))) {
			const execution = (await main.api('GET', `/executions/${id}`)) as QueueExecution;
			if (DONE.has(execution.status))
				done.set(
					id,
					(await main.api('GET', `/executions/${id}?includeData=true`)) as QueueExecution,
				);
		}
		if (done.size === ids.length) break;
		if (Date.now() > deadline)
			throw new Error(
				`Executions not finished after ${timeoutMs} ms: ${ids.filter((id) => !done.has(id))}`,
			);
		await sleep(500);
	}
	return ids.map((id) => done.get(id)!);
}

/** An execution in the shape the regular-mode expectations take (test/e2e/expectations.ts). */
export const asRun = (execution: QueueExecution): ExecuteResult =>
	({
		exitCode: 0,
		stdout: '',
		stderr: '',
		peakRssKb: 0,
		cpuSeconds: 0,
		wallMs: 0,
		status: execution.status,
		run: { status: execution.status, data: execution.data! },
	}) as ExecuteResult;
