/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * 11. Webhook trigger at scale: the Messaging Email Trigger's cost per batch of 500 new events with 10,000,
 * 1,000,000 and 5,000,000 events already in its 24-hour repeat window, in a process that answered the day's
 * batches (warm) and in one that sees the store first (after a restart of n8n, a second webhook processor).
 *
 * Through the harness (test/harness/webhook-harness.ts: n8n-core's WebhookContext and ExecuteContext over real
 * HTTP), with n8n's database done as n8n does it: every request parses the workflow's static data from its stored
 * JSON, and the request with its run serialises it back when it changed. The window is filled by the node's own
 * repeat memory, a minute of arrival at a time over the past 24 hours, so the store is what the node keeps.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import { MessagingEmailTrigger } from '../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node';
import {
	KEY_LENGTH,
	MAX_REMEMBERED_KEYS,
	REPEAT_WINDOW_MS,
	RepeatMemory,
	forgetAllRepeats,
} from '../../nodes/MessagingEmailTrigger/dedupe';
import { WebhookHarness } from '../../test/harness/webhook-harness';
import { fmt, int } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

const NODE_TYPE = 'n8n-nodes-messaging.messagingEmailTrigger';
/** The harness's node, whose static data n8n keeps under `node:<name>`. */
const NODE_NAME = 'Email Events';
/** The harness's workflow and node: the scope the node's memory is kept under in this process. */
const SCOPE = 'webhook-workflow:webhook-trigger-node:webhook';
const BATCH = 500;
const MINUTE_MS = 60_000;

const plan = (smoke: boolean) => ({
	windows: smoke ? [1_000, 20_000] : [10_000, 1_000_000, 5_000_000],
	warmBatches: smoke ? 3 : 20,
	coldBatches: smoke ? 2 : 8,
});

export interface ScaleRow {
	windowEvents: number;
	p95BatchMs: number;
	p95BatchMsCold: number;
	cpuUsPerEvent: number;
	cpuUsPerEventCold: number;
	staticDataBytes: number;
}

/**
 * The static data after `events` events spread evenly over the 24 hours before `now`, each minute's keys remembered
 * by the node's RepeatMemory (random keys: an event's key is 72 bits of a hash) and saved as n8n would.
 */
export function fillWindow(events: number, now: number, nodeName = NODE_NAME) {
	const staticData = {};
	const workflowStaticData = { [`node:${nodeName}`]: staticData };
	// The harness's node: this process then knows the window as one that answered the day's batches.
	const scope = nodeName === NODE_NAME ? SCOPE : `fill:${nodeName}`;
	const minutes = REPEAT_WINDOW_MS / MINUTE_MS;
	let given = 0;
	for (let minute = minutes; minute >= 1; minute--) {
		const count = Math.round((events * (minutes - minute + 1)) / minutes) - given;
		given += count;
		const memory = new RepeatMemory(scope, now - minute * MINUTE_MS, staticData);
		const text = randomBytes(Math.ceil((count * KEY_LENGTH * 3) / 4) + 3).toString('base64url');
		for (let index = 0; index < count; index++)
			memory.isNew(text.slice(index * KEY_LENGTH, (index + 1) * KEY_LENGTH));
		memory.save();
	}
	return workflowStaticData;
}

let sequence = 0;
/** A batch of new events as the service posts them (docs/webhook-trigger.md): kinds, message, recipient, time. */
function batchBody() {
	const seconds = Math.floor(Date.now() / 1000);
	return JSON.stringify(
		Array.from({ length: BATCH }, () => {
			const n = ++sequence;
			return {
				event: n % 3 === 0 ? 'opened' : 'delivered',
				timestamp: seconds,
				message_id: `scale-${n}`,
				recipient: `user${n}@example.com`,
				sender: 'news@sandbox.test',
				subject: `Order ${n}`,
			};
		}),
	);
}

const p95 = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
};
const cpuUs = () => {
	const usage = process.cpuUsage();
	return usage.user + usage.system;
};

