/**
 * 10. SMS delivery events: 300 campaigns a day of 4 phones each, the Messaging Trigger polling once a minute, the
 * service at 10 requests/s and at 3 requests/s, compared with a full-read oracle (test/harness/sms-model.ts: the
 * same model as the three-day test). Run through n8n-core's PollTriggerExecutor and PollContext
 * (test/harness/poll-harness.ts) on a shifted clock: n8n's and the sandbox's time jump from one poll to the next,
 * while each poll's requests run in real time against the sandbox's real per-second limit.
 */
import { startSandbox } from '../../sandbox';
import { SmsModel, type SmsModelFigures } from '../../test/harness/sms-model';
import { fmt, int } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

const START = Date.parse('2030-03-04T08:00:00Z');

/**
 * Date.now() moved forward by an offset (n8n's clock and the sandbox's), restored afterwards. It starts in the
 * future (START, or now if that is past), so the bench's real time never meets the simulated days.
 */
export function shiftedClock() {
	const realNow = Date.now.bind(Date);
	let offset = 0;
	Date.now = () => realNow() + offset;
	return {
		setNow: (ms: number) => {
			offset = Math.max(offset, ms - realNow());
		},
		restore: () => {
			Date.now = realNow;
		},
	};
}

async function runAt(
	limit: number,
	hours: number,
	seed: number,
	clock: ReturnType<typeof shiftedClock>,
): Promise<SmsModelFigures> {
	// A sandbox of its own: its rate-limit window holds times of the shifted clock, which the bench's does not know.
	const sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	try {
		return await new SmsModel(sandbox, {
			seed,
			start: Date.now(),
			days: hours / 24,
			campaignsPerDay: 300,
			phonesPerCampaign: 4,
			pollEveryMinutes: 1,
			// Scheduled campaigns send up to 12 hours after their creation, slow phones take up to 6 hours more.
			settleHours: 19,
			settleEveryMinutes: 60,
			rateLimitPerSecond: limit,
			sentMinutes: 5,
			finalMinutes: 15,
			slowShare: 0.02,
			stuckShare: 0.002,
			scheduledShare: 0.03,
			cancelledShare: 0.02,
			formingShare: 0.1,
			deletedShare: 0.01,
			notFoundEveryPolls: 30,
			failingHourAt: hours >= 2 ? 1 : undefined,
			restartEveryPolls: 0,
			persistence: 'legacy',
			setNow: clock.setNow,
		}).run();
	} finally {
		await sandbox.close();
	}
}

const mean = (values: number[]) =>
	values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

