/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * `npm run bench [-- --smoke] [-- --only 1,4]`: this package's nodes side by side with n8n's HTTP Request node,
 * in one real n8n, against one sandbox, in one run. A full run writes bench/RESULTS.md and bench/throughput.svg;
 * a smoke run (tiny counts, seconds of work) writes them under build/bench-smoke/ and fails if the harness does.
 * Scenario 8 (queue mode: Postgres, Redis, n8n main + 2 workers, ~3 minutes) runs in full and `--only` runs, not in
 * a smoke run; its figures go to results.json under `queue`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ROOT } from '../scripts/n8n/instance';
import { startSandbox } from '../sandbox';
import { BenchN8n } from './lib/n8n';
import { machineInfo, renderResults } from './lib/report';
import type { BenchContext, Scenario, ScenarioResult } from './lib/types';
import type { WorkflowJson } from './lib/workflows';
import { scenarios } from './scenarios';

const API_KEY = 'sp_apikey_bench0123456789abcdef0123';
/**
 * Each credential the bench imports has its own API client pair of the one sandbox account: the package gives a
 * token to every credential of the same client id/secret in one n8n process, so a credential meant to start fresh
 * (scenario 4) must not share its pair with one used before.
 */
const CLIENTS: Record<string, { clientId: string; clientSecret: string }> = Object.fromEntries(
	['main', 'tokOurs', 'tokHttp'].map((label) => [
		label,
		{
			clientId: label === 'main' ? 'bench-client' : `bench-client-${label}`,
			clientSecret: `bench-secret-${label === 'main' ? '' : `${label}-`}0123456789abcdef`,
		},
	]),
);

function parseArgs(argv: string[]) {
	const smoke = argv.includes('--smoke');
	const onlyIndex = argv.indexOf('--only');
	const only =
		onlyIndex >= 0
			? new Set(
					String(argv[onlyIndex + 1] ?? '')
						.split(',')
						.map(Number)
						.filter(Boolean),
				)
			: undefined;
	return { smoke, only };
}

