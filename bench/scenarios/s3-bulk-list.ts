/**
 * 3. Bulk list load: phones, one per item, into a mailing list. Messaging SMS → Phone Number → Add with 100,000
 * items (it combines them, 1,000 per request); the HTTP Request node, one request per item, with 10,000 items
 * (extrapolated). Each run is its own `n8n execute` process, so its peak memory is the run's own.
 */
import { fmt, int, mb, ratio, seconds, summarise } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import { httpPhoneAdd, isolatedWorkflow, oursPhoneAdd, phoneItems } from '../lib/workflows';

const counts = (smoke: boolean) => ({ ours: smoke ? 2500 : 100_000, http: smoke ? 250 : 10_000 });
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
			isolatedWorkflow('s3itemsHttp', 'Bench 3 items only (http)', smoke, [phoneItems(n.http)]),
		];
		return {
			credentials: ['main'],
			workflows,
			webhooks: smoke ? ['s3ours', 's3http', 's3itemsOurs', 's3itemsHttp'] : [],
		};
	},
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const n = counts(smoke);
		sandbox.account.settings.rateLimitPerSecond = 0;
		const memoryLabel = smoke ? 'RSS growth (smoke: server)' : 'Peak memory (n8n process)';
		const run = async (label: string, what: string) => {
			sandbox.log.clear();
			log(`  ${what}…`);
			const outcome = await n8n!.runIsolated(label, smoke);
			const stats = summarise(sandbox.log.all(), '/sms/numbers');
			const phones = sandbox.log
				.all()
				.filter((entry) => entry.path === '/sms/numbers' && entry.status === 200)
				.reduce(
					(sum, entry) => sum + ((entry.body as { phones?: unknown[] }).phones?.length ?? 0),
					0,
				);
			const failed = outcome.send.items.filter((item) => item.json.error !== undefined).length;
			return { outcome, stats, phones, failed };
		};
		const itemsOurs = await run('s3itemsOurs', `${n.ours} items, no send (n8n's own cost)`);
		const ours = await run('s3ours', `Messaging SMS: ${n.ours} phones`);
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
		const row = (label: string, items: number, entry: typeof ours, extra = '') => [
			label,
			int(items),
			int(entry.stats.requests),
			int(entry.phones),
			seconds(entry.outcome.send.executionTime),
			seconds(beforeFirst(entry)),
			mb(entry.outcome.memoryKb),
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
				requests: ours.stats.requests,
			},
			setup: [
				`${int(n.ours)} phones, one per item, into one mailing list with Messaging SMS → Phone Number → Add (default batching: combine items, 1,000 phones per request); the HTTP Request node (\`POST /sms/numbers\` with \`{addressBookId, phones:[$json.phone]}\`, default options) with ${int(n.http)} items, then extrapolated ×${factor}.`,
				"**The sandbox's rate limit is off for both sides** (at 10/s the HTTP Request side alone would take ~17 minutes for 10,000 items). Messaging SMS keeps its default pacing (10 requests/second), which it does not reach here.",
				smoke
					? 'Smoke run: webhook runs in the server; memory is resident growth during the run.'
					: 'Each run is a separate `n8n execute` process; memory is its peak resident set (VmHWM from /proc), including n8n\'s own ~300–400 MB. "Items only" rows run the same Code node without a sending node.',
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
						'Items failed',
						'Extrapolated to ' + int(n.ours),
					],
					rows: [
						row('Items only (no send)', n.ours, itemsOurs),
						row('Messaging SMS → Add', n.ours, ours),
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
				`Messaging SMS spent ${seconds(beforeFirst(ours))} of its ${seconds(ours.outcome.send.executionTime)} reading and validating the ${int(n.ours)} items before its first request (~${fmt(((beforeFirst(ours) ?? 0) / n.ours) * 1000, 0)} µs per item; n8n resolves the Phones expression once per item — not profiled further): with bulk loads the items, not the requests, are the cost.`,
				`Peak memory is dominated by n8n holding ${int(n.ours)} items; the sending node adds ${mb(ours.outcome.memoryKb - itemsOurs.outcome.memoryKb)} over the items-only run (HTTP Request at ${int(n.http)} items: ${mb(http.outcome.memoryKb - itemsHttp.outcome.memoryKb)}).`,
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
				['ours accepted every phone', ours.phones === n.ours && ours.failed === 0],
				['HTTP Request accepted every phone', http.phones === n.http],
			],
		};
	},
};