export const smsEvents: Scenario = {
	id: 10,
	title: 'SMS delivery events',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const hours = smoke ? 0.25 : 3;
		const runs: Array<{ limit: number; figures: SmsModelFigures; seconds: number }> = [];
		log(`  the service at 10/s, then at 3/s: ${hours} hours of campaigns each, one poll a minute…`);
		// One shifted clock for both runs (it only moves forward), restored once they are done; the bench's log
		// reads the clock, so nothing is logged meanwhile.
		const clock = shiftedClock();
		try {
			clock.setNow(START);
			for (const limit of [10, 3]) {
				const started = performance.now();
				const figures = await runAt(limit, hours, 25 + limit, clock);
				runs.push({ limit, figures, seconds: (performance.now() - started) / 1000 });
				clock.setNow(Date.now() + 24 * 3_600_000);
			}
		} finally {
			clock.restore();
		}
		for (const run of runs) log(`  ${run.limit}/s: ${run.seconds.toFixed(0)} s`);
		const row = ({ limit, figures }: (typeof runs)[number]) => {
			const perPoll = figures.requestsPerPoll;
			return [
				`${limit}/s`,
				`${int(figures.planPolls)} + ${int(figures.polls - figures.planPolls)}`,
				int(figures.campaigns),
				fmt(mean(perPoll), 2),
				int(Math.max(...perPoll)),
				`${int(figures.rateLimited)} / ${int(figures.accepted)} = ${fmt(figures.rateLimited / figures.accepted, 3)}`,
				`${fmt(mean(figures.lagPolls), 3)} / ${int(Math.max(0, ...figures.lagPolls))}`,
				int(figures.expected),
				int(figures.missing.length + figures.unexpected.length),
				int(figures.duplicates.length),
				`${fmt(figures.pollSeconds, 0)} s`,
			];
		};
		const slow = runs.find((run) => run.limit === 3)!.figures;
		const headline = {
			requestsPerPollMean: +mean(slow.requestsPerPoll).toFixed(2),
			requestsPerPollMax: Math.max(...slow.requestsPerPoll),
			rateLimitedPerAccepted: +(slow.rateLimited / slow.accepted).toFixed(3),
			maxLagPolls: Math.max(0, ...slow.lagPolls),
			lost: slow.missing.length,
			duplicates: slow.duplicates.length,
		};
		const all = runs.map((run) => run.figures);
		return {
			id: 10,
			title: 'SMS delivery events',
			headlineKey: 'smsEvents',
			headline,
			setup: [
				`${hours} simulated hours of campaigns at 300 a day (4 phones each: sent within 5 minutes of the send time, final within 15 more; 2% of the phones take hours, 0.2% stay at Sent; 10% of the campaigns list no phones for up to 15 minutes after their send time, 3% scheduled, 2% cancelled, 1% deleted), a one-off 404 every 30 polls (a proxy's page and the service's JSON in turn)${hours >= 2 ? ', one campaign failing with 500 for an hour' : ''}; the Messaging Trigger (all three SMS events, default pacing: 10 requests/s) polls once a minute, then once an hour for 19 hours so every phone settles.`,
				"Before each poll an oracle reads every campaign in full (the sandbox's own state): lost = statuses it saw that were never emitted (or emitted without it seeing them); lag = polls from the oracle's first sight of a status to its emission (0: by the first poll after it was reached). Requests per poll: the per-minute polls, from the sandbox log (rate-limited answers included).",
				"n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts); n8n's and the sandbox's clock jump from poll to poll, each poll's requests run in real time against the sandbox's per-second limit.",
			],
			tables: [
				{
					headers: [
						'Service limit',
						'Polls (per minute + settling)',
						'Campaigns',
						'Requests / poll (mean)',
						'Max',
						'Rate-limited / accepted',
						'Lag in polls (mean / max)',
						'Statuses',
						'Lost',
						'Duplicates',
						'Poll time',
					],
					rows: runs.map(row),
				},
			],
			findings: [
				`At 3/s: ${fmt(headline.requestsPerPollMean, 2)} requests per poll on average (at most ${headline.requestsPerPollMax}): the campaign list and one read per campaign still delivering; ${fmt(headline.rateLimitedPerAccepted, 3)} rate-limit answers per accepted request (goal ≤ 0.1): once a poll meets one, the next polls keep to the rate the service accepted, and try one request per second more after 10 busy polls without any.`,
				`Every status once: ${int(slow.missing.length + slow.unexpected.length)} lost, ${int(slow.duplicates.length)} duplicated of ${int(slow.expected)} at 3/s (${int(all[0].missing.length + all[0].unexpected.length)} and ${int(all[0].duplicates.length)} of ${int(all[0].expected)} at 10/s). Lag: by the first poll after a status was reached, except where the service held it back: a campaign still being formed, a one-off 404 (its statuses come at the next poll)${hours >= 2 ? ', the hour a campaign failed' : ''} (max ${headline.maxLagPolls} polls).`,
			],
			summary: [
				[
					'10. SMS events, 300 campaigns/day, a poll a minute at a 3/s limit: requests / poll, 429s per accepted',
					`${fmt(headline.requestsPerPollMean, 2)} (max ${headline.requestsPerPollMax}), ${fmt(headline.rateLimitedPerAccepted, 3)}`,
					'not run',
					'–',
				],
				['10. … statuses lost / duplicated', `${headline.lost} / ${headline.duplicates}`, '–', '–'],
			],
			checks: [
				[
					'SMS events: nothing lost',
					all.every((figures) => figures.missing.length + figures.unexpected.length === 0),
				],
				['SMS events: no duplicates', all.every((figures) => figures.duplicates.length === 0)],
				['SMS events: no failed poll', all.every((figures) => figures.pollErrors.length === 0)],
				...(smoke
					? []
					: ([
							[
								'SMS events: ≤ 0.1 rate-limit answers per accepted request at 3/s',
								headline.rateLimitedPerAccepted <= 0.1,
							],
						] as Array<[string, boolean]>)),
			],
		};
	},
};
