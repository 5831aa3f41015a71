/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * 3. Bulk list load: phones, one per item, into a mailing list. Messaging SMS → Phone Number → Add with 100,000
 * items (it combines them, 1,000 per request); the HTTP Request node, one request per item, with 10,000 items
 * (extrapolated). Each run is its own `n8n execute` process, so its peak memory is the run's own.
 */
import { readdirSync, readFileSync } from 'node:fs';

import type { RunOutcome } from '../lib/n8n';
import { fmt, int, mb, median, processRssKb, ratio, seconds, summarise } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import {
	aggregatePhones,
	httpPhoneAdd,
	isolatedWorkflow,
	oursPhoneAdd,
	phoneItems,
	workflowId,
} from '../lib/workflows';

/** The `n8n execute` process of one workflow (same pid before and after with-node24.sh's exec). */
function executeProcess(id: string): number | undefined {
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(`\0execute\0--id=${id}\0`))
				return Number(entry);
		} catch {
			// gone meanwhile
		}
	}
	return undefined;
}

/**
 * Resident memory of that process every 20 ms, so the peak can be split: while the workflow runs, and after it
 * (n8n saving the run to its database and printing it as JSON, which `n8n execute` does before it exits).
 */
function sampleExecute(id: string) {
	const samples: Array<[number, number]> = [];
	let pid: number | undefined;
	const timer = setInterval(() => {
		try {
			pid ??= executeProcess(id);
			if (pid) samples.push([Date.now(), processRssKb(pid)]);
		} catch {
			// exited
		}
	}, 20);
	return { samples, stop: () => clearInterval(timer) };
}

const difference = (a: number | undefined, b: number | undefined) =>
	a === undefined || b === undefined ? undefined : a - b;

/** Highest sampled resident memory until the workflow's last node finished (kB). */
function peakWhileRunning(samples: Array<[number, number]>, outcome: RunOutcome) {
	const ends = Object.values(outcome.nodes)
		.filter((node) => node.startTime !== undefined && node.executionTime !== undefined)
		.map((node) => node.startTime! + node.executionTime!);
	if (!ends.length || !samples.length) return undefined;
	const end = Math.max(...ends);
	const during = samples.filter(([at]) => at <= end).map(([, kb]) => kb);
	return during.length ? Math.max(...during) : undefined;
}

const counts = (smoke: boolean) => ({ ours: smoke ? 2500 : 100_000, http: smoke ? 250 : 10_000 });
/** Alternating items-only / Messaging SMS runs in the full bench (memory = the median run's). */
const repeatsOf = (smoke: boolean) => (smoke ? 1 : 3);
const OURS_LIST = 301;
const HTTP_LIST = 302;

