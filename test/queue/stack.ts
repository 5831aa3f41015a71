/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';
import type { ExecuteResult, N8nInstance } from '../../scripts/n8n/instance';
import { QueueStack, type QueueExecution } from '../../scripts/n8n/queue';
import { SANDBOX_CREDENTIALS } from '../e2e/helpers';
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

/**
 * A second API client pair of the sandbox account: checks 2 and 2b use it so no n8n process holds a token for it yet
 * (the node's per-process token memory is keyed by base URL, client id and secret; check 1 used the main pair).
 */
export const FRESH_CLIENT = {
	clientId: 'e2e-queue-fresh-client-id',
	clientSecret: 'e2e-queue-fresh-client-secret-fedcba9876543210',
};

export async function startWorld(
	setup: (main: N8nInstance, sandboxUrl: string) => Promise<void>,
): Promise<QueueWorld> {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball)
		throw new Error(
			'E2E_TARBALL is not set: run through jest.queue.config.js (its global setup packs)',
		);
	const sandbox = await startSandbox({
		credentials: { ...SANDBOX_CREDENTIALS, additionalClients: [FRESH_CLIENT] },
	});
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

// Starting executions on the main and waiting for them are shared with the bench's queue row (bench/).
export { finished, startExecution, type QueueExecution } from '../../scripts/n8n/queue';

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