async function main() {
	const { smoke, only } = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const log = (line: string) =>
		process.stdout.write(
			`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`,
		);
	const chosen = scenarios.filter((scenario) => !only || only.has(scenario.id));
	// Queue mode (its own Postgres, Redis and n8n processes, ~3 minutes) runs in full and partial runs, never in smoke.
	const selected = smoke ? chosen.filter((scenario) => scenario.phase !== 'queue') : chosen;
	if (!selected.length)
		throw new Error(
			smoke
				? 'Nothing to run: a smoke run skips scenario 8 (queue mode)'
				: `No scenario selected (--only takes ids ${scenarios.map((scenario) => scenario.id).join(', ')})`,
		);
	log(
		`${smoke ? 'smoke run' : 'full run'}: scenarios ${selected.map((scenario) => scenario.id).join(', ')}`,
	);

	const { main, ...others } = CLIENTS;
	const sandbox = await startSandbox({
		settings: { rateLimitPerSecond: 10 },
		credentials: { ...main, apiKey: API_KEY, additionalClients: Object.values(others) },
	});
	const base: Omit<BenchContext, 'n8n'> = { smoke, sandbox, log };
	let n8n: BenchN8n | undefined;
	const results: ScenarioResult[] = [];
	const failures: string[] = [];
	const runOne = async (scenario: Scenario) => {
		log(`scenario ${scenario.id}: ${scenario.title}`);
		const scenarioStarted = Date.now();
		try {
			const result = await scenario.run({ ...base, n8n });
			results.push(result);
			for (const table of result.tables) {
				log(`  ${table.headers.join(' | ')}`);
				for (const row of table.rows) log(`  ${row.join(' | ')}`);
			}
			for (const finding of result.findings) log(`  → ${finding}`);
			for (const [check, ok] of result.checks)
				if (!ok) failures.push(`scenario ${scenario.id}: ${check}`);
		} catch (error) {
			failures.push(`scenario ${scenario.id} threw: ${(error as Error).stack ?? String(error)}`);
			log(`  FAILED: ${(error as Error).message}`);
		}
		log(`  (${((Date.now() - scenarioStarted) / 1000).toFixed(1)} s)`);
	};

	try {
		const needN8n = selected.filter(
			(scenario) => scenario.phase !== 'inProcess' && scenario.phase !== 'queue',
		);
		if (needN8n.length) {
			n8n = await BenchN8n.create(log);
			const credentialIds = new Set<string>();
			const workflows: WorkflowJson[] = [];
			const webhooks: string[] = [];
			for (const scenario of needN8n) {
				const prepared = scenario.prepare!(base);
				prepared.credentials.forEach((id) => credentialIds.add(id));
				workflows.push(...prepared.workflows);
				webhooks.push(...(prepared.webhooks ?? []));
			}
			log(`importing ${credentialIds.size} credentials and ${workflows.length} workflows…`);
			await n8n.importAll(
				[...credentialIds].map((id) => {
					const client = CLIENTS[id];
					if (!client) throw new Error(`No API client pair for the bench credential "${id}"`);
					return {
						id: credentialId(id),
						data: {
							baseUrl: sandbox.url,
							authType: 'clientCredentials',
							clientId: client.clientId,
							clientSecret: client.clientSecret,
							accessToken: '',
						},
					};
				}),
				workflows.map((workflow) => withCredentialIds(workflow)),
			);
			// Runs whose process memory matters get their own `n8n execute` process; a smoke run does them in the server.
			if (!smoke)
				for (const scenario of needN8n.filter((entry) => entry.phase === 'execute'))
					await runOne(scenario);
			const serverScenarios = needN8n.filter(
				(entry) => entry.phase === 'server' || (smoke && entry.phase === 'execute'),
			);
			if (serverScenarios.length) {
				log('starting n8n (server mode)…');
				await n8n.startServer();
				for (const label of webhooks) await n8n.activate(workflowIdOf(label));
				for (const scenario of serverScenarios) await runOne(scenario);
				await n8n.instance.stop();
			}
		}
		for (const scenario of selected.filter((entry) => entry.phase === 'inProcess'))
			await runOne(scenario);
		for (const scenario of selected.filter((entry) => entry.phase === 'queue'))
			await runOne(scenario);
	} finally {
		await n8n?.dispose();
		await sandbox.close();
	}

	results.sort((a, b) => a.id - b.id);
	// Only a full run of every scenario replaces the committed bench/RESULTS.md.
	const outDir = smoke
		? join(ROOT, 'build', 'bench-smoke')
		: only
			? join(ROOT, 'build', 'bench-partial')
			: join(ROOT, 'bench');
	mkdirSync(outDir, { recursive: true });
	const machine = await machineInfo(n8n?.version);
	const totalSeconds = (Date.now() - started) / 1000;
	writeFileSync(
		join(outDir, 'RESULTS.md'),
		renderResults(results, machine, {
			smoke,
			totalSeconds,
			partial: !!only,
			skipped: scenarios.filter(
				(scenario) => chosen.includes(scenario) && !selected.includes(scenario),
			),
		}),
	);
	// Headline figures: a full run replaces bench/results.json; a partial run (--only) merges its scenarios into it.
	const resultsFile = join(smoke ? outDir : join(ROOT, 'bench'), 'results.json');
	const headlines: Record<string, unknown> =
		only && !smoke && existsSync(resultsFile)
			? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, unknown>)
			: {};
	// A dotted key ("scale.webhook") is one entry of a shared object: the scenarios beside it keep theirs.
	for (const result of results) {
		if (!result.headline) continue;
		const [key, entry] = (result.headlineKey ?? `s${result.id}`).split('.');
		if (entry === undefined) headlines[key] = result.headline;
		else {
			const shared = headlines[key];
			headlines[key] = {
				...(shared && typeof shared === 'object' ? shared : {}),
				[entry]: result.headline,
			};
		}
	}
	writeFileSync(resultsFile, `${JSON.stringify(headlines, null, 2)}\n`);
	for (const result of results)
		for (const [name, content] of Object.entries(result.files ?? {}))
			writeFileSync(join(outDir, name), content);
	log(`wrote ${join(outDir, 'RESULTS.md')} (${totalSeconds.toFixed(0)} s in all)`);
	if (failures.length) {
		process.stderr.write(`\nBench checks failed:\n- ${failures.join('\n- ')}\n`);
		process.exit(1);
	}
}

/** Credential ids are 16 characters like n8n's own. */
export function credentialId(label: string): string {
	return `benchcred${label}`.padEnd(16, '0').slice(0, 16);
}

function workflowIdOf(label: string): string {
	return `bench${label.replace(/[^A-Za-z0-9]/g, '')}`.padEnd(16, '0').slice(0, 16);
}

function withCredentialIds(workflow: WorkflowJson): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const credentials = (node as { credentials?: Record<string, { id: string; name: string }> })
				.credentials;
			if (!credentials) return node;
			return {
				...node,
				credentials: Object.fromEntries(
					Object.entries(credentials).map(([type, ref]) => [
						type,
						{ id: credentialId(ref.id), name: `Bench ${ref.id}` },
					]),
				),
			};
		}),
	};
}

main().catch((error: Error) => {
	process.stderr.write(`${error.stack ?? error.message}\n`);
	process.exit(1);
});
