/**
 * 8. Queue mode: issue 11's rate-limit check (scripts/n8n/queue-rate.ts, the same run as test/queue check 3).
 * n8n in queue mode (Postgres, Redis, a main and two workers, two jobs each; scripts/n8n/queue.ts) runs three
 * executions of 300 emails each, started at once, against the bench's sandbox limited to 10 requests/s. Each
 * execution has its own pacer; they share nothing but the service. Full bench only: it needs Postgres and Redis
 * (installed with apt-get as root when missing) and about three minutes.
 */
import { packPackage } from '../../scripts/n8n/instance';
import { ensureServices, QueueStack } from '../../scripts/n8n/queue';
import {
	RATE_CHECK,
	rateWorkflows,
	runRateCheck,
	type RateFigures,
} from '../../scripts/n8n/queue-rate';
import { emailStateOf } from '../../sandbox/email';
import { fmt, int, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

const CREDENTIAL = { id: 'benchQueueCred01', name: 'Bench queue' };
const WORKERS = 2;
const JOBS_PER_WORKER = 2;

export const queueMode: Scenario = {
	id: 8,
	title: 'Queue mode: three executions share the rate limit',
	phase: 'queue',
	async run({ sandbox, n8n, log }): Promise<ScenarioResult> {
		log('  postgres + redis (apt-get when missing)…');
		await ensureServices();
		const tarball = n8n?.tarball ?? (await packPackage());
		const stack = new QueueStack({
			tarball,
			workers: WORKERS,
			workerConcurrency: JOBS_PER_WORKER,
			webhook: false,
		});
		let figures: RateFigures;
		try {
			log('  starting n8n in queue mode (main + 2 workers)…');
			await stack.start(async (main) => {
				await main.importCredentials([
					{
						...CREDENTIAL,
						type: 'messagingServiceApi',
						data: {
							baseUrl: sandbox.url,
							authType: 'clientCredentials',
							clientId: sandbox.account.clientId,
							clientSecret: sandbox.account.clientSecret,
						},
					},
				]);
				await main.importWorkflows(rateWorkflows(CREDENTIAL));
			});
			sandbox.account.settings.rateLimitPerSecond = RATE_CHECK.limit;
			await sleep(1500); // let the sandbox's one-second window empty
			emailStateOf(sandbox).reset();
			sandbox.log.clear();
			log(
				`  ${RATE_CHECK.executions} executions × ${RATE_CHECK.rows} emails at ${RATE_CHECK.limit}/s…`,
			);
			({ figures } = await runRateCheck(
				stack,
				{
					log: () => sandbox.log.all(),
					sentRecipients: () =>
						emailStateOf(sandbox).emails.map((email) => String(email.recipient)),
				},
				CREDENTIAL,
			));
		} finally {
			await stack.stop();
		}
		const percent = figures.shareOfLimit * 100;
		const workers = figures.workers.map((worker) => (worker ? `worker ${worker}` : '?')).join(', ');
		return {
			id: 8,
			title: 'Queue mode: three executions share the rate limit',
			headlineKey: 'queue',
			headline: {
				executions: RATE_CHECK.executions,
				emailsEach: RATE_CHECK.rows,
				workers: WORKERS,
				limit: RATE_CHECK.limit,
				acceptedPerSecond: Number(figures.acceptedPerSecond.toFixed(2)),
				shareOfLimit: Number(figures.shareOfLimit.toFixed(3)),
				rateLimited: figures.rateLimited,
				failed: figures.failedItems,
				duplicates: figures.duplicates,
			},
			setup: [
				`**Full bench only** (\`npm run bench\`; \`--smoke\` skips it): n8n in queue mode with Postgres and Redis (Debian's packages, installed with apt-get as root when missing), a main and ${WORKERS} workers (${JOBS_PER_WORKER} jobs each), the packed package, started by scripts/n8n/queue.ts.`,
				`${RATE_CHECK.executions} executions of the template example (${int(RATE_CHECK.rows)} rows each, Messaging Email → Send, one request per item), started at once on the main; the sandbox allows ${RATE_CHECK.limit} requests/s for the account. Each execution has its own pacer; nothing is shared but the service's rate-limit answers. The same run as \`npm run e2e:queue\` check 3 (scripts/n8n/queue-rate.ts).`,
				'Achieved rate = requests the sandbox did not rate-limit (token exchanges, sender checks, sends) over the time from the first request it logged to the last. Failed = rows without a `result: true` output; delivered twice = recipients accepted more than once.',
			],
			tables: [
				{
					headers: [
						'Executions × emails',
						'Workers (per execution)',
						'Run time',
						'Achieved req/s (of 10/s)',
						'429s received',
						'Items failed',
						'Delivered twice',
					],
					rows: [
						[
							`${RATE_CHECK.executions} × ${int(RATE_CHECK.rows)}`,
							workers,
							`${fmt(figures.seconds, 1)} s`,
							`${fmt(figures.acceptedPerSecond, 2)} (${fmt(percent, 0)}%)`,
							int(figures.rateLimited),
							int(figures.failedItems),
							int(figures.duplicates),
						],
					],
				},
			],
			findings: [
				`The three executions together reached ${fmt(percent, 1)}% of the limit (goal ≥ 90%: ${percent >= 90 ? 'met' : '**not met**'}) with ${int(figures.failedItems)} failed items and ${int(figures.duplicates)} duplicates; ${int(figures.rateLimited)} rate-limit answers, each repeated at its pacer's next start. Each pacer keeps a credit of starts per window, cut by a fifth on a rate-limit answer and given back faster the longer none comes, so the three settle on shares of the limit and take over what a finished execution leaves.`,
				`Accepted requests in each second: ${figures.perSecond.join(' ')}.`,
			],
			summary: [
				[
					`8. Queue mode: ${RATE_CHECK.executions} × ${int(RATE_CHECK.rows)} emails on ${WORKERS} workers at a 10/s limit`,
					`${fmt(percent, 0)}% of the limit, ${int(figures.failedItems)} failed`,
					'not run',
					'–',
				],
			],
			checks: [
				['queue: every email delivered', figures.failedItems === 0],
				['queue: no duplicates', figures.duplicates === 0],
				['queue: at least 90% of the limit', figures.shareOfLimit >= 0.9],
			],
		};
	},
};