export const bulkList: Scenario = {
	id: 3,
	title: 'Bulk list load',
	phase: 'execute',
	prepare: ({ sandbox, smoke }) => {
		const n = counts(smoke);
		const workflows = [
			isolatedWorkflow('s3ours', 'Bench 3 Messaging SMS', smoke, [
				phoneItems(n.ours),
				oursPhoneAdd('main', OURS_LIST),
			]),
			isolatedWorkflow('s3http', 'Bench 3 HTTP Request', smoke, [
				phoneItems(n.http),
				httpPhoneAdd(sandbox.url, 'main', HTTP_LIST),
			]),
			isolatedWorkflow('s3itemsOurs', 'Bench 3 items only (ours)', smoke, [phoneItems(n.ours)]),
			isolatedWorkflow('s3aggregate', "Bench 3 n8n's Aggregate", smoke, [
				phoneItems(n.ours),
				aggregatePhones,
			]),
			isolatedWorkflow('s3itemsHttp', 'Bench 3 items only (http)', smoke, [phoneItems(n.http)]),
		];
		return {
			credentials: ['main'],
			workflows,
			webhooks: smoke ? ['s3ours', 's3http', 's3itemsOurs', 's3aggregate', 's3itemsHttp'] : [],
		};
	},
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const n = counts(smoke);
		const REPEATS = repeatsOf(smoke);
		sandbox.account.settings.rateLimitPerSecond = 0;
		const memoryLabel = smoke ? 'RSS growth (smoke: server)' : 'Peak memory (n8n process)';
		const run = async (label: string, what: string) => {
			sandbox.log.clear();
			log(`  ${what}…`);
			const sampler = smoke ? undefined : sampleExecute(workflowId(label));
			const outcome = await n8n!.runIsolated(label, smoke).finally(() => sampler?.stop());
			const whileRunningKb = sampler && peakWhileRunning(sampler.samples, outcome);
			const stats = summarise(sandbox.log.all(), '/sms/numbers');
			const phones = sandbox.log
				.all()
				.filter((entry) => entry.path === '/sms/numbers' && entry.status === 200)
				.reduce(
					(sum, entry) => sum + ((entry.body as { phones?: unknown[] }).phones?.length ?? 0),
					0,
				);
			const failed = outcome.send.items.filter((item) => item.json.error !== undefined).length;
			return { outcome, stats, phones, failed, whileRunningKb };
		};
		// One process's peak moves by tens of MB between identical runs (when V8 grows or returns its heap): the
		// items-only and Messaging SMS runs alternate, and their memory is the median of the runs.
		const itemsOursRuns: Array<Awaited<ReturnType<typeof run>>> = [];
		const oursRuns: typeof itemsOursRuns = [];
		const aggregateRuns: typeof itemsOursRuns = [];
		for (let repeat = 1; repeat <= REPEATS; repeat++) {
			const of = REPEATS > 1 ? ` (run ${repeat} of ${REPEATS})` : '';
			itemsOursRuns.push(
				await run('s3itemsOurs', `${n.ours} items, no send (n8n's own cost)${of}`),
			);
			aggregateRuns.push(
				await run('s3aggregate', `${n.ours} items into one list by n8n's Aggregate${of}`),
			);
			oursRuns.push(await run('s3ours', `Messaging SMS: ${n.ours} phones${of}`));
		}
		/** The run with the median peak memory (all its figures from that one run). */
		const medianRun = (runs: typeof oursRuns) =>
			runs.find(
				(entry) => entry.outcome.memoryKb === median(runs.map((of) => of.outcome.memoryKb)),
			)!;
		const itemsOurs = medianRun(itemsOursRuns);
		const ours = medianRun(oursRuns);
		const aggregate = medianRun(aggregateRuns);
		const growthRunsMb = oursRuns.map((entry, index) =>
			Math.round((entry.outcome.memoryKb - itemsOursRuns[index].outcome.memoryKb) / 1024),
		);
		/** "675–722 MB": every run's peak, when there were several. */
		const spread = (runs: typeof oursRuns) => {
			const peaks = runs.map((entry) => entry.outcome.memoryKb);
			return runs.length > 1 ? `${mb(Math.min(...peaks))}–${mb(Math.max(...peaks))}` : '';
		};
		const itemsHttp = await run('s3itemsHttp', `${n.http} items, no send`);
		const http = await run('s3http', `HTTP Request: ${n.http} phones, one request per item`);
		const factor = n.ours / n.http;
		const httpWallExtrapolated =
			http.outcome.send.executionTime === undefined
				? undefined
				: http.outcome.send.executionTime * factor;
		/** From the node's start to its first request: reading and validating the items. */
		const beforeFirst = (entry: typeof ours) =>
			entry.outcome.send.startTime !== undefined && entry.stats.firstAt !== undefined
				? entry.stats.firstAt - entry.outcome.send.startTime
				: undefined;
		const row = (
			label: string,
			items: number,
			entry: typeof ours,
			extra = '',
			runs: Array<typeof ours> = [entry],
		) => [
			label,
			int(items),
			int(entry.stats.requests),
			int(entry.phones),
			seconds(entry.outcome.send.executionTime),
			seconds(beforeFirst(entry)),
			runs.length > 1
				? `${mb(entry.outcome.memoryKb)} (median of ${runs.length}: ${spread(runs)})`
				: mb(entry.outcome.memoryKb),
			mb(entry.whileRunningKb),
			int(entry.failed),
			extra,
		];
		return {
			id: 3,
			title: 'Bulk list load',
			headline: {
				items: n.ours,
				msBeforeFirstRequest: beforeFirst(ours) ?? null,
				nodeMemoryGrowthMb: Math.round((ours.outcome.memoryKb - itemsOurs.outcome.memoryKb) / 1024),
				/** Each alternating pair's difference, in run order (the headline is median minus median). */
				nodeMemoryGrowthRunsMb: growthRunsMb,
				/** n8n's Aggregate node over the same items-only runs: the cost of an output of that volume in n8n. */
				aggregateMemoryGrowthMb: Math.round(
					(aggregate.outcome.memoryKb - itemsOurs.outcome.memoryKb) / 1024,
				),
				requests: ours.stats.requests,
			},
			setup: [
				`${int(n.ours)} phones, one per item, into one mailing list with Messaging SMS → Phone Number → Add (default batching: combine items, 1,000 phones per request); the HTTP Request node (\`POST /sms/numbers\` with \`{addressBookId, phones:[$json.phone]}\`, default options) with ${int(n.http)} items, then extrapolated ×${factor}.`,
				"**The sandbox's rate limit is off for both sides** (at 10/s the HTTP Request side alone would take ~17 minutes for 10,000 items). Messaging SMS keeps its default pacing (10 requests/second), which it does not reach here.",
				smoke
					? 'Smoke run: webhook runs in the server; memory is resident growth during the run.'
					: `Each run is a separate \`n8n execute\` process; memory is its peak resident set (VmHWM from /proc), including n8n's own ~300–400 MB. "Items only" rows run the same Code node without a sending node. The ${int(n.ours)}-item runs alternate (items only, Messaging SMS) ${REPEATS} times: one process's peak moves by tens of MB between identical runs, so each row shows its median run (all figures from that run) and every run's peak. "… while the workflow ran" is the highest resident memory sampled every 20 ms until its last node finished, before n8n saves the run to its database and \`n8n execute\` prints it as JSON (where the peak is).`,
				"Wall time = the sending node's execution time.",
			],
			tables: [
				{
					headers: [
						'Run',
						'Items',
						'Requests',
						'Phones accepted',
						'Wall time',
						'… before the first request',
						memoryLabel,
						'… while the workflow ran',
						'Items failed',
						'Extrapolated to ' + int(n.ours),
					],
					rows: [
						row('Items only (no send)', n.ours, itemsOurs, '', itemsOursRuns),
						row(
							"n8n's Aggregate: the phones into one list (no send)",
							n.ours,
							aggregate,
							'',
							aggregateRuns,
						),
						row('Messaging SMS → Add', n.ours, ours, '', oursRuns),
						row('Items only (no send)', n.http, itemsHttp),
						row(
							'HTTP Request, per item',
							n.http,
							http,
							`${int(http.stats.requests * factor)} requests, ~${seconds(httpWallExtrapolated)}; at 10/s: ${seconds((n.ours / 10) * 1000)}`,
						),
					],
				},
			],
			findings: [
				`Messaging SMS loaded ${int(ours.phones)} phones in ${int(ours.stats.requests)} requests and ${seconds(ours.outcome.send.executionTime)}; the HTTP Request node needed ${int(http.stats.requests)} requests and ${seconds(http.outcome.send.executionTime)} for ${int(n.http)} — for ${int(n.ours)} that is ${int(http.stats.requests * factor)} requests and ~${seconds(httpWallExtrapolated)} with no rate limit, ${seconds((n.ours / 10) * 1000)} at the service's 10 requests/second (ours at 10/s: ${seconds((ours.stats.requests / 10) * 1000)}).`,
				`Messaging SMS spent ${seconds(beforeFirst(ours))} of its ${seconds(ours.outcome.send.executionTime)} reading, validating and combining the ${int(n.ours)} items before its first request (~${fmt(((beforeFirst(ours) ?? 0) / n.ours) * 1000, 1)} µs per item; \`{{ $json.phone }}\` is read from the item, not evaluated by n8n).`,
				`Peak memory is dominated by n8n holding ${int(n.ours)} items; the sending node adds ${mb(ours.outcome.memoryKb - itemsOurs.outcome.memoryKb)} over the items-only run (HTTP Request at ${int(n.http)} items: ${mb(http.outcome.memoryKb - itemsHttp.outcome.memoryKb)}). While the workflow ran it added ${mb(difference(ours.whileRunningKb, itemsOurs.whileRunningKb))}; the rest comes after the node has finished, when n8n saves the run and \`n8n execute\` prints it as indented JSON: the node's output (${int(ours.outcome.send.items.length)} items, each listing the ${int(n.ours / Math.max(1, ours.outcome.send.items.length))} phones it sent and a pairedItem entry per input item) is serialised on top of the items. Median run minus median run; each pair in run order: ${growthRunsMb.map((value) => `${value >= 0 ? '+' : ''}${value} MB`).join(', ')}.`,
				`For comparison, n8n's own Aggregate node, which sends nothing and outputs the same volume (every phone, and a pairedItem entry per input item, in one item), adds ${mb(aggregate.outcome.memoryKb - itemsOurs.outcome.memoryKb)} over the items-only run (${mb(difference(aggregate.whileRunningKb, itemsOurs.whileRunningKb))} while the workflow ran): Messaging SMS, with its ${int(ours.stats.requests)} requests, peaks ${mb(Math.abs(ours.outcome.memoryKb - aggregate.outcome.memoryKb))} ${ours.outcome.memoryKb > aggregate.outcome.memoryKb ? 'above' : 'below'} it.`,
			],
			summary: [
				[
					`3. ${int(n.ours)} phones into a list: requests`,
					int(ours.stats.requests),
					`${int(http.stats.requests * factor)} (extrapolated from ${int(n.http)})`,
					ratio(ours.stats.requests, http.stats.requests * factor, 0),
				],
				[
					'3. … wall time',
					seconds(ours.outcome.send.executionTime),
					`~${seconds(httpWallExtrapolated)} (extrapolated)`,
					ratio(ours.outcome.send.executionTime, httpWallExtrapolated, 0),
				],
			],
			checks: [
				[
					'ours accepted every phone, in every run',
					oursRuns.every((entry) => entry.phones === n.ours && entry.failed === 0),
				],
				['HTTP Request accepted every phone', http.phones === n.http],
			],
		};
	},
};
