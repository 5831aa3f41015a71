/**
 * 2. Unlimited sending: the sandbox's rate limit off; N emails; wall time and CPU seconds of the n8n server
 * process per 1,000 items, both nodes. Our node is run with pacing off (Max Requests per Second 0, what a user
 * whose account allows more sets) and, on fewer items, with its default pacing of 10/s.
 */
import { fmt, int, ratio, seconds, sleep, summarise } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import {
	emailItems,
	httpEmailSend,
	linearWorkflow,
	oursEmailSend,
	workflowId,
	type NodeSpec,
} from '../lib/workflows';

const counts = (smoke: boolean) => ({ main: smoke ? 40 : 2000, paced: smoke ? 20 : 300 });

interface Side {
	key: string;
	label: string;
	paced?: boolean;
	node: (url: string) => NodeSpec;
}

const sides: Side[] = [
	{
		key: 'ours',
		label: 'Messaging Email (pacing off, 5 concurrent)',
		node: () => oursEmailSend('main', { requestsPerSecond: 0 }),
	},
	{
		key: 'ours20',
		label: 'Messaging Email (pacing off, 20 concurrent)',
		node: () => oursEmailSend('main', { requestsPerSecond: 0, maxConcurrency: 20 }),
	},
	{
		key: 'http',
		label: 'HTTP Request (default options)',
		node: (url) => httpEmailSend(url, 'main'),
	},
	{
		key: 'oursPaced',
		label: 'Messaging Email (default pacing, 10/s)',
		paced: true,
		node: () => oursEmailSend('main'),
	},
];

export const unlimited: Scenario = {
	id: 2,
	title: 'Unlimited sending',
	phase: 'server',
	prepare: ({ sandbox, smoke }) => {
		const n = counts(smoke);
		const workflows = sides.map((side) =>
			linearWorkflow(
				`s2${side.key}`,
				`Bench 2 ${side.label}`,
				{ webhookPath: `bench-s2-${side.key}` },
				[emailItems(side.paced ? n.paced : n.main), side.node(sandbox.url)],
			),
		);
		workflows.push(
			linearWorkflow('s2baseline', 'Bench 2 items only', { webhookPath: 'bench-s2-baseline' }, [
				emailItems(n.main),
			]),
		);
		return {
			credentials: ['main'],
			workflows,
			webhooks: [...sides.map((side) => `s2${side.key}`), 's2baseline'],
		};
	},
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const n = counts(smoke);
		sandbox.account.settings.rateLimitPerSecond = 0;
		// The Code node making the items runs in n8n's task runner, but handing them to the engine costs the server
		// CPU: measured on its own and subtracted.
		log(`  baseline: ${n.main} items, no send…`);
		const baseline = await n8n!.runWebhook('bench-s2-baseline', workflowId('s2baseline'));
		const rows: string[][] = [];
		const perThousand: Record<string, { wallMs?: number; cpu: number; failed: number }> = {};
		for (const side of sides) {
			const items = side.paced ? n.paced : n.main;
			await sleep(500);
			sandbox.log.clear();
			log(`  ${side.label}: ${items} emails…`);
			const outcome = await n8n!.runWebhook(`bench-s2-${side.key}`, workflowId(`s2${side.key}`));
			const stats = summarise(sandbox.log.all(), '/smtp/emails');
			const failed =
				outcome.send.items.filter((item) => item.json.error !== undefined).length +
				Math.max(0, items - outcome.send.items.length);
			const baselineCpu = (baseline.cpuSeconds * items) / n.main;
			const cpuPerThousand = (Math.max(0, outcome.cpuSeconds - baselineCpu) / items) * 1000;
			const wallPerThousand =
				outcome.send.executionTime === undefined
					? undefined
					: (outcome.send.executionTime / items) * 1000;
			perThousand[side.key] = { wallMs: wallPerThousand, cpu: cpuPerThousand, failed };
			rows.push([
				side.label,
				int(items),
				seconds(outcome.send.executionTime),
				seconds(wallPerThousand),
				`${fmt(cpuPerThousand, 2)} s`,
				`${int(stats.accepted)} / ${int(items)}`,
				int(failed),
			]);
		}
		const ours = perThousand.ours;
		const http = perThousand.http;
		return {
			id: 2,
			title: 'Unlimited sending',
			setup: [
				`Sandbox rate limit off; ${int(n.main)} emails per side (the default-pacing row: ${int(n.paced)}, per-1,000 figures from that). Same webhook-triggered workflows as scenario 1.`,
				"CPU = user + system seconds of the n8n server process (from /proc) between the webhook call and its answer, minus a baseline run that only makes the items (the Code node itself runs in n8n's task runner, a separate process). The sandbox runs in the bench process, so its own CPU is not counted.",
				"Messaging Email paces to 10 requests/second by default (the service's documented account limit); *Request Options → Max Requests per Second: 0* turns pacing off for accounts allowed more.",
			],
			tables: [
				{
					headers: [
						'Side',
						'Emails',
						'Wall time',
						'Wall time / 1,000',
						'n8n CPU / 1,000',
						'Delivered',
						'Items failed',
					],
					rows,
				},
			],
			findings: [
				`With pacing off, Messaging Email took ${seconds(ours.wallMs)} and ${fmt(ours.cpu, 2)} CPU-s per 1,000 emails; the HTTP Request node ${seconds(http.wallMs)} and ${fmt(http.cpu, 2)} CPU-s (HTTP ÷ ours: wall ${ratio(ours.wallMs, http.wallMs, 2)}, CPU ${ratio(ours.cpu, http.cpu, 2)}).`,
				`With its default pacing Messaging Email is deliberately slower when the account has no limit: ${seconds(perThousand.oursPaced.wallMs)} per 1,000 emails.`,
			],
			summary: [
				[
					'2. No rate limit: wall time per 1,000 emails',
					seconds(ours.wallMs) + ' (pacing off)',
					seconds(http.wallMs),
					ratio(ours.wallMs, http.wallMs, 2),
				],
				[
					'2. … n8n CPU per 1,000 emails',
					`${fmt(ours.cpu, 2)} s`,
					`${fmt(http.cpu, 2)} s`,
					ratio(ours.cpu, http.cpu, 2),
				],
			],
			checks: [
				['ours delivered every email', ours.failed === 0],
				['HTTP Request delivered every email', http.failed === 0],
			],
		};
	},
};
