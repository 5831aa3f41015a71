/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * 12. Webhook trigger at scale in a real n8n 2.40.7: scenario 11's windows (the workflow imported with the static
 * data the node keeps after 10,000 / 1,000,000 / 5,000,000 events), batches of 500 new events posted over HTTP to
 * the published trigger, n8n's server CPU per event from the first POST to the last finished execution (its
 * database writes included); then n8n restarts and the first batch of each workflow is the cold one.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import { fmt, int, processCpuSeconds, sleep } from '../lib/stats';
import type { BenchN8n } from '../lib/n8n';
import type { Scenario, ScenarioResult } from '../lib/types';
import { workflowId, type WorkflowJson } from '../lib/workflows';
import { fillWindow } from './s11-webhook-scale';
import { executionsOf, post } from './s9-webhook';

const NODE_NAME = 'On Email Event';
const BATCH = 500;
const sizes = (smoke: boolean) =>
	smoke
		? [{ label: 'sc1k', events: 1_000 }]
		: [
				{ label: 'sc10k', events: 10_000 },
				{ label: 'sc1m', events: 1_000_000 },
				{ label: 'sc5m', events: 5_000_000 },
			];
const WARM_BATCHES = (smoke: boolean) => (smoke ? 2 : 8);
const webhookIds = new Map<string, string>();

