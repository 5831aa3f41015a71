/**
 * 13. SMS delivery statuses of big campaigns: the Messaging SMS Trigger following one campaign of 1,000 / 10,000 /
 * 100,000 phones, and ten campaigns of 10,000 at once, until every phone is final, a tenth of each campaign's phones
 * reaching Sent and the tenth before it their final status between two polls. Per poll: requests, CPU, static data,
 * peak memory, against the phones still unsettled. Beside it, per size: what any poller pays for the same read (the
 * DIY Schedule + HTTP Request reading the campaigns: each campaign's details GET and JSON-parsed, no n8n, no memory
 * of what was emitted), and what the trigger's own bookkeeping of one campaign's phones costs (sorting them,
 * their digest, their levels) run alone on the parsed details.
 *
 * In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts); the
 * sandbox runs in a child process (bench/lib/child-sandbox.ts), so the CPU and memory figures are the trigger's and
 * n8n-core's alone.
 */
import type { IDataObject } from 'n8n-workflow';

import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import { sortedPhones, stepsTo } from '../../nodes/shared/polling/sms/events';
import { LEVEL, phoneListDigest } from '../../nodes/shared/polling/sms/state';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import { PollHarness } from '../../test/harness/poll-harness';
import { startChildSandbox, type ChildSandbox } from '../lib/child-sandbox';
import { MB, collectGarbage, loadTracker, measured } from '../lib/measure';
import { fmt, int, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

/** Tenths of the campaign: each poll sees one tenth reach Sent and the tenth before it reach a final status. */
const SLICES = 10;

/** The floor and the bookkeeping are each measured this many times; the median is shown. */
const FLOOR_RUNS = 5;

/** The median CPU (ms) of `runs` runs of `work`. */
async function medianOf(runs: number, work: () => Promise<unknown>): Promise<number> {
	const cpu: number[] = [];
	for (let run = 0; run < runs; run++) {
		// Garbage left by the polls would otherwise be collected during (and charged to) the run.
		collectGarbage();
		cpu.push((await measured(work)).cpuMs);
	}
	return median(cpu);
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

async function follow(
	sandbox: ChildSandbox,
	campaigns: number,
	phones: number,
	log: (line: string) => void,
	/** A full garbage collection before each poll, so its peak memory is its own (off in a smoke run: seconds). */
	collectBetweenPolls: boolean,
) {
	const harness = new PollHarness({
		nodeType: new MessagingSmsTrigger(),
		parameters: {
			events: ['smsSent', 'smsDelivered', 'smsNotDelivered'],
			options: { maxEventsPerPoll: 2 * campaigns * phones + 100 },
		},
		credentials: new CredentialStore(sandboxCredentials(sandbox)),
	});
	const activation = await harness.activate();
	if (activation.error) throw activation.error;
	await sleep(1100); // the campaigns are created after the activation second: all their statuses are news
	const created: Array<{ id: number; numbers: string[] }> = [];
	for (let campaign = 0; campaign < campaigns; campaign++) {
		const numbers = Array.from({ length: phones }, (_, index) =>
			phoneAt(campaign * phones + index),
		);
		const answer = JSON.parse(
			await sandbox.call('POST', '/sms/send', {
				sender: 'Sandbox',
				phones: numbers,
				body: 'Big campaign',
			}),
		) as { campaign_id: number };
		created.push({ id: answer.campaign_id, numbers });
	}
	const setStatuses = async (from: number, to: number, status: (index: number) => number) => {
		if (from >= to) return;
		for (const { id, numbers } of created) {
			const statuses: Record<string, number> = {};
			for (let index = from; index < to; index++) statuses[numbers[index]] = status(index);
			await sandbox.call('PATCH', `/__sandbox/sms/campaigns/${id}/phones`, { statuses });
		}
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
	let seq = (await sandbox.requestsSince(0)).last;
	for (let round = 0; round <= SLICES + 1; round++) {
		if (round < SLICES) await setStatuses(...(slice(round) as [number, number]), () => 1);
		if (round >= 1 && round <= SLICES) {
			const [from, to] = slice(round - 1);
			// One phone in 50 is not delivered (status 12), the rest delivered (2).
			await setStatuses(from, to, (index) => (index % 50 === 7 ? 12 : 2));
			settled = to;
		}
		const unsettledBefore = campaigns * (phones - settled);
		seq = (await sandbox.requestsSince(seq)).last;
		if (collectBetweenPolls) collectGarbage();
		const poll = await measured(() => harness.poll());
		if (poll.value.error) throw poll.value.error;
		for (const item of poll.value.items)
			seen.add(`${String(item.json.event)}|${String(item.json.phone)}`);
		emitted += poll.value.items.length;
		const logged = await sandbox.requestsSince(seq);
		seq = logged.last;
		rows.push({
			poll: round + 1,
			unsettledBefore,
			emitted: poll.value.items.length,
			requests: logged.count,
			cpuMs: poll.cpuMs,
			wallMs: poll.wallMs,
			staticDataBytes: harness.storedBytes(),
			peakGrowthMb: poll.peakGrowth / MB,
		});
		log(
			`    poll ${round + 1}: ${int(unsettledBefore)} unsettled, ${int(poll.value.items.length)} statuses, ${logged.count} requests, ${fmt(poll.cpuMs, 0)} ms CPU, ${int(harness.storedBytes())} bytes`,
		);
	}
	// What any poller pays for the same read: each campaign's details GET and parsed, in this process.
	const raw = await medianOf(FLOOR_RUNS, async () => {
		let bytes = 0;
		for (const { id } of created) {
			const text = await sandbox.call('GET', `/sms/campaigns/info/${id}`);
			bytes += (JSON.parse(text) as unknown[]).length + text.length;
		}
		return bytes;
	});
	// The trigger's own bookkeeping of one campaign's phones, alone: sorted, digested, each level stepped (from Sent).
	const detail = (
		JSON.parse(await sandbox.call('GET', `/sms/campaigns/info/${created[0].id}`)) as Array<{
			data: IDataObject;
		}>
	)[0].data;
	const bookkeeping = await medianOf(FLOOR_RUNS, async () => {
		const sorted = sortedPhones(detail);
		const digest = phoneListDigest(sorted.map((phone) => phone.phone));
		const levels: string[] = sorted.map(() => LEVEL.sent);
		for (const [index, phone] of sorted.entries())
			for (const step of stepsTo(levels[index], phone)) levels[index] = step.level;
		return digest.length + levels.join('').length;
	});
	for (const { id } of created) await sandbox.call('DELETE', '/sms/campaigns', { id });
	return {
		rows,
		emitted,
		unique: seen.size,
		rawReadCpuMs: raw,
		bookkeepingCpuMs: bookkeeping * campaigns,
	};
}

interface Size {
	campaigns: number;
	phones: number;
}

const sizeLabel = ({ campaigns, phones }: Size) =>
	campaigns === 1 ? `1 × ${int(phones)}` : `${campaigns} × ${int(phones)}`;

export const smsBigCampaign: Scenario = {
	id: 13,
	title: 'SMS delivery statuses of big campaigns',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const sizes: Size[] = smoke
			? [
					{ campaigns: 1, phones: 500 },
					{ campaigns: 2, phones: 100 },
				]
			: [
					{ campaigns: 1, phones: 1_000 },
					{ campaigns: 1, phones: 10_000 },
					{ campaigns: 1, phones: 100_000 },
					{ campaigns: 10, phones: 10_000 },
				];
		const load = loadTracker();
		const sandbox = await startChildSandbox();
		const runs: Array<Size & Awaited<ReturnType<typeof follow>>> = [];
		try {
			// Sent at once and listed with its phones at once (the service holds a campaign for moderation first).
			await sandbox.call('PATCH', '/__sandbox/sms/settings', {
				moderationDelaySeconds: 0,
				formingSeconds: 0,
			});
			for (const size of sizes) {
				log(
					`  ${size.campaigns === 1 ? 'one campaign' : `${size.campaigns} campaigns`} of ${int(size.phones)} phones…`,
				);
				load.note();
				runs.push({
					...size,
					...(await follow(sandbox, size.campaigns, size.phones, log, !smoke)),
				});
				load.note();
			}
		} finally {
			await sandbox.stop();
		}
		const summaries = runs.map((run) => {
			const working = run.rows.filter((row) => row.emitted > 0);
			const cpuMs = run.rows.reduce((sum, row) => sum + row.cpuMs, 0);
			return {
				campaigns: run.campaigns,
				phones: run.phones,
				polls: run.rows.length,
				statuses: run.emitted,
				requests: run.rows.reduce((sum, row) => sum + row.requests, 0),
				cpuUsPerStatus: Math.round((cpuMs * 1000) / Math.max(1, run.emitted)),
				cpuMsPerPollMax: Math.round(Math.max(...working.map((row) => row.cpuMs))),
				cpuMsPerPollMedian: Math.round(median(working.map((row) => row.cpuMs))),
				cpuMsLastPoll: Math.round(run.rows[run.rows.length - 1].cpuMs),
				rawReadCpuMs: Math.round(run.rawReadCpuMs),
				bookkeepingCpuMs: Math.round(run.bookkeepingCpuMs),
				staticDataBytesMax: Math.max(...run.rows.map((row) => row.staticDataBytes)),
				staticDataBytesEnd: run.rows[run.rows.length - 1].staticDataBytes,
				peakGrowthMbMax: Math.round(Math.max(...run.rows.map((row) => row.peakGrowthMb))),
			};
		});
		const perPoll = (run: (typeof runs)[number]) => ({
			headers: [
				`Poll (${sizeLabel(run)} phones)`,
				'Unsettled before',
				'Statuses',
				'Requests',
				'CPU',
				'Wall',
				'Static data',
				'Peak growth',
			],
			rows: run.rows.map((row) => [
				String(row.poll),
				int(row.unsettledBefore),
				int(row.emitted),
				int(row.requests),
				`${int(row.cpuMs)} ms`,
				`${int(row.wallMs)} ms`,
				`${int(row.staticDataBytes)} bytes`,
				`${int(row.peakGrowthMb)} MB`,
			]),
		});
		const single = runs.filter((run) => run.campaigns === 1);
		const biggest = single[single.length - 1];
		const ten = runs.find((run) => run.campaigns > 1);
		const big = summaries[runs.indexOf(biggest)];
		const small = summaries[0];
		const many = ten ? summaries[runs.indexOf(ten)] : undefined;
		return {
			id: 13,
			title: 'SMS delivery statuses of big campaigns',
			setup: [
				`One campaign of ${single.map((run) => int(run.phones)).join(' / ')} phones${ten ? `, and ${ten.campaigns} campaigns of ${int(ten.phones)} at once` : ''} (Send to Numbers through the sandbox's API), created after the Messaging SMS Trigger (Sent, Delivered, Not Delivered; Max Events per Poll above the campaigns' statuses) was activated. Before each poll a tenth of each campaign's phones reaches Sent and the tenth before it its final status (one in 50 Not delivered), so the phones still unsettled fall by a tenth a poll; ${SLICES + 2} polls until one finds the campaigns finished.`,
				"In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts), static data kept between polls as n8n keeps it. The sandbox (rate limit off) runs in a child process: CPU = user + system time of the bench process during the poll, the trigger and n8n-core only. Peak memory = the highest resident memory sampled every 5 ms during the poll, over the resident memory before it (garbage collected before each poll).",
				`Beside it, per size: the do-it-yourself poller (Schedule Trigger + HTTP Request) reads the same details every poll; its floor: each campaign's details GET and JSON-parsed in the bench process, no n8n, nothing remembered (its own deduplication would come on top). And the trigger's own bookkeeping of the phones alone (sorting them, their digest, one level step each; the built code run on the parsed details of one campaign, times the campaigns). Both after the polls, the median of ${FLOOR_RUNS} runs, garbage collected before each. The machine is shared (2 cores): load average ${load.range()} during the runs.`,
			],
			tables: [
				{
					headers: [
						'Campaigns × phones',
						'Polls',
						'Statuses emitted',
						'Requests',
						'CPU µs per status',
						'CPU per poll, most / median / last (finished)',
						'Read + parse alone (DIY floor)',
						'Bookkeeping alone',
						'Static data, most / at the end',
						'Peak memory growth of a poll',
					],
					rows: summaries.map((row) => [
						sizeLabel(row),
						int(row.polls),
						int(row.statuses),
						int(row.requests),
						int(row.cpuUsPerStatus),
						`${int(row.cpuMsPerPollMax)} / ${int(row.cpuMsPerPollMedian)} / ${int(row.cpuMsLastPoll)} ms`,
						`${int(row.rawReadCpuMs)} ms`,
						`${int(row.bookkeepingCpuMs)} ms`,
						`${int(row.staticDataBytesMax)} / ${int(row.staticDataBytesEnd)} bytes`,
						`${int(row.peakGrowthMbMax)} MB`,
					]),
				},
				perPoll(biggest),
				...(ten ? [perPoll(ten)] : []),
			],
			findings: [
				`${int(big.phones)} phones: ${int(big.statuses)} statuses in ${big.polls} polls and ${int(big.requests)} requests (the campaign list and one read of the campaign per poll), ${int(big.cpuUsPerStatus)} µs of CPU per status (${int(small.cpuUsPerStatus)} µs at ${int(small.phones)} phones); CPU per poll ${int(big.cpuMsPerPollMedian)} ms (median; at most ${int(big.cpuMsPerPollMax)}), of which reading and parsing the details alone is ${int(big.rawReadCpuMs)} ms and the bookkeeping of the phones ${int(big.bookkeepingCpuMs)} ms; static data at most ${int(big.staticDataBytesMax)} bytes (one byte per phone while the campaign delivers), ${int(big.staticDataBytesEnd)} once it is finished. Once every phone is final the campaign is not read again: the last poll costs ${int(big.cpuMsLastPoll)} ms.`,
				...(many
					? [
							`${many.campaigns} campaigns of ${int(many.phones)} at once: ${int(many.statuses)} statuses in ${many.polls} polls and ${int(many.requests)} requests (the list and one read per campaign per poll), CPU per poll ${int(many.cpuMsPerPollMedian)} ms (median; at most ${int(many.cpuMsPerPollMax)}), read + parse alone ${int(many.rawReadCpuMs)} ms, bookkeeping ${int(many.bookkeepingCpuMs)} ms; static data at most ${int(many.staticDataBytesMax)} bytes, ${int(many.staticDataBytesEnd)} at the end; peak memory growth ${int(many.peakGrowthMbMax)} MB (${int(big.peakGrowthMbMax)} MB for one campaign of ${int(big.phones)}).`,
						]
					: []),
			],
			headlineKey: 'scale.smsBigCampaign',
			headline: { sizes: summaries, loadAverage: load.range() },
			summary: [],
			checks: [
				[
					'every status emitted exactly once',
					runs.every(
						(run) =>
							run.emitted === 2 * run.campaigns * run.phones &&
							run.unique === 2 * run.campaigns * run.phones,
					),
				],
				[
					'finished campaigns are not read again (the last poll: the campaign list only)',
					runs.every((run) => run.rows[run.rows.length - 1].requests <= 1),
				],
				[
					'one read per campaign still delivering per poll, and the list',
					runs.every((run) => run.rows[0].requests === run.campaigns + 1),
				],
			],
		};
	},
};

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
