/**
 * 5. Trigger: B new bounces + U unsubscribes waiting; Messaging Trigger polls until drained. Run through n8n-core's
 * PollTriggerExecutor and PollContext (test/harness/poll-harness.ts), not a real n8n: a real n8n polls at most once
 * a minute, so draining would take many minutes of waiting and show nothing more. Real time, real HTTP, the sandbox
 * enforcing its 10 requests/second, the node's default pacing.
 */

import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import { dateToServiceTime } from '../../nodes/shared/values/serviceTime';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import type { Sandbox } from '../../sandbox';
import { PollHarness } from '../../test/harness/poll-harness';
import { fmt, int, seconds, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';

const counts = (smoke: boolean) => ({
	bounces: smoke ? 300 : 10_000,
	unsubscribes: smoke ? 60 : 2000,
});

/**
 * How many days of unsubscribes a poll at `at` reads: today, and until 03:00 service time (UTC, the trigger's
 * default) yesterday too, for entries written late (the trigger's UNSUBSCRIBE_GRACE_MS).
 */
function unsubscribeDaysAt(at: number): number {
	const day = (ms: number) => dateToServiceTime(ms, 'UTC').slice(0, 10);
	return day(at - 3 * 3_600_000) === day(at) ? 1 : 2;
}

async function control(sandbox: Sandbox, method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as Record<string, unknown>;
}

interface PollRow {
	poll: number;
	events: number;
	requests: number;
	ms: number;
}

async function drain(
	sandbox: Sandbox,
	maxEventsPerPoll: number | undefined,
	n: { bounces: number; unsubscribes: number },
	log: (line: string) => void,
) {
	await control(sandbox, 'POST', '/email/reset');
	const harness = new PollHarness({
		nodeType: new MessagingTrigger(),
		parameters: {
			events: ['bounce', 'unsubscribe'],
			options: maxEventsPerPoll ? { maxEventsPerPoll } : {},
			requestOptions: {},
		},
		credentials: new CredentialStore(sandboxCredentials(sandbox)),
	});
	const activation = await harness.activate();
	if (activation.error) throw activation.error;
	await sleep(1100); // events strictly after the activation second
	for (let start = 0; start < n.bounces; start += 2000) {
		const size = Math.min(2000, n.bounces - start);
		await control(sandbox, 'POST', '/email/bounces', {
			bounces: Array.from({ length: size }, (_, index) => ({
				email_to: `b${start + index}@bounce.test`,
			})),
		});
	}
	for (let start = 0; start < n.unsubscribes; start += 2000) {
		const size = Math.min(2000, n.unsubscribes - start);
		await control(sandbox, 'POST', '/email/unsubscribes', {
			unsubscribes: Array.from({ length: size }, (_, index) => ({
				email: `u${start + index}@example.com`,
			})),
		});
	}
	const rows: PollRow[] = [];
	const seen = new Set<string>();
	let emitted = 0;
	const deadline = Date.now() + 10 * 60_000;
	for (let poll = 1; poll <= 200 && Date.now() < deadline; poll++) {
		const since = sandbox.log.lastSeq();
		const started = Date.now();
		const outcome = await harness.poll();
		if (outcome.error) throw outcome.error;
		const ms = Date.now() - started;
		const requests = sandbox.log
			.since(since)
			.filter((entry) => entry.path !== '/oauth/access_token').length;
		for (const item of outcome.items)
			seen.add(`${String(item.json.event)}|${String(item.json.email)}`);
		emitted += outcome.items.length;
		rows.push({ poll, events: outcome.items.length, requests, ms });
		log(`    poll ${poll}: ${outcome.items.length} events, ${requests} requests, ${ms} ms`);
		if (outcome.items.length === 0) break;
	}
	const limited = sandbox.log.all().filter((entry) => entry.status === 429).length;
	// The idle poll: every event still in the service's window, nothing new. A real n8n polls at most once a
	// minute; a second's pause keeps it out of the last draining poll's rate-limit second.
	await sleep(1100);
	const idleSince = sandbox.log.lastSeq();
	const idleStarted = Date.now();
	const idleOutcome = await harness.poll();
	if (idleOutcome.error) throw idleOutcome.error;
	const unsubscribeDays = Math.max(unsubscribeDaysAt(idleStarted), unsubscribeDaysAt(Date.now()));
	const idleRequests = sandbox.log
		.since(idleSince)
		.filter((entry) => entry.path !== '/oauth/access_token');
	const idle = {
		events: idleOutcome.items.length,
		requests: idleRequests.length,
		limited: idleRequests.filter((entry) => entry.status === 429).length,
		ms: Date.now() - idleStarted,
		unsubscribeDays,
	};
	log(`    idle poll: ${idle.events} events, ${idle.requests} requests, ${idle.ms} ms`);
	return { rows, emitted, unique: seen.size, bytes: harness.storedBytes(), limited, idle };
}

export const trigger: Scenario = {
	id: 5,
	title: 'Trigger',
	phase: 'inProcess',
	async run({ sandbox, smoke, log }): Promise<ScenarioResult> {
		const n = counts(smoke);
		const total = n.bounces + n.unsubscribes;
		sandbox.account.settings.rateLimitPerSecond = 10;
		const configs = [
			{ label: 'Max Events per Poll 1,000 (default)', max: undefined as number | undefined },
			{ label: `Max Events per Poll ${int(total * 2)}`, max: total * 2 },
		];
		const tables = [];
		const results = [];
		for (const config of configs) {
			sandbox.log.clear();
			log(`  ${config.label}: ${n.bounces} bounces + ${n.unsubscribes} unsubscribes waiting…`);
			const result = await drain(sandbox, config.max, n, log);
			results.push({ ...config, ...result });
			const working = result.rows.filter((row) => row.events > 0);
			const requests = working.reduce((sum, row) => sum + row.requests, 0);
			const ms = working.reduce((sum, row) => sum + row.ms, 0);
			tables.push({
				headers: ['Poll', 'Events emitted', 'Requests', 'Time'],
				rows: [
					...result.rows.map((row) => [
						String(row.poll),
						int(row.events),
						int(row.requests),
						seconds(row.ms),
					]),
					[
						`**${config.label}: ${working.length} polls to drain**`,
						`**${int(result.emitted)}** (${int(result.unique)} distinct)`,
						`**${int(requests)}** (${fmt(requests / Math.max(1, working.length), 1)} / poll)`,
						`**${seconds(ms)}** (${seconds(ms / Math.max(1, working.length))} / poll)`,
					],
				],
			});
		}
		const [standard, large] = results;
		const eventsInWindow = total;
		const idlePollRequests = standard.idle.requests;
		const naivePerPoll = Math.ceil(n.bounces / 100) + Math.ceil(n.unsubscribes / 100);
		const requestsOf = (rows: PollRow[]) => rows.reduce((sum, row) => sum + row.requests, 0);
		return {
			id: 5,
			title: 'Trigger',
			headline: { eventsInWindow, idlePollRequests },
			setup: [
				`${int(n.bounces)} new bounces and ${int(n.unsubscribes)} new unsubscribes waiting after the trigger was activated; polls run back to back until one emits nothing. Sandbox at 10 requests/second, the node's default pacing; lists are read 100 per page (the service's page size).`,
				"Run through n8n-core's own PollTriggerExecutor and PollContext (test/harness/poll-harness.ts, static data persisted between polls as n8n does), not in a real n8n: a real n8n polls at most once a minute, so draining there takes minutes of waiting per poll and measures nothing more.",
				`There is no HTTP Request run: n8n has no polling HTTP Request. The do-it-yourself version (Schedule Trigger + HTTP Request with pagination) would read both lists in full on every poll — ${int(naivePerPoll)} requests per poll while these events are within the service's window, the empty polls included — and still needs its own deduplication across polls.`,
				"Static data = the trigger's state as n8n stores it with the workflow (JSON bytes) after draining.",
			],
			tables,
			findings: [
				`Default settings: ${int(standard.emitted)} events (${int(standard.unique)} distinct, none lost or repeated) in ${standard.rows.filter((row) => row.events > 0).length} polls, ${int(requestsOf(standard.rows))} requests in all, ${int(standard.limited)} 429s; static data afterwards ${int(standard.bytes)} bytes (~${fmt(standard.bytes / total, 1)} bytes per event).`,
				`With Max Events per Poll ${int(total * 2)}: ${large.rows.filter((row) => row.events > 0).length} poll(s), ${int(requestsOf(large.rows))} requests; static data ${int(large.bytes)} bytes.`,
				`Idle poll: with these ${int(eventsInWindow)} events in the service's window, a poll that finds nothing costs ${int(idlePollRequests)} requests (~${seconds(standard.idle.ms)}, ${int(standard.idle.limited)} of them 429s): the bounce count, the window's first bounce, one probe per unsubscribe day (${int(standard.idle.unsubscribeDays)} here: today, and until 03:00 UTC yesterday too); the do-it-yourself full re-read costs ${int(naivePerPoll)} every poll. The lists are read in full only when the counts say something changed in a way the end of the list cannot show (a bounce sent more than 30 minutes before the newest held one), after 6 hours without a full read, and on a fresh or damaged state. What the trigger adds is each event exactly once, state bounded at ~10 bytes per bounce and ~8 per unsubscribe, and pacing within the limit.`,
			],
			summary: [
				[
					`5. Trigger: ${int(total)} waiting events, polls / requests to drain`,
					`${standard.rows.filter((row) => row.events > 0).length} polls / ${int(requestsOf(standard.rows))} requests`,
					`not run (DIY: ~${int(naivePerPoll)} requests every poll, own dedupe)`,
					'–',
				],
				['5. … static data afterwards', `${int(standard.bytes)} bytes`, '–', '–'],
				[
					`5. … an idle poll with ${int(eventsInWindow)} events in the window`,
					`${int(idlePollRequests)} requests`,
					`DIY: ~${int(naivePerPoll)} requests`,
					'–',
				],
			],
			checks: [
				[
					'every event emitted exactly once (default)',
					standard.emitted === total && standard.unique === total,
				],
				[
					'every event emitted exactly once (large)',
					large.emitted === total && large.unique === total,
				],
				[
					'an idle poll costs at most 3 requests (4 from 00:00 to 03:00 UTC, yesterday probed too)',
					idlePollRequests <= 2 + standard.idle.unsubscribeDays,
				],
				['the idle poll emits nothing', standard.idle.events === 0 && large.idle.events === 0],
			],
		};
	},
};
