/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * 9. Webhook trigger: the service's email events posted in batches of 500 to this package's Messaging Email
 * Trigger (repeat memory in the workflow's static data) and to what a user builds instead in n8n: Webhook → Split
 * Out (the body's list) → Remove Duplicates ("Remove Items Processed in Previous Executions", n8n's own
 * deduplication store), side by side in one n8n server. Measured: the server process's CPU per event from the first
 * POST to the last finished execution, events per second over the same span, and each batch's time from its POST
 * to its execution's end (n8n's stoppedAt), median and 95th percentile. Then the first two batches come again
 * (the service re-posts what got no 2xx): neither chain may emit them.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';

import type { BenchN8n } from '../lib/n8n';
import { fmt, int, processCpuSeconds, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import { workflowId, type WorkflowJson } from '../lib/workflows';

const OURS = 'webhookOurs';
const DIY = 'webhookDiy';
const DIY_PATH = 'bench-diy-email-events';
/** The service posts every 30 s or once 500 events have gathered (docs/service-notes.md, Webhooks). */
const BATCH = 500;
const counts = (smoke: boolean) => ({ events: smoke ? 500 : 10_000, batch: smoke ? 100 : BATCH });
const KINDS = ['delivered', 'opened', 'clicked', 'hard_bounces', 'unsubscribed'];

/** One webhook id per bench run: the trigger's secret URL. */
const OURS_WEBHOOK_ID = randomUUID();

function node(name: string, type: string, typeVersion: number, parameters: object, x: number) {
	return { id: randomUUID(), name, type, typeVersion, position: [x, 0], parameters };
}

function oursWorkflow(): WorkflowJson {
	return {
		id: workflowId(OURS),
		name: 'Bench 10: Messaging Email Trigger',
		nodes: [
			{
				...node('On Email Event', 'n8n-nodes-messaging.messagingEmailTrigger', 1, {}, 0),
				webhookId: OURS_WEBHOOK_ID,
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

function diyWorkflow(): WorkflowJson {
	const webhook = {
		...node(
			'Webhook',
			'n8n-nodes-base.webhook',
			2.1,
			{ httpMethod: 'POST', path: DIY_PATH, responseMode: 'onReceived', options: {} },
			0,
		),
		webhookId: randomUUID(),
	};
	const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'body' }, 220);
	const dedupe = node(
		'Remove Duplicates',
		'n8n-nodes-base.removeDuplicates',
		2,
		{
			operation: 'removeItemsSeenInPreviousExecutions',
			dedupeValue:
				'={{ $json.event }}|{{ $json.message_id }}|{{ $json.recipient ?? $json.email }}|{{ $json.timestamp }}|{{ $json.link_url ?? $json.url ?? "" }}',
			options: { historySize: 1_000_000 },
		},
		440,
	);
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id: workflowId(DIY),
		name: 'Bench 10: Webhook → Split Out → Remove Duplicates',
		nodes: [webhook, split, dedupe],
		connections: { Webhook: link('Split Out'), 'Split Out': link('Remove Duplicates') },
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** The service's batch: event objects as its webhooks post them (docs/service-notes.md, Webhooks). */
function events(from: number, count: number) {
	return Array.from({ length: count }, (_, index) => {
		const n = from + index;
		const kind = KINDS[n % KINDS.length];
		return {
			event: kind,
			timestamp: 1_795_428_000 + Math.floor(n / 50),
			message_id: `bench-${n}`,
			[kind === 'hard_bounces' ? 'email' : 'recipient']: `user${n}@example.com`,
			sender: 'news@sandbox.test',
			subject: `Order ${n}`,
			...(kind === 'clicked' ? { link_url: `https://example.com/p/${n}` } : {}),
			...(kind === 'hard_bounces'
				? {
						smtp_server_response_code: 550,
						smtp_server_response_subcode: '5.1.1',
						smtp_server_response: 'User unknown',
					}
				: {}),
		};
	});
}

export interface ApiExecution {
	id: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt?: string;
	data?: {
		resultData: { runData: Record<string, Array<{ data?: { main: unknown[][] } }>> };
	};
}

export async function executionsOf(n8n: BenchN8n, id: string, includeData = false) {
	const all: ApiExecution[] = [];
	let cursor: string | undefined;
	do {
		const page = (await n8n.instance.api(
			'GET',
			`/executions?workflowId=${id}&includeData=${includeData}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		)) as { data: ApiExecution[]; nextCursor?: string | null };
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

export async function post(url: string, body: unknown) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text() };
}

/** Posts until n8n serves the URL (it registers published webhooks in the background after start). */
async function whenServed(url: string, body: unknown) {
	const deadline = Date.now() + 60_000;
	for (;;) {
		const answer = await post(url, body);
		if (answer.status !== 404 || Date.now() > deadline) return answer;
		await sleep(250);
	}
}

const percentile = (values: number[], share: number) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
};

interface ChainFigures {
	eventsPerSecond: number;
	cpuUsPerEvent: number;
	medianMs: number;
	p95Ms: number;
	emitted: number;
	repeatsEmitted: number;
	answers: string[];
}

async function measure(
	n8n: BenchN8n,
	label: string,
	url: string,
	emittingNode: string,
	n: { events: number; batch: number },
	log: (line: string) => void,
): Promise<ChainFigures> {
	const id = workflowId(label);
	const pid = n8n.instance.pid!;
	// Warm-up (JIT, first-run caches), not counted: events of their own.
	const warm = await whenServed(url, events(1_000_000, n.batch));
	if (warm.status !== 200)
		throw new Error(`${label}: warm-up answered ${warm.status} ${warm.text}`);
	const settle = async (expected: number) => {
		for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline;) {
			const all = await executionsOf(n8n, id);
			if (
				all.length >= expected &&
				all.every((execution) => execution.finished || execution.stoppedAt)
			)
				return all;
			await sleep(100);
		}
		throw new Error(`${label}: executions did not finish`);
	};
	const before = (await settle(1)).length;
	const batches = Math.ceil(n.events / n.batch);
	const postedAt: number[] = [];
	const answers: string[] = [];
	const cpuBefore = processCpuSeconds(pid);
	const started = Date.now();
	for (let index = 0; index < batches; index++) {
		postedAt.push(Date.now());
		const answer = await post(url, events(index * n.batch, n.batch));
		if (answer.status !== 200)
			throw new Error(`${label}: batch ${index} → ${answer.status} ${answer.text}`);
		answers.push(answer.text);
	}
	const finished = await settle(before + batches);
	const cpuSeconds = processCpuSeconds(pid) - cpuBefore;
	const measured = finished.slice(before, before + batches);
	const stopped = measured.map((execution) => Date.parse(execution.stoppedAt ?? ''));
	const spanMs = Math.max(...stopped) - started;
	const latencies = stopped.map((at, index) => at - postedAt[index]);
	log(
		`    ${label}: ${int(n.events)} events in ${int(spanMs)} ms, CPU ${fmt(cpuSeconds, 2)} s, batch latency median ${int(percentile(latencies, 0.5))} ms`,
	);
	// The service posts the first two batches again: nothing may be emitted.
	for (let index = 0; index < 2 && index < batches; index++)
		answers.push((await post(url, events(index * n.batch, n.batch))).text);
	// The DIY chain runs (and emits nothing) for a repeat, the trigger starts no run: wait for any such run.
	await sleep(2000);
	await settle(before + batches);
	const withData = await executionsOf(n8n, id, true);
	const itemsOf = (execution: ApiExecution) =>
		execution.data?.resultData.runData[emittingNode]?.[0]?.data?.main[0]?.length ?? 0;
	const sum = (list: ApiExecution[]) =>
		list.reduce((total, execution) => total + itemsOf(execution), 0);
	const emitted = sum(withData.slice(before, before + batches));
	const repeatsEmitted = sum(withData.slice(before + batches));
	return {
		eventsPerSecond: n.events / (spanMs / 1000),
		cpuUsPerEvent: (cpuSeconds * 1e6) / n.events,
		medianMs: percentile(latencies, 0.5),
		p95Ms: percentile(latencies, 0.95),
		emitted,
		repeatsEmitted,
		answers,
	};
}

export const webhookEvents: Scenario = {
	id: 9,
	title: 'Webhook trigger: email events',
	phase: 'server',
	prepare: () => ({
		credentials: [],
		workflows: [oursWorkflow(), diyWorkflow()],
		webhooks: [OURS, DIY],
	}),
	async run({ n8n, smoke, log }): Promise<ScenarioResult> {
		if (!n8n) throw new Error('scenario 10 needs the n8n server');
		const n = counts(smoke);
		const base = n8n.instance.baseUrl;
		const loadBefore = loadavg()[0];
		const ours = await measure(
			n8n,
			OURS,
			`${base}/webhook/${OURS_WEBHOOK_ID}/email-events`,
			'On Email Event',
			n,
			log,
		);
		const diy = await measure(n8n, DIY, `${base}/webhook/${DIY_PATH}`, 'Remove Duplicates', n, log);
		const load = Math.max(loadBefore, loadavg()[0]);
		const batches = Math.ceil(n.events / n.batch);
		const repeatAnswers = ours.answers.slice(batches);
		const row = (label: string, figures: ChainFigures) => [
			label,
			int(figures.eventsPerSecond),
			int(figures.cpuUsPerEvent),
			`${int(figures.medianMs)} ms`,
			`${int(figures.p95Ms)} ms`,
			`${int(figures.emitted)} / ${int(n.events)}`,
			int(figures.repeatsEmitted),
		];
		return {
			id: 9,
			title: 'Webhook trigger: email events',
			headlineKey: 'webhook',
			headline: {
				loadAverage: Number(load.toFixed(1)),
				eventsPerSecond: Math.round(ours.eventsPerSecond),
				cpuUsPerEvent: Math.round(ours.cpuUsPerEvent),
				diyCpuUsPerEvent: Math.round(diy.cpuUsPerEvent),
				medianMs: Math.round(ours.medianMs),
				p95Ms: Math.round(ours.p95Ms),
			},
			setup: [
				`${int(n.events)} email events (delivered, opened, clicked, hard bounce, unsubscribed) posted in ${int(batches)} batches of ${int(n.batch)}, one after the other, to one n8n server: first to the Messaging Email Trigger (alone in its workflow; repeat memory in the workflow's static data), then to n8n's Webhook → Split Out → Remove Duplicates (Remove Items Processed in Previous Executions, key = kind|message|recipient|time|link, history 1,000,000). Each chain gets one warm-up batch first, not counted.`,
				'CPU = user + system time of the n8n server process from the first POST until the last execution finished, per event. Events/s over the same span. Latency = a batch POST until its execution ended (n8n stoppedAt). Then the first two batches are posted again, as the service does after a lost answer.',
				`The machine's load average (1 min) during the run: ${fmt(load, 1)} on ${cpus().length} cores; events/s and latencies depend on it, CPU per event much less.`,
			],
			tables: [
				{
					headers: [
						'Chain',
						'Events/s',
						'CPU µs / event',
						'POST → run finished, median',
						'p95',
						'Events emitted',
						'Repeats emitted',
					],
					rows: [
						row('Messaging Email Trigger', ours),
						row('Webhook → Split Out → Remove Duplicates', diy),
					],
				},
			],
			findings: [
				`The trigger took ${int(ours.eventsPerSecond)} events/s at ${int(ours.cpuUsPerEvent)} µs of n8n CPU per event; the do-it-yourself chain ${int(diy.eventsPerSecond)} events/s at ${int(diy.cpuUsPerEvent)} µs. Reposted batches: the trigger answered ${repeatAnswers.map((text) => text).join(' and ')}.`,
				// Reported, not checked: whether n8n's own node lets repeats through depends on how its runs overlap.
				...(diy.repeatsEmitted > 0
					? [
							`Remove Duplicates let ${int(diy.repeatsEmitted)} reposted events through. The likely cause: n8n's deduplication store reads and then rewrites one row per node with no lock (n8n's deduplication-helper.js, handleHashedItems), and the Webhook node answers before its run (Respond Immediately), so runs of consecutive batches overlap and one can overwrite the history the other wrote. The trigger writes the union of what its process knows (nodes/MessagingEmailTrigger/dedupe.ts).`,
						]
					: []),
			],
			summary: [
				[
					// Seconds to take all events, so that the ratio reads like the other rows (above 1: ours is ahead).
					`9. Webhook: ${int(n.events)} events in batches of ${int(n.batch)}, time to take them all (events/s)`,
					`${fmt(n.events / ours.eventsPerSecond, 2)} s (${int(ours.eventsPerSecond)}/s)`,
					`${fmt(n.events / diy.eventsPerSecond, 2)} s (${int(diy.eventsPerSecond)}/s; Webhook → Split Out → Remove Duplicates)`,
					`${fmt(ours.eventsPerSecond / diy.eventsPerSecond, 1)}×`,
				],
				[
					'9. … n8n CPU per event',
					`${int(ours.cpuUsPerEvent)} µs`,
					`${int(diy.cpuUsPerEvent)} µs`,
					`${fmt(diy.cpuUsPerEvent / ours.cpuUsPerEvent, 1)}×`,
				],
			],
			checks: [
				['the trigger emitted every event once', ours.emitted === n.events],
				['the DIY chain emitted every event once', diy.emitted === n.events],
				['reposted batches emitted nothing (trigger)', ours.repeatsEmitted === 0],
				...(smoke
					? []
					: ([
							['the trigger takes at least 4,000 events/s', ours.eventsPerSecond >= 4000],
							[
								'the trigger costs no more CPU per event than the DIY chain',
								ours.cpuUsPerEvent <= diy.cpuUsPerEvent,
							],
						] as Array<[string, boolean]>)),
			],
		};
	},
};
