import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bouncePage,
	type BounceSeed,
	callsSince,
	failNth,
	harness,
	parameters,
	setNow,
	unsubscribePage,
	unsubscribeProbe,
	useTriggerSandbox,
} from './helpers';
import { omit } from '../../sandbox/core/records';

const pad = (n: number) => String(n).padStart(2, '0');
/** Service time (UTC here) of a millisecond timestamp. */
const serviceTime = (ms: number) => {
	const date = new Date(ms);
	return `${date.toISOString().slice(0, 10)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
};

let sandbox: Sandbox;

describe('an idle poll costs a count, not a re-read', () => {
	const NOW = Date.parse('2026-05-10T12:00:00Z');
	useTriggerSandbox('2026-05-10T12:00:00Z', (started) => (sandbox = started));
	beforeEach(async () => {
		// 12,000 bounces in the window, one every 7.19 s over the last 24 hours, and 150 unsubscribes today.
		await addBounces(
			sandbox,
			Array.from({ length: 12_000 }, (_, index) => ({
				email_to: `w${index}@bounce.test`,
				send_date: serviceTime(NOW - 86_340_000 + index * 7_190),
			})),
		);
		await addUnsubscribes(
			sandbox,
			Array.from({ length: 150 }, (_, index) => ({
				email: `u${index}@example.com`,
				date: serviceTime(NOW - 11 * 3_600_000 + index * 60_000),
			})),
		);
	});

	test('12,000 bounces in the window: 3 requests (bounce count, the window start, one unsubscribe probe)', async () => {
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		let since = sandbox.log.lastSeq();
		expect((await trigger.activate()).items).toEqual([]);
		// The baseline reads everything once.
		expect(callsSince(sandbox, since)).toHaveLength(121 + 2);

		setNow('2026-05-10T12:01:00Z');
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			unsubscribeProbe('2026-05-10', 150),
		]);

		// Ten minutes on: 84 bounces left the window (the count drops by as many as the state predicts): still idle.
		setNow('2026-05-10T12:11:00Z');
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			unsubscribeProbe('2026-05-10', 150),
		]);

		// Two new bounces (one sent 20 minutes ago) and one unsubscribe: the new bounces are read from the bounces
		// sent 30 minutes before the newest held one on (offset 11,667 − 250 held since then); the day is re-read.
		await addBounces(sandbox, [
			{ email_to: 'new1@bounce.test', send_date: '2026-05-10 11:51:00' },
			{ email_to: 'new2@bounce.test', send_date: '2026-05-10 12:10:30' },
		]);
		await addUnsubscribes(sandbox, [{ email: 'new@example.com', date: '2026-05-10 12:10:45' }]);
		since = sandbox.log.lastSeq();
		const active = await trigger.poll();
		expect(active.items.map((item) => item.json.email)).toEqual([
			'new1@bounce.test',
			'new2@bounce.test',
			'new@example.com',
		]);
		const calls = callsSince(sandbox, since);
		expect(calls.slice(0, 2)).toEqual(bounceCheck);
		const tailStart = Number(/offset=(\d+)/.exec(calls[2])![1]);
		expect(calls).toEqual([
			...bounceCheck,
			bouncePage(tailStart),
			bouncePage(tailStart + 100),
			bouncePage(tailStart + 200),
			unsubscribeProbe('2026-05-10', 150),
			unsubscribePage('2026-05-10'),
			unsubscribePage('2026-05-10', 100),
		]);
		// Held in the window: 12,000 − 84 expired, less the 251 sent in the 30 minutes before the newest held one.
		expect(tailStart).toBe(12_000 - 84 - 251);

		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			unsubscribeProbe('2026-05-10', 151),
		]);
		// A bounce sent hours before the newest held one: the count sees it, the last 30 minutes do not hold it, so
		// the whole list is read; it comes once.
		setNow('2026-05-10T12:12:00Z');
		await addBounces(sandbox, [{ email_to: 'late@bounce.test', send_date: '2026-05-10 06:00:01' }]);
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items.map((item) => item.json.email)).toEqual([
			'late@bounce.test',
		]);
		const lateCalls = callsSince(sandbox, since).filter((call) => call.includes('/bounces/'));
		expect(lateCalls.slice(0, 2)).toEqual(bounceCheck);
		// Count, window start, the last 30 minutes (nothing new there), then every page from the start.
		const fullStart = lateCalls.lastIndexOf(bouncePage(0));
		expect(fullStart).toBeGreaterThanOrEqual(4);
		expect(fullStart).toBeLessThanOrEqual(6);
		const pages = lateCalls.length - fullStart;
		expect(pages).toBe(120);
		expect(lateCalls.slice(fullStart)).toEqual(
			Array.from({ length: pages }, (_, page) => bouncePage(page * 100)),
		);
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			unsubscribeProbe('2026-05-10', 151),
		]);

		// Six hours after the last full read the lists are read in full again: a change a count cannot see (a
		// bounce dropped by the service while another arrived) waits no longer than that.
		setNow('2026-05-10T18:11:00Z');
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			unsubscribeProbe('2026-05-10', 151),
		]);
		setNow('2026-05-10T18:12:01Z');
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		const fullCalls = callsSince(sandbox, since);
		expect(fullCalls[0]).toBe(bouncePage(0));
		expect(fullCalls.length).toBeGreaterThan(90);
		expect(fullCalls.slice(-2)).toEqual([
			unsubscribePage('2026-05-10'),
			unsubscribePage('2026-05-10', 100),
		]);
	}, 300_000);
});
/**
 * Three sandbox days at 10,000 bounces a day, polled every hour: what the trigger emits is compared with a full-read
 * oracle (every bounce the service listed at some poll, minus what it listed at activation), as multisets.
 */
describe('three days at 10,000 bounces a day', () => {
	useTriggerSandbox('2026-06-01T00:30:00Z', (started) => (sandbox = started));
	test('exactly what a full read at every poll would find, each once', async () => {
		const start = Date.parse('2026-06-01T00:30:00Z');
		const HOUR = 3_600_000;
		const DAY = 24 * HOUR;
		// Send times avoid the minute around each poll's window edge (HH:30), where a poll taking a second or two
		// would make "listed" depend on timing.
		const sendTime = (ms: number) => {
			const minute = new Date(ms).getUTCMinutes();
			return minute >= 29 && minute <= 31 ? ms + 3 * 60_000 : ms;
		};
		type Seed = BounceSeed & { at: number };
		const seeds: Array<Seed & { sent: number }> = [];
		let serial = 0;
		const bouncesBetween = (from: number, to: number) => {
			const batch: Array<BounceSeed & { at: number }> = [];
			for (let ms = Math.ceil(from / 8_640) * 8_640; ms < to; ms += 8_640) {
				const sent = Math.min(sendTime(ms), to - 1000);
				batch.push({ email_to: `d${serial++}@bounce.test`, send_date: serviceTime(sent), at: to });
			}
			return batch;
		};
		const seed = async (batch: Seed[]) => {
			seeds.push(
				...batch.map((bounce) => ({
					...bounce,
					sent: Date.parse(`${bounce.send_date.replace(' ', 'T')}Z`),
				})),
			);
			await addBounces(
				sandbox,
				batch.map((bounce) => omit(bounce, 'at')),
			);
		};
		const listedAt = (t: number) => {
			const counts = new Map<string, number>();
			for (const bounce of seeds) {
				const sent = bounce.sent;
				if (bounce.at <= t && sent > t - DAY && sent <= t) {
					const key = `${bounce.email_to}|${bounce.send_date}`;
					counts.set(key, (counts.get(key) ?? 0) + 1);
				}
			}
			return counts;
		};

		await seed(bouncesBetween(start - DAY, start));
		const trigger = harness(sandbox, parameters(['bounce'], { maxEventsPerPoll: 5000 }), 'staged');
		expect((await trigger.activate()).items).toEqual([]);
		const baseline = listedAt(start);
		const oracle = new Map<string, number>();
		const emitted = new Map<string, number>();
		const requests: number[] = [];

		const EVERY = 2 * HOUR;
		for (let poll = 1; poll <= 36; poll++) {
			const t = start + poll * EVERY;
			setNow(new Date(t).toISOString());
			const batch = bouncesBetween(t - EVERY, t);
			if (poll % 18 === 5) {
				// Late bounces: sent 3 hours before the newest.
				for (let k = 0; k < 3; k++)
					batch.push({
						email_to: `late${poll}-${k}@bounce.test`,
						send_date: serviceTime(sendTime(t - 3 * HOUR + k * 1000)),
						at: t,
					});
			}
			if (poll % 12 === 7) {
				// Two records identical in every field.
				const twin = {
					email_to: `twin${poll}@bounce.test`,
					send_date: serviceTime(t - 600_000),
					at: t,
				};
				batch.push(twin, { ...twin });
			}
			await seed(batch);
			for (const [key, count] of listedAt(t)) {
				const fresh = count - (baseline.get(key) ?? 0);
				if (fresh > (oracle.get(key) ?? 0)) oracle.set(key, fresh);
			}
			const since = sandbox.log.lastSeq();
			const outcome = await trigger.poll();
			expect(outcome.error).toBeUndefined();
			requests.push(callsSince(sandbox, since).length);
			for (const item of outcome.items) {
				const key = `${String(item.json.email)}|${String(item.json.eventTime)}`;
				emitted.set(key, (emitted.get(key) ?? 0) + 1);
			}
		}

		const sorted = (map: Map<string, number>) => [...map.entries()].sort();
		expect(oracle.size).toBeGreaterThan(29_000);
		expect(sorted(emitted)).toEqual(sorted(oracle));
		// The service agrees with the oracle's window.
		const total = (await (
			await fetch(`${sandbox.url}/smtp/bounces/day/total`, {
				headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
			})
		).json()) as IDataObject;
		expect(total.total).toBe([...listedAt(start + 72 * HOUR).values()].reduce((a, b) => a + b, 0));
		// Full reads (≥ 100 requests) only every 6 hours and after late bounces; the other polls read the new
		// 2 hours and the 30 minutes before (11 pages) after the count and the window start.
		const full = requests.filter((count) => count >= 100).length;
		expect(full).toBeLessThanOrEqual(12 + 2);
		expect(Math.max(...requests.filter((count) => count < 100))).toBeLessThanOrEqual(2 + 11);
	}, 600_000);
});

describe('a poll that emits exactly Max Events per Poll and leaves nothing', () => {
	useTriggerSandbox('2026-05-10T12:00:00Z', (started) => (sandbox = started));
	test('the next idle poll is one probe', async () => {
		const trigger = harness(sandbox, parameters(['unsubscribe'], { maxEventsPerPoll: 5 }));
		await trigger.activate();
		await addUnsubscribes(
			sandbox,
			Array.from({ length: 5 }, (_, index) => ({
				email: `cap${index}@example.com`,
				date: '2026-05-10 12:00:30',
			})),
		);
		setNow('2026-05-10T12:01:00Z');
		expect((await trigger.poll()).items).toHaveLength(5);
		const since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([unsubscribeProbe('2026-05-10', 5)]);
	});
});

describe('a taking poll on a long unsubscribe day', () => {
	useTriggerSandbox('2026-05-10T12:00:00Z', (started) => (sandbox = started));
	const DAY = '2026-05-10';
	const NOW = Date.parse('2026-05-10T12:00:00Z');
	const dated = (prefix: string, count: number, first: number) =>
		Array.from({ length: count }, (_, index) => ({
			email: `${prefix}${index}@example.com`,
			date: serviceTime(first + index * 1000),
		}));

	test('reads the entries after the last one held, not the day again; each new entry once', async () => {
		// 2,500 unsubscribes today, one every 14 s from 02:00 (held by the activation's baseline).
		await addUnsubscribes(
			sandbox,
			Array.from({ length: 2500 }, (_, index) => ({
				email: `held${index}@example.com`,
				date: serviceTime(NOW - 10 * 3_600_000 + index * 14_000),
			})),
		);
		const trigger = harness(sandbox, parameters(['unsubscribe']));
		let since = sandbox.log.lastSeq();
		expect((await trigger.activate()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual(
			Array.from({ length: 26 }, (_, page) => unsubscribePage(DAY, page * 100)),
		);

		// 250 new ones: the probe finds an entry after the last held one, and the day is read from there on.
		setNow('2026-05-10T12:05:00Z');
		const first = dated('new', 250, NOW + 1000);
		await addUnsubscribes(sandbox, first);
		since = sandbox.log.lastSeq();
		let outcome = await trigger.poll();
		expect(outcome.items.map((item) => item.json.email)).toEqual(first.map((entry) => entry.email));
		expect(callsSince(sandbox, since)).toEqual([
			unsubscribeProbe(DAY, 2500),
			unsubscribePage(DAY, 2500),
			unsubscribePage(DAY, 2600),
			unsubscribePage(DAY, 2700),
		]);

		// 150 more: again only the new end; then an idle poll is one probe from the new last entry.
		setNow('2026-05-10T12:10:00Z');
		const second = dated('more', 150, NOW + 400_000);
		await addUnsubscribes(sandbox, second);
		since = sandbox.log.lastSeq();
		outcome = await trigger.poll();
		expect(outcome.items.map((item) => item.json.email)).toEqual(
			second.map((entry) => entry.email),
		);
		expect(callsSince(sandbox, since)).toEqual([
			unsubscribeProbe(DAY, 2750),
			unsubscribePage(DAY, 2750),
			unsubscribePage(DAY, 2850),
		]);
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([unsubscribeProbe(DAY, 2900)]);

		// The new end lists a record the trigger holds already (here a page the service answered so): only the
		// whole day can count its copies, so the day is read in full, and only the one new entry comes.
		const held = (await (
			await fetch(`${sandbox.url}/smtp/unsubscribe?date=${DAY}&limit=1&offset=10`, {
				headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
			})
		).json()) as IDataObject[];
		const last = dated('last', 1, NOW + 700_000);
		await addUnsubscribes(sandbox, last);
		const restore = failNth(sandbox, '/smtp/unsubscribe', {
			2: {
				status: 200,
				body: [
					held[0],
					{ ...last[0], unsubscribe_by_link: 0, unsubscribe_by_user: 0, spam_complaint: 0 },
				],
			},
		});
		since = sandbox.log.lastSeq();
		outcome = await trigger.poll();
		restore();
		expect(outcome.items.map((item) => item.json.email)).toEqual(['last0@example.com']);
		expect(callsSince(sandbox, since)).toEqual([
			unsubscribeProbe(DAY, 2900),
			unsubscribePage(DAY, 2900),
			...Array.from({ length: 30 }, (_, page) => unsubscribePage(DAY, page * 100)),
		]);
		since = sandbox.log.lastSeq();
		expect((await trigger.poll()).items).toEqual([]);
		expect(callsSince(sandbox, since)).toEqual([unsubscribeProbe(DAY, 2901)]);
	}, 120_000);
});
