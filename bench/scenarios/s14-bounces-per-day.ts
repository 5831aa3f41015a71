/**
 * 14. Bounces and unsubscribes by the hundred thousand a day: the Messaging Trigger (bounces and unsubscribes) as
 * the day's lists fill to 100,000 bounces and 100,000 unsubscribes, a tenth every 2.3 hours of the day. After each
 * tenth: the poll that takes it (requests, CPU, static data) and then an idle poll (nothing new: requests, CPU,
 * time). Beside it, what the do-it-yourself poller (Schedule Trigger + HTTP Request with pagination) pays every
 * poll: both lists read in full, measured once at the end as the raw pages' GETs and parses, no n8n.
 *
 * In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts), on a
 * shifted clock as in scenario 10: n8n's and the sandbox's time jump 2.3 hours between tenths, each entry is dated
 * within the 2.3 hours before its poll, and the trigger's six-hourly full reads come when they would. The sandbox
 * runs in a child process (bench/lib/child-sandbox.ts), so the CPU figures are the trigger's and n8n-core's alone.
 */
import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import { formatServiceDate } from '../../sandbox/core/clock';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import { PollHarness } from '../../test/harness/poll-harness';
import { startChildSandbox, type ChildSandbox } from '../lib/child-sandbox';
import { loadTracker, measured } from '../lib/measure';
import { fmt, int, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import { shiftedClock } from './s10-sms-events';

const STEPS = 10;
/** Idle polls after each taking poll; their median is reported. */
const IDLE_POLLS = 5;
const PAGE = 100;
const HOUR_MS = 3_600_000;
/** Hours of the day between two tenths: the tenth step is at 23:00 UTC, the day's lists still whole. */
const STEP_HOURS = 2.3;
/** A day in the future (and the day after the bench's real time), 00:00 UTC. */
const DAY_START = Date.parse('2030-04-02T00:00:00Z');

export interface DayStep {
	/** Hours into the day. */
	hour: number;
	bounces: number;
	unsubscribes: number;
	emitted: number;
	requests: number;
	cpuMs: number;
	staticDataBytes: number;
	idleRequests: number;
	idleCpuMs: number;
	idleWallMs: number;
}

/** Entries `from`…`to`, dated evenly over the STEP_HOURS before now (service time: UTC in the sandbox). */
async function add(
	sandbox: ChildSandbox,
	kind: 'bounces' | 'unsubscribes',
	from: number,
	to: number,
) {
	const now = Date.now();
	const dateOf = (index: number) =>
		formatServiceDate(
			new Date(now - ((to - index) / Math.max(1, to - from)) * STEP_HOURS * HOUR_MS + 1000),
		);
	for (let start = from; start < to; start += 5000) {
		const end = Math.min(to, start + 5000);
		const entries = Array.from({ length: end - start }, (_, offset) =>
			kind === 'bounces'
				? { email_to: `b${start + offset}@bounce.test`, send_date: dateOf(start + offset) }
				: { email: `u${start + offset}@example.com`, date: dateOf(start + offset) },
		);
		await sandbox.call('POST', `/__sandbox/email/${kind}`, { [kind]: entries });
	}
}

async function fillDay(
	sandbox: ChildSandbox,
	perDay: number,
	shift: (ms: number) => void,
	log: (line: string) => void,
) {
	// n8n's clock (this process) and the child's move together.
	const setNow = async (ms: number) => {
		shift(ms);
		await sandbox.setClock(Date.now());
	};
	await setNow(DAY_START + 60_000);
	const harness = new PollHarness({
		nodeType: new MessagingTrigger(),
		parameters: {
			events: ['bounce', 'unsubscribe'],
			options: { maxEventsPerPoll: 4 * perDay },
			requestOptions: { requestsPerSecond: 0 },
		},
		credentials: new CredentialStore(sandboxCredentials(sandbox)),
	});
	const activation = await harness.activate();
	if (activation.error) throw activation.error;
	await sleep(1100); // events strictly after the activation second
	const steps: DayStep[] = [];
	const seen = new Set<string>();
	let emitted = 0;
	let seq = (await sandbox.requestsSince(0)).last;
	/** Service requests since the last call (the token exchange left out). */
	const counted = async () => {
		const logged = await sandbox.requestsSince(seq);
		seq = logged.last;
		return logged.count;
	};
	for (let step = 1; step <= STEPS; step++) {
		await setNow(DAY_START + step * STEP_HOURS * HOUR_MS);
		const from = Math.round(((step - 1) * perDay) / STEPS);
		const to = Math.round((step * perDay) / STEPS);
		await add(sandbox, 'bounces', from, to);
		await add(sandbox, 'unsubscribes', from, to);
		await counted();
		const poll = await measured(() => harness.poll());
		if (poll.value.error) throw poll.value.error;
		for (const item of poll.value.items)
			seen.add(`${String(item.json.event)}|${String(item.json.email)}`);
		emitted += poll.value.items.length;
		const requests = await counted();
		// Idle polls, one after another: the median of their CPU and time (one alone is at the mercy of a GC pause).
		const idles = [];
		let idleRequests = 0;
		for (let repeat = 0; repeat < IDLE_POLLS; repeat++) {
			const idle = await measured(() => harness.poll());
			if (idle.value.error) throw idle.value.error;
			if (idle.value.items.length)
				throw new Error(`the idle poll emitted ${idle.value.items.length}`);
			idles.push(idle);
			idleRequests = Math.max(idleRequests, await counted());
		}
		const idleCpuMs = median(idles.map((idle) => idle.cpuMs));
		const idleWallMs = median(idles.map((idle) => idle.wallMs));
		steps.push({
			hour: step * STEP_HOURS,
			bounces: to,
			unsubscribes: to,
			emitted: poll.value.items.length,
			requests,
			cpuMs: poll.cpuMs,
			staticDataBytes: harness.storedBytes(),
			idleRequests,
			idleCpuMs,
			idleWallMs,
		});
		const last = steps[steps.length - 1];
		log(
			`    ${int(to)} + ${int(to)}: ${int(last.emitted)} events, ${requests} requests, ${fmt(poll.cpuMs, 0)} ms CPU, ${int(last.staticDataBytes)} bytes; idle ${last.idleRequests} requests, ${fmt(idleCpuMs, 0)} ms CPU (median of ${IDLE_POLLS})`,
		);
	}
	// The do-it-yourself poller's floor: both lists read in full (every page GET and parsed), no n8n.
	const today = new Date(Date.now()).toISOString().slice(0, 10);
	const pages = Math.ceil(perDay / PAGE);
	const fullRead = await measured(async () => {
		let rows = 0;
		for (let page = 0; page < pages; page++) {
			const bounces = await sandbox.call(
				'GET',
				`/smtp/bounces/day?limit=${PAGE}&offset=${page * PAGE}`,
			);
			const unsubscribes = await sandbox.call(
				'GET',
				`/smtp/unsubscribe?date=${today}&limit=${PAGE}&offset=${page * PAGE}`,
			);
			rows +=
				JSON.stringify(JSON.parse(bounces)).length +
				JSON.stringify(JSON.parse(unsubscribes)).length;
		}
		return rows;
	});
	return {
		steps,
		emitted,
		unique: seen.size,
		diyRequests: 2 * pages,
		diyCpuMs: fullRead.cpuMs,
		diyWallMs: fullRead.wallMs,
	};
}

export const bouncesPerDay: Scenario = {
	id: 14,
	title: 'Bounces and unsubscribes by the hundred thousand a day',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const perDay = smoke ? 300 : 100_000;
		const load = loadTracker();
		// A sandbox of its own in a child process (rate limit off): its clock moves with the shifted one.
		const sandbox = await startChildSandbox();
		// The bench's log reads the clock: lines wait until it is restored.
		const lines: string[] = [];
		const clock = shiftedClock();
		let run;
		try {
			lines.push(
				`  ${int(perDay)} bounces + ${int(perDay)} unsubscribes, a tenth every ${STEP_HOURS} hours…`,
			);
			load.note();
			run = await fillDay(sandbox, perDay, clock.setNow, (line) => lines.push(line));
			load.note();
		} finally {
			clock.restore();
			await sandbox.stop();
			for (const line of lines) log(line);
		}
		const first = run.steps[0];
		const last = run.steps[run.steps.length - 1];
		const idleCpu = run.steps.map((step) => step.idleCpuMs);
		// A poll that read both lists whole made at least a request per page of everything listed.
		const readWhole = (step: DayStep) => step.requests >= (step.bounces + step.unsubscribes) / PAGE;
		const fullReads = run.steps.slice(1).filter(readWhole);
		const partialReads = run.steps.slice(1).filter((step) => !readWhole(step));
		return {
			id: 14,
			title: 'Bounces and unsubscribes by the hundred thousand a day',
			setup: [
				`The Messaging Trigger (Bounce and Unsubscribe; Max Events per Poll ${int(4 * perDay)}, pacing off, the sandbox's rate limit off) while the day's lists fill to ${int(perDay)} bounces and ${int(perDay)} unsubscribes, a tenth of each every ${STEP_HOURS} hours of one day (UTC), each entry dated within the ${STEP_HOURS} hours before its poll; after each tenth the poll that takes it, then ${IDLE_POLLS} idle polls (nothing new; the median of their CPU and time is shown, the most requests any made). On a shifted clock as in scenario 10: n8n's and the sandbox's time jump between tenths, so the trigger's reads by count, its six-hourly full reads and the service's 24-hour bounce window behave as in a real day; each poll's requests run in real time.`,
				"In the bench process through n8n-core's PollTriggerExecutor and PollContext (test/harness/poll-harness.ts), static data kept between polls as n8n keeps it. CPU = user + system time of the bench process during the poll: the trigger and n8n-core only, since the sandbox (rate limit off) runs in a child process.",
				`Beside it, the do-it-yourself poller (Schedule Trigger + HTTP Request with pagination, pages of ${PAGE}) reads both lists in full every poll, the idle ones included, and still needs its own deduplication: its floor, measured once with the full lists, is every page's GET and parse in the bench process, no n8n (the sandbox's answering not counted). The machine is shared (2 cores): load average ${load.range()} during the run.`,
			],
			tables: [
				{
					headers: [
						'Hour of the day',
						'Bounces + unsubscribes so far',
						'Events emitted',
						'Requests',
						'CPU',
						'Static data',
						'Idle poll: requests',
						'CPU',
						'Time',
					],
					rows: run.steps.map((step) => [
						fmt(step.hour, 1),
						`${int(step.bounces)} + ${int(step.unsubscribes)}`,
						int(step.emitted),
						int(step.requests),
						`${int(step.cpuMs)} ms`,
						`${int(step.staticDataBytes)} bytes`,
						int(step.idleRequests),
						`${fmt(step.idleCpuMs, 1)} ms`,
						`${int(step.idleWallMs)} ms`,
					]),
				},
			],
			findings: [
				`With ${int(last.bounces)} bounces and ${int(last.unsubscribes)} unsubscribes in the day, an idle poll costs ${last.idleRequests} requests and ${fmt(last.idleCpuMs, 1)} ms of CPU (${first.idleRequests} and ${fmt(first.idleCpuMs, 1)} ms at a tenth of that; ${fmt(Math.min(...idleCpu), 1)}–${fmt(Math.max(...idleCpu), 1)} ms over the day); the do-it-yourself full re-read costs ${int(run.diyRequests)} requests and ${int(run.diyCpuMs)} ms of CPU (${int(run.diyWallMs)} ms) every poll before its own deduplication.`,
				`Taking polls after the first: ${partialReads.length ? `${int(Math.min(...partialReads.map((step) => step.requests)))}–${int(Math.max(...partialReads.map((step) => step.requests)))} requests for ${int(last.emitted)} new events (${int(last.emitted / PAGE)} pages of ${PAGE}, plus the count, the probes and the bounces of the 30 minutes before the newest held one), whatever the day holds already` : 'none between full reads'}; the six-hourly full reads (hours ${fullReads.map((step) => fmt(step.hour, 1)).join(', ')}): ${fullReads.map((step) => int(step.requests)).join(' / ')} requests, both lists whole.`,
				`A poll taking a tenth of the day (${int(last.emitted)} events) made ${last.requests} requests and cost ${int(last.cpuMs)} ms of CPU at the end of the day (${first.requests} and ${int(first.cpuMs)} ms for the first tenth); static data ${int(last.staticDataBytes)} bytes at the end (~${fmt(last.staticDataBytes / (last.bounces + last.unsubscribes), 1)} bytes per event). Every event emitted once: ${int(run.emitted)} emitted, ${int(run.unique)} distinct.`,
			],
			headlineKey: 'scale.bouncesPerDay',
			headline: {
				perDay,
				steps: run.steps.map((step) => ({
					...step,
					cpuMs: Math.round(step.cpuMs),
					idleCpuMs: +step.idleCpuMs.toFixed(1),
					idleWallMs: Math.round(step.idleWallMs),
				})),
				diyRequestsPerPoll: run.diyRequests,
				diyCpuMsPerPoll: Math.round(run.diyCpuMs),
				loadAverage: load.range(),
			},
			summary: [],
			checks: [
				[
					'every event emitted exactly once',
					run.emitted === 2 * perDay && run.unique === 2 * perDay,
				],
				// 4 from 00:00 to 03:00 UTC, when yesterday's unsubscribes are probed too.
				[
					'an idle poll costs at most 4 requests',
					run.steps.every((step) => step.idleRequests <= 4),
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