function scaleWorkflow(label: string, events: number): WorkflowJson {
	const webhookId = randomUUID();
	webhookIds.set(label, webhookId);
	return {
		id: workflowId(label),
		name: `Bench 12: ${int(events)} events in the window`,
		nodes: [
			{
				id: randomUUID(),
				name: NODE_NAME,
				type: 'n8n-nodes-messaging.messagingEmailTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				webhookId,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
		// As the node leaves it after that many events in the past 24 hours; n8n's import keeps it.
		staticData: fillWindow(events, Date.now(), NODE_NAME),
	} as WorkflowJson;
}

let sequence = 0;
function batch() {
	const seconds = Math.floor(Date.now() / 1000);
	return Array.from({ length: BATCH }, () => {
		const n = ++sequence;
		return {
			event: 'delivered',
			timestamp: seconds,
			message_id: `n8n-scale-${n}`,
			recipient: `user${n}@example.com`,
		};
	});
}

const urlOf = (n8n: BenchN8n, label: string) =>
	`${n8n.instance.baseUrl}/webhook/${webhookIds.get(label)}/email-events`;

/** Waits until n8n serves the URL: an empty list is answered by the node without a run or a lookup. */
async function whenServed(url: string) {
	for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(250))
		if ((await post(url, [])).status === 200) return;
	throw new Error(`${url} not served`);
}

/** Posts `count` batches, waits for their runs; n8n's CPU per event and each batch's POST → run end. */
async function batches(n8n: BenchN8n, label: string, count: number) {
	const id = workflowId(label);
	const url = urlOf(n8n, label);
	const before = (await executionsOf(n8n, id)).length;
	const pid = n8n.instance.pid!;
	const cpuBefore = processCpuSeconds(pid);
	const postedAt: number[] = [];
	const answerMs: number[] = [];
	for (let index = 0; index < count; index++) {
		postedAt.push(Date.now());
		const answer = await post(url, batch());
		// What the service waits for: n8n answers once the run has started, before it ends.
		answerMs.push(Date.now() - postedAt[index]);
		if (answer.status !== 200 || !answer.text.includes(`"emitted":${BATCH}`))
			throw new Error(`${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
	}
	for (const deadline = Date.now() + 10 * 60_000; ; await sleep(100)) {
		const all = await executionsOf(n8n, id);
		if (all.length >= before + count && all.every((run) => run.finished || run.stoppedAt)) {
			const cpuUs = (processCpuSeconds(pid) - cpuBefore) * 1e6;
			const latencies = all
				.slice(before, before + count)
				.map((run, index) => Date.parse(run.stoppedAt ?? '') - postedAt[index])
				.sort((a, b) => a - b);
			const p95 = (values: number[]) =>
				[...values].sort((a, b) => a - b)[Math.min(count - 1, Math.ceil(count * 0.95) - 1)];
			return {
				cpuUsPerEvent: Math.round(cpuUs / (count * BATCH)),
				p95Ms: p95(latencies),
				p95AnswerMs: p95(answerMs),
			};
		}
		if (Date.now() > deadline) throw new Error(`${label}: runs did not finish`);
	}
}

export const webhookScaleN8n: Scenario = {
	id: 12,
	title: 'Webhook trigger at scale in a real n8n',
	phase: 'server',
	prepare: ({ smoke }) => ({
		credentials: [],
		workflows: sizes(smoke).map(({ label, events }) => scaleWorkflow(label, events)),
		webhooks: sizes(smoke).map(({ label }) => label),
	}),
	async run({ n8n, smoke, log }): Promise<ScenarioResult> {
		if (!n8n) throw new Error('scenario 12 needs the n8n server');
		const load = [loadavg()[0]];
		const warm = new Map<string, { cpuUsPerEvent: number; p95Ms: number; p95AnswerMs: number }>();
		for (const { label, events } of sizes(smoke)) {
			await whenServed(urlOf(n8n, label));
			await batches(n8n, label, 1); // not counted: this process's first batch of the workflow
			warm.set(label, await batches(n8n, label, WARM_BATCHES(smoke)));
			log(`    ${int(events)} in the window, warm: ${JSON.stringify(warm.get(label))}`);
		}
		// A smoke run skips the restart (a minute of n8n's start): its cold figures are the warm ones' placeholders.
		const cold = new Map<string, { cpuUsPerEvent: number; p95Ms: number; p95AnswerMs: number }>(
			smoke ? warm : [],
		);
		if (!smoke) {
			log('  restarting n8n…');
			await n8n.instance.stop();
			await n8n.startServer();
			for (const { label, events } of sizes(smoke)) {
				await whenServed(urlOf(n8n, label));
				cold.set(label, await batches(n8n, label, 1));
				log(`    ${int(events)} in the window, cold: ${JSON.stringify(cold.get(label))}`);
			}
		}
		load.push(loadavg()[0]);
		const rows = sizes(smoke).map(({ label, events }) => ({
			windowEvents: events,
			p95BatchMs: warm.get(label)!.p95Ms,
			p95BatchMsCold: cold.get(label)!.p95Ms,
			cpuUsPerEvent: warm.get(label)!.cpuUsPerEvent,
			cpuUsPerEventCold: cold.get(label)!.cpuUsPerEvent,
			p95AnswerMs: warm.get(label)!.p95AnswerMs,
			p95AnswerMsCold: cold.get(label)!.p95AnswerMs,
		}));
		const first = rows[0];
		const last = rows[rows.length - 1];
		return {
			id: 12,
			title: 'Webhook trigger at scale in a real n8n',
			setup: [
				`n8n ${n8n.version} (one \`n8n start\` server, SQLite): one workflow per window, the Messaging Email Trigger alone, imported with the static data the node keeps after ${rows.map((row) => int(row.windowEvents)).join(' / ')} events in the past 24 hours (scenario 11's fill).`,
				`Warm: one batch of ${BATCH} new events not counted, then ${WARM_BATCHES(smoke)} batches posted one after the other; n8n restarts; cold: the first batch of each workflow${smoke ? ' (not in a smoke run: no restart)' : ''}. CPU = the n8n server process's user + system time from the first POST until its runs finished (n8n's database writes included; polling n8n's executions API to see them finish included too), per event; p95 = a batch's POST until its execution stopped; answer = a batch's POST until n8n's HTTP answer (what the service waits for; n8n answers once the run has started). The machine is shared: load average ${fmt(Math.min(...load), 1)}–${fmt(Math.max(...load), 1)}.`,
			],
			tables: [
				{
					headers: [
						'Events in the window',
						'CPU µs per event, warm',
						'cold (1 batch)',
						'p95 warm / cold',
						'p95 answer warm / cold',
					],
					rows: rows.map((row) => [
						int(row.windowEvents),
						int(row.cpuUsPerEvent),
						int(row.cpuUsPerEventCold),
						`${int(row.p95BatchMs)} / ${int(row.p95BatchMsCold)} ms`,
						`${int(row.p95AnswerMs)} / ${int(row.p95AnswerMsCold)} ms`,
					]),
				},
			],
			findings: [
				`In n8n, at ${int(last.windowEvents)} events in the window a batch costs ${int(last.cpuUsPerEvent)} µs of n8n CPU per event warm and ${int(last.cpuUsPerEventCold)} µs cold: ${fmt(last.cpuUsPerEvent / first.cpuUsPerEvent, 2)}× and ${fmt(last.cpuUsPerEventCold / first.cpuUsPerEventCold, 2)}× the cost at ${int(first.windowEvents)} (goal ≤ 1.5×). The service's wait, POST until n8n's answer: p95 ${int(last.p95AnswerMs)} ms warm, ${int(last.p95AnswerMsCold)} ms cold (goal ≤ 1,000 ms).`,
			],
			headlineKey: 'scaleN8n',
			headline: { webhook: rows },
			summary: [],
			checks: [['every window measured warm and cold', rows.length === sizes(smoke).length]],
		};
	},
};