/** Posts one batch; its wall time and this process's CPU (the node, the harness and the client). */
async function postBatch(harness: WebhookHarness, path: string) {
	const body = batchBody();
	const cpu = cpuUs();
	const started = performance.now();
	const answer = await harness.post(path, body);
	const wallMs = performance.now() - started;
	const cpuPerEvent = (cpuUs() - cpu) / BATCH;
	const emitted = (JSON.parse(answer.text) as { emitted?: number }).emitted;
	if (answer.status !== 200 || emitted !== BATCH)
		throw new Error(`batch answered ${answer.status} ${answer.text.slice(0, 200)}`);
	return { wallMs, cpuPerEvent };
}

async function measure(windowEvents: number, warmBatches: number, coldBatches: number) {
	forgetAllRepeats();
	const database = { json: JSON.stringify(fillWindow(windowEvents, Date.now())) };
	const harness = await new WebhookHarness({
		nodeType: new MessagingEmailTrigger(),
		nodeTypeName: NODE_TYPE,
		parameters: {},
		webhookId: randomUUID(),
		database,
	}).listen();
	try {
		const path = new URL(harness.productionUrl()).pathname;
		// One batch not counted: the process's code paths warmed for this size.
		await postBatch(harness, path);
		const warm = [];
		for (let index = 0; index < warmBatches; index++) warm.push(await postBatch(harness, path));
		const cold = [];
		for (let index = 0; index < coldBatches; index++) {
			// As after a restart: the process knows nothing, the store is what n8n's database holds.
			forgetAllRepeats();
			cold.push(await postBatch(harness, path));
		}
		const mean = (values: number[]) =>
			values.reduce((sum, value) => sum + value, 0) / values.length;
		const row: ScaleRow = {
			windowEvents,
			p95BatchMs: Math.round(p95(warm.map((batch) => batch.wallMs))),
			p95BatchMsCold: Math.round(p95(cold.map((batch) => batch.wallMs))),
			cpuUsPerEvent: Math.round(mean(warm.map((batch) => batch.cpuPerEvent))),
			cpuUsPerEventCold: Math.round(mean(cold.map((batch) => batch.cpuPerEvent))),
			staticDataBytes: Buffer.byteLength(database.json),
		};
		return row;
	} finally {
		await harness.close();
		forgetAllRepeats();
	}
}

/** Events in the window → CPU per event, warm and cold: a bar chart as a self-contained SVG. */
export function scaleChart(rows: ScaleRow[]): string {
	const width = 640;
	const height = 320;
	const margin = { left: 60, right: 20, top: 40, bottom: 60 };
	const plotH = height - margin.top - margin.bottom;
	const group = (width - margin.left - margin.right) / rows.length;
	const widest = Math.max(1, ...rows.flatMap((row) => [row.cpuUsPerEvent, row.cpuUsPerEventCold]));
	const y = (value: number) => margin.top + plotH - (value / widest) * plotH;
	const parts = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
		`<rect width="${width}" height="${height}" fill="white"/>`,
		`<text x="${margin.left}" y="20" font-size="14">CPU µs per event, batches of ${BATCH}, by events already in the repeat window</text>`,
		`<line x1="${margin.left}" y1="${y(0)}" x2="${width - margin.right}" y2="${y(0)}" stroke="black"/>`,
	];
	rows.forEach((row, index) => {
		const left = margin.left + index * group + group * 0.15;
		const barWidth = group * 0.3;
		for (const [offset, value, color, label] of [
			[0, row.cpuUsPerEvent, '#1f77b4', 'warm'],
			[barWidth + 4, row.cpuUsPerEventCold, '#d62728', 'cold'],
		] as const) {
			parts.push(
				`<rect x="${left + offset}" y="${y(value)}" width="${barWidth}" height="${y(0) - y(value)}" fill="${color}"/>`,
				`<text x="${left + offset + barWidth / 2}" y="${y(value) - 4}" text-anchor="middle">${value} ${label}</text>`,
			);
		}
		parts.push(
			`<text x="${left + barWidth}" y="${y(0) + 20}" text-anchor="middle">${int(row.windowEvents)} events</text>`,
			`<text x="${left + barWidth}" y="${y(0) + 36}" text-anchor="middle" fill="#555">${fmt(row.staticDataBytes / 1e6, 2)} MB static data</text>`,
		);
	});
	parts.push('</svg>');
	return parts.join('\n');
}

