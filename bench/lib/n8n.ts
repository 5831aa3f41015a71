/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * One real n8n for the whole bench: the packed package installed, all credentials and workflows imported up
 * front (one CLI call each), `n8n execute` for runs whose process memory matters, and one `n8n start` server
 * for webhook-triggered runs (no 4-second boot per run; CPU read from /proc of the server process).
 */

import { N8nInstance, packPackage } from '../../scripts/n8n/instance';
import { processCpuSeconds, processRssKb } from './stats';
import { CREDENTIAL_TYPE, workflowId as workflowIdOf, type WorkflowJson } from './workflows';

export interface NodeRun {
	startTime?: number;
	executionTime?: number;
	items: Array<{ json: Record<string, unknown> }>;
	error?: string;
}

export interface RunOutcome {
	status?: string;
	/** The measured node ("Send"). */
	send: NodeRun;
	/** Every node's run, by name. */
	nodes: Record<string, NodeRun>;
	error?: string;
}

export interface ServerRunOutcome extends RunOutcome {
	/** CPU seconds the n8n server process used between the webhook call and its answer. */
	cpuSeconds: number;
	/** Highest resident memory seen while the run went, minus the resident memory just before it (kB). */
	rssGrowthKb: number;
	wallMs: number;
}

type RunData = Record<
	string,
	Array<{
		startTime?: number;
		executionTime?: number;
		data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
		error?: { message: string };
	}>
>;

function outcomeOf(
	status: string | undefined,
	runData: RunData | undefined,
	error?: string,
): RunOutcome {
	const nodes: Record<string, NodeRun> = {};
	for (const [name, runs] of Object.entries(runData ?? {})) {
		const run = runs[0];
		nodes[name] = {
			startTime: run?.startTime,
			executionTime: run?.executionTime,
			items: run?.data?.main?.[0] ?? [],
			error: run?.error?.message,
		};
	}
	return { status, nodes, send: nodes.Send ?? { items: [] }, error };
}

export class BenchN8n {
	private constructor(
		readonly instance: N8nInstance,
		/** The packed package, also installed by the queue-mode scenario. */
		readonly tarball: string,
	) {}

	static async create(log: (line: string) => void): Promise<BenchN8n> {
		log('packing the package (npm run build + npm pack)…');
		const tarball = await packPackage();
		log('provisioning n8n (cached after the first time)…');
		return new BenchN8n(await N8nInstance.create({ tarball }), tarball);
	}

	get version() {
		return this.instance.version;
	}

	async importAll(
		credentials: Array<{ id: string; data: Record<string, unknown> }>,
		workflows: WorkflowJson[],
	) {
		await this.instance.importCredentials(
			credentials.map((credential) => ({
				id: credential.id,
				name: `Bench ${credential.id}`,
				type: CREDENTIAL_TYPE,
				data: credential.data,
			})),
		);
		await this.instance.importWorkflows(workflows);
	}

	/** `n8n execute --rawOutput` of one workflow: a fresh process, so its peak memory belongs to this run only. */
	async execute(
		id: string,
		timeoutMs = 15 * 60_000,
	): Promise<RunOutcome & { exitCode: number; peakRssKb: number; wallMs: number }> {
		const result = await this.instance.execute(id, { timeoutMs });
		const { exitCode, peakRssKb, wallMs, run } = result;
		if (!run) {
			return {
				exitCode,
				peakRssKb,
				wallMs,
				...outcomeOf(
					undefined,
					undefined,
					`no run JSON (exit ${exitCode}): ${result.stdout.slice(-1500)}`,
				),
			};
		}
		return {
			exitCode,
			peakRssKb,
			wallMs,
			...outcomeOf(
				run.status,
				run.data.resultData.runData as RunData,
				run.data.resultData.error?.message,
			),
		};
	}

	async startServer() {
		await this.instance.start();
	}

	async activate(id: string) {
		await this.instance.api('POST', `/workflows/${id}/activate`);
	}

	/** Calls a webhook workflow and waits for its execution to finish, sampling the server's CPU and memory. */
	async runWebhook(
		path: string,
		workflowIdValue: string,
		timeoutMs = 15 * 60_000,
	): Promise<ServerRunOutcome> {
		const pid = this.instance.pid!;
		let rssBefore = processRssKb(pid);
		let rssPeak = rssBefore;
		const sampler = setInterval(() => {
			try {
				rssPeak = Math.max(rssPeak, processRssKb(pid));
			} catch {
				// exited
			}
		}, 25);
		let cpuBefore = processCpuSeconds(pid);
		let started = Date.now();
		let answer = '';
		try {
			// n8n 2.x registers a published workflow's webhook in the background: "not registered" (nothing ran)
			// is asked again for up to 30 s.
			const registeredBy = Date.now() + 30_000;
			let response: Response;
			for (;;) {
				// Figures count from the attempt that ran, not from the wait for registration.
				cpuBefore = processCpuSeconds(pid);
				started = Date.now();
				rssBefore = processRssKb(pid);
				rssPeak = rssBefore;
				response = await fetch(`${this.instance.baseUrl}/webhook/${path}`, {
					method: 'POST',
					signal: AbortSignal.timeout(timeoutMs),
				});
				answer = await response.text();
				if (
					response.status !== 404 ||
					!answer.includes('not registered') ||
					Date.now() > registeredBy
				)
					break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			if (!response.ok)
				throw new Error(`webhook ${path} → ${response.status}: ${answer.slice(0, 500)}`);
		} finally {
			clearInterval(sampler);
		}
		const wallMs = Date.now() - started;
		const cpuSeconds = processCpuSeconds(pid) - cpuBefore;
		const outcome = await this.lastExecution(workflowIdValue);
		return { ...outcome, cpuSeconds, rssGrowthKb: rssPeak - rssBefore, wallMs };
	}

	/** The newest execution of a workflow, with its data, through n8n's public API. */
	async lastExecution(id: string): Promise<RunOutcome> {
		for (let attempt = 0; attempt < 40; attempt++) {
			const list = (await this.instance.api(
				'GET',
				`/executions?workflowId=${id}&includeData=true&limit=1`,
			)) as {
				data: Array<{
					status?: string;
					finished?: boolean;
					data?: { resultData: { runData: RunData; error?: { message: string } } };
				}>;
			};
			const execution = list.data[0];
			if (execution?.data && execution.status !== 'running' && execution.status !== 'new') {
				return outcomeOf(
					execution.status,
					execution.data.resultData.runData,
					execution.data.resultData.error?.message,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		throw new Error(`No finished execution of ${id} found`);
	}

	/**
	 * A run whose memory matters. Full bench: its own `n8n execute` process, memory = that process's peak resident
	 * memory. Smoke: a webhook run in the server (no boot per run), memory = resident growth during the run.
	 */
	async runIsolated(
		label: string,
		viaServer: boolean,
	): Promise<RunOutcome & { memoryKb: number; wallMs: number }> {
		const id = workflowIdOf(label);
		if (viaServer) {
			const outcome = await this.runWebhook(`bench-${label}`, id);
			return { ...outcome, memoryKb: outcome.rssGrowthKb };
		}
		const outcome = await this.execute(id);
		return { ...outcome, memoryKb: outcome.peakRssKb, wallMs: outcome.wallMs };
	}

	async dispose() {
		await this.instance.dispose();
	}
}
