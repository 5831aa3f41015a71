/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

import { N8nInstance, stopProcessGroup, type RunningN8n } from '../../scripts/n8n/instance';

/**
 * One running n8n for every e2e file of a run (per n8n version: `npm run e2e` and `npm run e2e:n8n1` are separate
 * runs). The global setup (`global-setup.ts`) starts it once (`n8n start`: owner, API key) with the packed package
 * installed; each file takes it with `sharedN8n()`, which first empties it (every workflow, with its executions,
 * and every credential), so a file sees the same empty n8n a fresh instance gave it, minus ~30-45 s of
 * create + migrations + start. The global teardown stops it by its process id and checks that it is gone.
 *
 * A file that needs n8n stopped (publishing with the CLI, a restart) calls `restartSharedN8n()`; the new process
 * is recorded for the next files and the teardown. The running n8n is described in a file named by
 * $E2E_N8N_STATE (environment variables set inside a test file do not reach the next file).
 */
const STATE_ENV = 'E2E_N8N_STATE';

function stateFile(): string {
	const file = process.env[STATE_ENV];
	if (!file || !existsSync(file))
		throw new Error(
			`${STATE_ENV} is not set: run through jest.e2e.config.js (its global setup starts the shared n8n)`,
		);
	return file;
}

const readState = () => JSON.parse(readFileSync(stateFile(), 'utf8')) as RunningN8n;
const writeState = (running: RunningN8n, file = stateFile()) =>
	writeFileSync(file, JSON.stringify(running, null, 2));

/** Global setup: installs the package into a fresh n8n, starts it and records it for the files. */
export async function startSharedN8n(tarball: string, stateFilePath: string): Promise<RunningN8n> {
	const n8n = await N8nInstance.create({ tarball });
	try {
		await n8n.start();
		writeState(n8n.running(), stateFilePath);
	} catch (error) {
		await n8n.dispose();
		throw error;
	}
	process.env[STATE_ENV] = stateFilePath;
	return n8n.running();
}

/** Global teardown: stops the shared n8n by its id, checks it is gone, removes its user folder. */
export async function stopSharedN8n(): Promise<void> {
	const file = process.env[STATE_ENV];
	if (!file || !existsSync(file)) return;
	const running = readState();
	await stopProcessGroup(running.pid);
	let alive = true;
	try {
		process.kill(running.pid, 0);
	} catch {
		alive = false;
	}
	rmSync(running.userFolder, { recursive: true, force: true });
	rmSync(file, { force: true });
	if (alive) throw new Error(`The shared n8n (pid ${running.pid}) is still running`);
}

interface Page<T> {
	data: T[];
	nextCursor?: string | null;
}

async function all<T>(n8n: N8nInstance, path: string): Promise<T[]> {
	const items: T[] = [];
	let cursor: string | undefined;
	do {
		const page = (await n8n.api(
			'GET',
			`${path}?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		)) as Page<T>;
		items.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return items;
}

/**
 * n8n 2.x unpublishes in the background: a delete right after the deactivation can answer 409 "Workflow is still
 * being unpublished. Please try again in a few moments." (seen after the polling triggers), so a 409 is asked again.
 * For up to 3 minutes: a workflow whose activation keeps failing (webhook-trigger.e2e.ts's trigger without a webhook
 * id) is unpublished only once the publication job holding it lets go, and n8n 2.40.7 leases such a job for 2
 * minutes (`publicationOutboxLeaseSeconds`) and polls its outbox every 15 s; a 60-second wait ran out once in CI.
 */
async function deleteWorkflow(n8n: N8nInstance, id: string): Promise<void> {
	const deadline = Date.now() + 180_000;
	for (;;) {
		try {
			await n8n.api('DELETE', `/workflows/${id}`);
			return;
		} catch (error) {
			if (!/ → 409: /.test((error as Error).message) || Date.now() > deadline) throw error;
			await new Promise((resolveWait) => setTimeout(resolveWait, 500));
		}
	}
}

/**
 * Empties the shared n8n: every execution deleted, every workflow unpublished (its triggers stop) and deleted,
 * every credential deleted. Fails when anything is left, so no file ever sees another file's data.
 */
async function empty(n8n: N8nInstance): Promise<void> {
	// Executions first: the public API lists only those of workflows that still exist.
	for (const execution of await all<{ id: string }>(n8n, '/executions'))
		await n8n.api('DELETE', `/executions/${execution.id}`);
	for (const workflow of await all<{ id: string; active: boolean }>(n8n, '/workflows')) {
		if (workflow.active) await n8n.api('POST', `/workflows/${workflow.id}/deactivate`);
		await deleteWorkflow(n8n, workflow.id);
	}
	const credentials = (await n8n.rest('GET', '/rest/credentials')) as {
		data: Array<{ id: string }>;
	};
	for (const credential of credentials.data)
		await n8n.rest('DELETE', `/rest/credentials/${credential.id}`);

	const left = {
		workflows: (await all<{ id: string }>(n8n, '/workflows')).map((workflow) => workflow.id),
		executions: (await all<{ id: string }>(n8n, '/executions')).map((execution) => execution.id),
		credentials: (
			(await n8n.rest('GET', '/rest/credentials')) as { data: Array<{ id: string }> }
		).data.map((credential) => credential.id),
	};
	if (left.workflows.length + left.executions.length + left.credentials.length > 0)
		throw new Error(`The shared n8n could not be emptied: ${JSON.stringify(left)}`);
}

/**
 * Node's fetch keeps connections to n8n open between requests, across files too (one n8n, one address). While jest
 * loads the next file its event loop is busy compiling; n8n closes the idle connections meanwhile (after 5 s), and
 * the first request can still be sent on one before Node has seen it closed: "fetch failed: other side closed" (seen
 * on the first request of the second file). One GET, repeated on that error, lets Node see every such close first.
 */
async function settleConnections(n8n: N8nInstance): Promise<void> {
	for (let attempt = 1; ; attempt++) {
		try {
			await (await fetch(`${n8n.baseUrl}/healthz`)).text();
			return;
		} catch (error) {
			if (attempt >= 3) throw error;
		}
	}
}

/**
 * The shared n8n, running and empty (no workflow, execution or credential; the owner and its API key stay).
 * Call it once per file, in `beforeAll` (or at the start of the file's only test). Import credentials and
 * workflows with the CLI (`importCredentials`, `importWorkflows`: fixed ids) or create them through REST;
 * `activateNow()` publishes in the running n8n. Do not `stop()` or `dispose()` it: the global teardown does.
 */
export async function sharedN8n(): Promise<N8nInstance> {
	const n8n = N8nInstance.attach(readState());
	await settleConnections(n8n);
	await empty(n8n);
	return n8n;
}

/**
 * Stops the shared n8n and starts it again on the same user folder (what `n8n start` reads at start-up: workflows
 * published with the CLI meanwhile, the memory kept in the database); the next files and the teardown get the new
 * process.
 */
export async function restartSharedN8n(n8n: N8nInstance): Promise<void> {
	await n8n.start();
	writeState(n8n.running());
}