export const webhookScale: Scenario = {
	id: 11,
	title: 'Webhook trigger at scale: events already in the repeat window',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const { windows, warmBatches, coldBatches } = plan(smoke);
		const rows: ScaleRow[] = [];
		const load: number[] = [];
		for (const windowEvents of windows) {
			log(`  ${int(windowEvents)} events in the window…`);
			load.push(loadavg()[0]);
			rows.push(await measure(windowEvents, warmBatches, coldBatches));
			load.push(loadavg()[0]);
		}
		const first = rows[0];
		const last = rows[rows.length - 1];
		const growth = (row: ScaleRow) => row.cpuUsPerEvent / first.cpuUsPerEvent;
		const growthCold = (row: ScaleRow) => row.cpuUsPerEventCold / first.cpuUsPerEventCold;
		return {
			id: 11,
			title: 'Webhook trigger at scale: events already in the repeat window',
			setup: [
				`The Messaging Email Trigger through the harness (test/harness/webhook-harness.ts: n8n-core's WebhookContext and ExecuteContext over real HTTP on 127.0.0.1), not a real n8n. n8n's database is done as n8n does it: every request parses the workflow's static data from stored JSON, and the request with its run serialises it back (the database write itself not counted).`,
				`The window filled by the node's own memory with ${windows.map(int).join(' / ')} events spread evenly over the past 24 hours (random 72-bit keys, a minute of arrival at a time); the memory keeps at most ${int(MAX_REMEMBERED_KEYS)} keys.`,
				`Warm: ${warmBatches} batches of ${BATCH} new events in the process that filled the window (after one batch not counted). Cold: ${coldBatches} batches, each in a process that knows nothing (what n8n does after a restart, or a second webhook processor, reading the store first).`,
				`CPU = user + system time of the bench process (node, harness and the HTTP client) per event; p95 = the 95th percentile of a batch's POST until its answer and run. The machine is shared (2 cores, other sessions' work): load average ${fmt(Math.min(...load), 1)}–${fmt(Math.max(...load), 1)} during the run.`,
			],
			tables: [
				{
					headers: [
						'Events in the window',
						'Static data',
						'p95 per batch (warm / cold)',
						'CPU µs per event, warm',
						'cold',
						'÷ smallest window (warm / cold)',
					],
					rows: rows.map((row) => [
						int(row.windowEvents),
						`${fmt(row.staticDataBytes / 1e6, 2)} MB`,
						`${int(row.p95BatchMs)} / ${int(row.p95BatchMsCold)} ms`,
						int(row.cpuUsPerEvent),
						int(row.cpuUsPerEventCold),
						`${fmt(growth(row), 2)} / ${fmt(growthCold(row), 2)}`,
					]),
				},
			],
			findings: [
				`At ${int(last.windowEvents)} events in the window a batch of ${BATCH} costs ${int(last.cpuUsPerEvent)} µs of CPU per event warm and ${int(last.cpuUsPerEventCold)} µs cold, ${fmt(growth(last), 2)}× and ${fmt(growthCold(last), 2)}× the cost at ${int(first.windowEvents)} (goal ≤ 1.5×); p95 ${int(last.p95BatchMs)} ms warm, ${int(last.p95BatchMsCold)} ms cold (goal ≤ 1,000 ms). The static data stops growing at ${int(MAX_REMEMBERED_KEYS)} keys (${fmt(last.staticDataBytes / 1e6, 2)} MB).`,
			],
			files: { 'webhook-scale.svg': `${scaleChart(rows)}\n` },
			headlineKey: 'scale.webhook',
			headline: rows,
			// Nothing to set beside n8n's HTTP Request node (the summary table's columns).
			summary: [],
			checks: [
				['every window size measured', rows.length === windows.length],
				[
					'the static data is bounded',
					last.staticDataBytes < (MAX_REMEMBERED_KEYS + 2 * BATCH) * (KEY_LENGTH + 1),
				],
			],
		};
	},
};
