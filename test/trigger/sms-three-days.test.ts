/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { restoreClock, setNow, useSharedClock } from './helpers';
import { logger } from '../harness/poll-harness';
import { SmsModel, type SmsModelFigures } from '../harness/sms-model';

/**
 * Issue 25's three-day check: 300 campaigns a day of 4 phones each, fast and slow phones (some staying at Sent),
 * scheduled, cancelled, deleted, emulated and still-being-formed campaigns, one-off 404s (a proxy's page and the
 * service's JSON), a campaign failing for an hour, n8n restarts, all under a 3 requests/s account limit with the
 * node's default pacing, compared with a full-read oracle (sms-model.ts). Every campaign costs at least one read,
 * so at 3/s the 900 campaigns take 5 minutes of real time whatever the poll interval: polls every 3 hours (most
 * campaigns are final by their first read) keep the rest small. `SMS_MODEL_SMALL=1`: half a day (about a minute).
 */
const START = Date.parse('2026-03-02T00:00:00Z');
const SMOKE = process.env.SMS_MODEL_SMALL === '1';
let sandbox: Sandbox;
let figures: SmsModelFigures;

beforeAll(async () => {
	useSharedClock(new Date(START).toISOString());
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	const model = new SmsModel(sandbox, {
		seed: 25,
		start: START,
		days: SMOKE ? 0.5 : 3,
		campaignsPerDay: 300,
		phonesPerCampaign: 4,
		pollEveryMinutes: 180,
		// The slowest phones and the scheduled campaigns settle within 18 hours of the last campaign.
		settleHours: 18,
		settleEveryMinutes: 180,
		rateLimitPerSecond: 3,
		sentMinutes: 10,
		finalMinutes: 10,
		slowShare: 0.01,
		stuckShare: 0.001,
		scheduledShare: 0.03,
		cancelledShare: 0.02,
		formingShare: 0.1,
		deletedShare: 0.02,
		notFoundEveryPolls: 2,
		failingHourAt: 30,
		restartEveryPolls: 5,
		persistence: 'legacy',
		setNow: (ms) => setNow(new Date(Math.max(ms, Date.now())).toISOString()),
		log: (line) => process.stdout.write(`${line}\n`),
	});
	figures = await model.run();
	const { requestsPerPoll, lagPolls, missing, duplicates, unexpected, ...summary } = figures;
	process.stdout.write(
		`sms three days: ${JSON.stringify({
			...summary,
			requestsPerPollMax: Math.max(...requestsPerPoll),
			rateLimitedPerAccepted: +(figures.rateLimited / figures.accepted).toFixed(3),
			maxLagPolls: Math.max(...lagPolls),
			missing: missing.slice(0, 5),
			duplicates: duplicates.slice(0, 5),
			unexpected: unexpected.slice(0, 5),
		})}\n`,
	);
}, 900_000);
afterAll(async () => {
	await sandbox.close();
	restoreClock();
});

test('every status the oracle saw is emitted exactly once: 0 missing, 0 duplicates, nothing it did not see', () => {
	expect(figures.pollErrors).toEqual([]);
	expect(figures.expected).toBeGreaterThan(SMOKE ? 500 : 3 * 300 * 4 * 1.5);
	expect(figures.missing).toEqual([]);
	expect(figures.duplicates).toEqual([]);
	expect(figures.unexpected).toEqual([]);
});

test('at the pace the 3/s account allows: at most 0.1 rate-limit answers per accepted request', () => {
	expect(figures.rateLimited / figures.accepted).toBeLessThanOrEqual(0.1);
});

test('the warnings name what happened: the failing campaign and the one-off 404s, once each', () => {
	const warnings = logger.of('warn');
	expect(warnings.length).toBeGreaterThan(0);
	for (const warning of warnings)
		expect(warning).toMatch(
			/^Messaging Trigger: SMS campaign \d+: its details could not be read \((Internal error \(error code 500\)|Campaign not found \(error code 404\)|The service answered HTTP 404 without an error message)\); its statuses are read at the next poll, the other campaigns went on$/,
		);
});
