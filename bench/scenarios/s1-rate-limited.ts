/**
 * 1. Rate-limited sending: the sandbox enforces 10 requests/second; N emails through Messaging Email → Send and
 * through the HTTP Request node (defaults, then batching tuned to 10 per second). Both in the same n8n server,
 * triggered by webhook, one after the other.
 */
import { throughputChart } from '../lib/chart';
import { fmt, int, ratio, recipientOf, seconds, sleep, summarise } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import {
	emailItems,
	httpBatching,
	httpEmailSend,
	linearWorkflow,
	oursEmailSend,
	workflowId,
} from '../lib/workflows';

const LIMIT = 10;
const count = (smoke: boolean) => (smoke ? 15 : 600);

const sides = [
	{
		key: 'ours',
		label: 'Messaging Email → Send (defaults)',
		workflow: (_url: string, n: number) => [emailItems(n), oursEmailSend('main')],
	},
	{
		key: 'httpDefault',
		label: 'HTTP Request (default options)',
		workflow: (url: string, n: number) => [emailItems(n), httpEmailSend(url, 'main')],
	},
	{
		key: 'httpTuned',
		label: 'HTTP Request (batching: 10 items / 1,000 ms)',
		workflow: (url: string, n: number) => [
			emailItems(n),
			httpEmailSend(url, 'main', httpBatching(10, 1000)),
		],
	},
] as const;

export const rateLimited: Scenario = {
	id: 1,
	title: 'Rate-limited sending',
	phase: 'server',
	prepare: ({ sandbox, smoke }) => ({
		credentials: ['main'],
		workflows: sides.map((side) =>
			linearWorkflow(
				`s1${side.key}`,
				`Bench 1 ${side.label}`,
				{ webhookPath: `bench-s1-${side.key}` },
				[...side.workflow(sandbox.url, count(smoke))],
			),
		),
		webhooks: sides.map((side) => `s1${side.key}`),
	}),
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const n = count(smoke);
		sandbox.account.settings.rateLimitPerSecond = LIMIT;
		const rows: string[][] = [];
		const series: Array<{ label: string; times: number[] }> = [];
		const figures: Record<
			string,
			{
				wallMs?: number;
				perSecond?: number;
				failed: number;
				limited: number;
				dupes: number;
				delivered: number;
			}
		> = {};
		for (const side of sides) {
			await sleep(1500); // let the sandbox's one-second window empty
			sandbox.log.clear();
			log(`  ${side.label}: ${n} emails…`);
			const outcome = await n8n!.runWebhook(`bench-s1-${side.key}`, workflowId(`s1${side.key}`));
			const entries = sandbox.log.all();
			const stats = summarise(entries, '/smtp/emails', recipientOf);
			const failed =
				outcome.send.items.filter((item) => item.json.error !== undefined).length +
				Math.max(0, n - outcome.send.items.length);
			const perSecond = stats.acceptedPerSecond;
			figures[side.key] = {
				wallMs: outcome.send.executionTime,
				perSecond,
				failed,
				limited: stats.rateLimited,
				dupes: stats.duplicates,
				delivered: stats.accepted,
			};
			series.push({
				label: side.label,
				times: entries
					.filter((entry) => entry.path === '/smtp/emails' && entry.status === 200)
					.map((entry) => entry.receivedAt),
			});
			rows.push([
				side.label,
				seconds(outcome.send.executionTime),
				`${int(stats.accepted)} / ${int(n)}`,
				perSecond === undefined
					? '–'
					: `${fmt(perSecond, 2)} (${fmt((perSecond / LIMIT) * 100, 0)}%)`,
				int(failed),
				int(stats.rateLimited),
				int(stats.duplicates),
				int(stats.tokenRequests),
			]);
		}
		const ours = figures.ours;
		const tuned = figures.httpTuned;
		const plain = figures.httpDefault;
		return {
			id: 1,
			title: 'Rate-limited sending',
			headline: {
				shareOfLimit: Number(((ours.perSecond ?? 0) / LIMIT).toFixed(3)),
				failed: ours.failed,
				duplicates: ours.dupes,
			},
			setup: [
				`Sandbox enforcing ${LIMIT} requests/second (sliding one-second window, 429 + error code 2020202020 above it); ${int(n)} emails, each a unique recipient, HTML mapped from the item.`,
				'Each side is one webhook-triggered execution in the same `n8n start` server: Webhook → Code (makes the items) → the sending node, with the node setting *On Error: Continue* so failed items are counted instead of stopping the run at the first one.',
				"HTTP Request 4.5 with the package's credential as *predefined credential type* (n8n does the token exchange) and the JSON body by expression (`$json.html.base64Encode()`); the tuned row uses its *Batching* option: 10 items per batch, 1,000 ms between batches.",
				"Wall time = the sending node's execution time (n8n run data). Achieved rate = accepted sends between the first and the last accepted one (sandbox log `receivedAt`). Delivered twice = recipients the sandbox accepted more than once.",
			],
			tables: [
				{
					headers: [
						'Side',
						'Wall time',
						'Delivered',
						'Achieved req/s (of 10/s)',
						'Items failed',
						'429s received',
						'Delivered twice',
						'Token requests',
					],
					rows,
				},
			],
			findings: [
				`Messaging Email sent all ${int(ours.delivered)} at ${fmt(ours.perSecond, 2)}/s (${fmt(((ours.perSecond ?? 0) / LIMIT) * 100, 0)}% of the limit; target ≥ 95%: ${(ours.perSecond ?? 0) >= 0.95 * LIMIT ? 'met' : '**not met**'}) with ${int(ours.failed)} failed items, ${int(ours.limited)} 429s (repeated by the node) and ${int(ours.dupes)} duplicates. Its pacer spaces starts evenly at 10 per 1.01–1.02 s; a 429 met while this execution alone held the limit widens that window a little, and the request goes again at the pacer's next start (no sleep of its own).`,
				`The HTTP Request node with default options fires every item at once: ${int(plain.delivered)} delivered, ${int(plain.failed)} items failed with 429 (without *On Error: Continue* the whole execution stops at the first one).`,
				`Tuned batching delivered ${int(tuned.delivered)} with ${int(tuned.limited)} 429s at ${fmt(tuned.perSecond, 2)}/s; it took ${ratio(ours.wallMs, tuned.wallMs, 2)} the time of Messaging Email. Finding the right batch settings is up to the user, and they hold only while nothing else uses the account.`,
				"Why the HTTP Request node made token requests although the credential held a valid token: n8n's `requestWithAuthentication` (the helper the HTTP Request node uses with a predefined credential type) runs the credential's token exchange again after *any* failed request and repeats the request once. Every 429 therefore cost a new token and a second request — and a send that fails with a 5xx or a timeout after the service accepted it is repeated too. Messaging Email uses `httpRequestWithAuthentication`, which refreshes only after a 401, and never repeats a send after a 5xx or timeout.",
			],
			summary: [
				[
					`1. ${int(n)} emails at a 10/s limit: wall time`,
					seconds(ours.wallMs),
					seconds(tuned.wallMs) + ' (batching tuned)',
					ratio(ours.wallMs, tuned.wallMs, 2),
				],
				['1. … items failed (HTTP Request defaults)', int(ours.failed), int(plain.failed), '–'],
			],
			files: { 'throughput.svg': throughputChart(series, LIMIT) },
			checks: [
				['ours delivered every email', ours.delivered === n && ours.failed === 0],
				['ours had no duplicates', ours.dupes === 0],
				[
					'HTTP Request requests reached the sandbox',
					plain.delivered + plain.limited > 0 && tuned.delivered > 0,
				],
			],
		};
	},
};
