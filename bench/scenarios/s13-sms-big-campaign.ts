/**
 * 13. SMS delivery statuses of one big campaign: the Messaging SMS Trigger following a campaign of 1,000 / 10,000 /
 * 100,000 phones until every phone is final, a tenth of the phones reaching Sent and the tenth before it their
 * final status between two polls. Per poll: requests, CPU, static data, peak memory, against the phones still
 * unsettled. Beside it, what any poller pays for the same read (the DIY Schedule + HTTP Request reading the
 * campaign): one GET of the campaign's details and its JSON parse, no n8n, no memory of what was emitted.
 *
 * In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts); the
 * sandbox runs in the same process, so every CPU figure includes the sandbox building the campaign's details.
 */
import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import { PollHarness } from '../../test/harness/poll-harness';
import { MB, loadTracker, measured } from '../lib/measure';
import { fmt, int, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

/** Tenths of the campaign: each poll sees one tenth reach Sent and the tenth before it reach a final status. */
const SLICES = 10;

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
	const control = path.startsWith('/__sandbox');
	const send = () =>
		fetch(`${sandbox.url}${path}`, {
			method,
			headers: {
				'Content-Type': 'application/json',
				...(control ? {} : { Authorization: `Bearer ${sandbox.account.apiKey}` }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	// A kept-alive connection the sandbox closed while a poll ran fails once: these calls are safe to repeat.
	const response = await send().catch(() => send());
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
	return text;
}

const phoneAt = (index: number) => `3806${String(10_000_000 + index).padStart(8, '0')}`;

export interface BigCampaignPoll {
	poll: number;
	unsettledBefore: number;
	emitted: number;
	requests: number;
	cpuMs: number;
	wallMs: number;
	staticDataBytes: number;
	peakGrowthMb: number;
}

async function follow(sandbox: Sandbox, phones: number, log: (line: string) => void) {
	const harness = new PollHarness({
		nodeType: new MessagingSmsTrigger(),
		parameters: {
			events: ['smsSent', 'smsDelivered', 'smsNotDelivered'],
			options: { maxEventsPerPoll: 2 * phones + 100 },
		},
		credentials: new CredentialStore(sandboxCredentials(sandbox)),
	});
	const activation = await harness.activate();
	if (activation.error) throw activation.error;
	await sleep(1100); // the campaign is created after the activation second: all its statuses are news
	const numbers = Array.from({ length: phones }, (_, index) => phoneAt(index));
	const created = JSON.parse(
		await call(sandbox, 'POST', '/sms/send', {
			sender: 'Sandbox',
			phones: numbers,
			body: 'Big campaign',
		}),
	) as { campaign_id: number };
	const id = created.campaign_id;
	const setStatuses = async (from: number, to: number, status: (index: number) => number) => {
		if (from >= to) return;
		const statuses: Record<string, number> = {};
		for (let index = from; index < to; index++) statuses[numbers[index]] = status(index);
		await call(sandbox, 'PATCH', `/__sandbox/sms/campaigns/${id}/phones`, { statuses });
	};
	// Every phone waits at Ready to send until its tenth comes.
	await setStatuses(0, phones, () => 0);
	const slice = (k: number) => [
		Math.round((k * phones) / SLICES),
		Math.round(((k + 1) * phones) / SLICES),
	];
	const rows: BigCampaignPoll[] = [];
	const seen = new Set<string>();
	let emitted = 0;
	let settled = 0;
	for (let round = 0; round <= SLICES + 1; round++) {
		if (round < SLICES) await setStatuses(...(slice(round) as [number, number]), () => 1);
		if (round >= 1 && round <= SLICES) {
			const [from, to] = slice(round - 1);
			// One phone in 50 is not delivered (status 12), the rest delivered (2).
			await setStatuses(from, to, (index) => (index % 50 === 7 ? 12 : 2));
			settled = to;
		}
		const unsettledBefore = phones - settled;
		const since = sandbox.log.lastSeq();
		const poll = await measured(() => harness.poll());
		if (poll.value.error) throw poll.value.error;
		for (const item of poll.value.items)
			seen.add(`${String(item.json.event)}|${String(item.json.phone)}`);
		emitted += poll.value.items.length;
		const requests = sandbox.log
			.since(since)
			.filter((entry) => entry.path !== '/oauth/access_token').length;
		rows.push({
			poll: round + 1,
			unsettledBefore,
			emitted: poll.value.items.length,
			requests,
			cpuMs: poll.cpuMs,
			wallMs: poll.wallMs,
			staticDataBytes: harness.storedBytes(),
			peakGrowthMb: poll.peakGrowth / MB,
		});
		log(
			`    poll ${round + 1}: ${int(unsettledBefore)} unsettled, ${int(poll.value.items.length)} statuses, ${requests} requests, ${fmt(poll.cpuMs, 0)} ms CPU, ${int(harness.storedBytes())} bytes`,
		);
	}
	// What any poller pays for the same read: one GET of the details and its parse (sandbox included).
	const raw = await measured(async () => {
		const text = await call(sandbox, 'GET', `/sms/campaigns/info/${id}`);
		return (JSON.parse(text) as unknown[]).length + text.length;
	});
	await call(sandbox, 'DELETE', '/sms/campaigns', { id });
	return { rows, emitted, unique: seen.size, rawReadCpuMs: raw.cpuMs, rawReadBytes: raw.value };
}

export const smsBigCampaign: Scenario = {
	id: 13,
	title: 'SMS delivery statuses of a big campaign',
	phase: 'inProcess',
	async run({ sandbox, smoke, log }): Promise<ScenarioResult> {
		const sizes = smoke ? [500] : [1_000, 10_000, 100_000];
		const load = loadTracker();
		const limitBefore = sandbox.account.settings.rateLimitPerSecond;
		sandbox.account.settings.rateLimitPerSecond = 0;
		const runs = [];
		// Sent at once and listed with its phones at once (the service holds a campaign for moderation first).
		const smsSettings = (
			JSON.parse(await call(sandbox, 'GET', '/__sandbox/sms/state')) as {
				settings: { moderationDelaySeconds: number; formingSeconds: number };
			}
		).settings;
		const { moderationDelaySeconds, formingSeconds } = smsSettings;
		await call(sandbox, 'PATCH', '/__sandbox/sms/settings', {
			moderationDelaySeconds: 0,
			formingSeconds: 0,
		});
		try {
			for (const phones of sizes) {
				log(`  one campaign of ${int(phones)} phones…`);
				sandbox.log.clear();
				load.note();
				runs.push({ phones, ...(await follow(sandbox, phones, log)) });
				load.note();
			}
		} finally {
			sandbox.account.settings.rateLimitPerSecond = limitBefore;
			await call(sandbox, 'PATCH', '/__sandbox/sms/settings', {
				moderationDelaySeconds,
				formingSeconds,
			});
		}
		const summaries = runs.map((run) => {
			const working = run.rows.filter((row) => row.emitted > 0);
			const cpuMs = run.rows.reduce((sum, row) => sum + row.cpuMs, 0);
			return {
				phones: run.phones,
				polls: run.rows.length,
				statuses: run.emitted,
				requests: run.rows.reduce((sum, row) => sum + row.requests, 0),
				cpuUsPerStatus: Math.round((cpuMs * 1000) / Math.max(1, run.emitted)),
				cpuMsPerPollMax: Math.round(Math.max(...working.map((row) => row.cpuMs))),
				cpuMsLastPoll: Math.round(run.rows[run.rows.length - 1].cpuMs),
				rawReadCpuMs: Math.round(run.rawReadCpuMs),
				staticDataBytesMax: Math.max(...run.rows.map((row) => row.staticDataBytes)),
				staticDataBytesEnd: run.rows[run.rows.length - 1].staticDataBytes,
				peakGrowthMbMax: Math.round(Math.max(...run.rows.map((row) => row.peakGrowthMb))),
			};
		});
		const biggest = runs[runs.length - 1];
		const big = summaries[summaries.length - 1];
		const small = summaries[0];
		return {
			id: 13,
			title: 'SMS delivery statuses of a big campaign',
			setup: [
				`One campaign of ${sizes.map(int).join(' / ')} phones (Send to Numbers through the sandbox's API), created after the Messaging SMS Trigger (Sent, Delivered, Not Delivered; Max Events per Poll above the campaign's statuses) was activated. Before each poll a tenth of the phones reaches Sent and the tenth before it its final status (one in 50 Not delivered), so the phones still unsettled fall by a tenth a poll; ${SLICES + 2} polls until one finds the campaign finished.`,
				"In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts), static data kept between polls as n8n keeps it. The sandbox (rate limit off) runs in the same process: CPU = user + system time of the bench process during the poll, the sandbox building the campaign's details included. Peak memory = the highest resident memory sampled every 5 ms during the poll, over the resident memory before it.",
				`Beside it, the do-it-yourself poller (Schedule Trigger + HTTP Request) reads the same details every poll; its floor, measured here once per size: one GET of the details and its JSON parse, no n8n, nothing remembered (its own deduplication would come on top). The machine is shared (2 cores): load average ${load.range()} during the runs.`,
			],
			tables: [
				{
					headers: [
						'Phones',
						'Polls',
						'Statuses emitted',
						'Requests',
						'CPU µs per status',
						'CPU per poll, most / last (finished)',
						'Read + parse alone (DIY floor)',
						'Static data, most / at the end',
						'Peak memory growth of a poll',
					],
					rows: summaries.map((row) => [
						int(row.phones),
						int(row.polls),
						int(row.statuses),
						int(row.requests),
						int(row.cpuUsPerStatus),
						`${int(row.cpuMsPerPollMax)} / ${int(row.cpuMsLastPoll)} ms`,
						`${int(row.rawReadCpuMs)} ms`,
						`${int(row.staticDataBytesMax)} / ${int(row.staticDataBytesEnd)} bytes`,
						`${int(row.peakGrowthMbMax)} MB`,
					]),
				},
				{
					headers: [
						`Poll (${int(biggest.phones)} phones)`,
						'Unsettled before',
						'Statuses',
						'Requests',
						'CPU',
						'Wall',
						'Static data',
						'Peak growth',
					],
					rows: biggest.rows.map((row) => [
						String(row.poll),
						int(row.unsettledBefore),
						int(row.emitted),
						int(row.requests),
						`${int(row.cpuMs)} ms`,
						`${int(row.wallMs)} ms`,
						`${int(row.staticDataBytes)} bytes`,
						`${int(row.peakGrowthMb)} MB`,
					]),
				},
			],
			findings: [
				`${int(big.phones)} phones: ${int(big.statuses)} statuses in ${big.polls} polls and ${int(big.requests)} requests (the campaign list and one read of the campaign per poll), ${int(big.cpuUsPerStatus)} µs of CPU per status (${int(small.cpuUsPerStatus)} µs at ${int(small.phones)} phones); static data at most ${int(big.staticDataBytesMax)} bytes (one byte per phone while the campaign delivers), ${int(big.staticDataBytesEnd)} once it is finished.`,
				`CPU per poll does not fall with the phones still unsettled (each poll here also emits a fifth of the phones' statuses): every poll reads, parses and sorts the whole campaign, because the service answers a campaign's details whole (no paging, no filter by status), and the static data keeps one byte per phone of the campaign until every phone is final. Reading and parsing the details alone costs ${int(big.rawReadCpuMs)} ms at ${int(big.phones)} phones (what a do-it-yourself poller pays too, every poll, before its own deduplication); the trigger's most expensive poll ${int(big.cpuMsPerPollMax)} ms. Once every phone is final the campaign is not read again: the last poll costs ${int(big.cpuMsLastPoll)} ms.`,
			],
			headlineKey: 'scale.smsBigCampaign',
			headline: { sizes: summaries, loadAverage: load.range() },
			summary: [],
			checks: [
				[
					'every status emitted exactly once',
					runs.every((run) => run.emitted === 2 * run.phones && run.unique === 2 * run.phones),
				],
				[
					'a finished campaign is not read again (the last poll: the campaign list only)',
					runs.every((run) => run.rows[run.rows.length - 1].requests <= 1),
				],
			],
		};
	},
};
