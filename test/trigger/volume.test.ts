import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bouncePage,
	callsSince,
	failNth,
	harness,
	parameters,
	setNow,
	unsubscribePage,
	useTriggerSandbox,
} from './helpers';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `YYYY-MM-DD HH:MM:SS` for `seconds` after midnight UTC of `day`. */
const at = (day: string, seconds: number) => {
	const date = new Date(Date.parse(`${day}T00:00:00Z`) + seconds * 1000);
	return `${day} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
};

let sandbox: Sandbox;
useTriggerSandbox('2026-03-05T12:00:00Z', (started) => (sandbox = started));

test('2,500 bounces in one poll: paged, capped at 1,000 per poll, the rest carried over (through a restart), with a 429, two 500s and a dropped connection mid-paging', async () => {
	const trigger = harness(sandbox, parameters(['bounce'], { maxEventsPerPoll: 1000 }));
	expect((await trigger.activate()).items).toEqual([]);
	expect((await trigger.poll()).items).toEqual([]);

	// Two bounces per second from 10:00:00 on, inserted newest first (the list is ordered by send time, then insertion).
	const seeds = Array.from({ length: 2500 }, (_, index) => ({
		email_to: `bulk${pad(index, 4)}@bounce.test`,
		send_date: at('2026-03-05', 36_000 + Math.floor(index / 2)),
	}));
	await addBounces(sandbox, [...seeds].reverse());
	const order = [...seeds].sort(
		(a, b) => a.send_date.localeCompare(b.send_date) || b.email_to.localeCompare(a.email_to),
	);

	const restore = failNth(sandbox, '/smtp/bounces/day', {
		6: {
			status: 429,
			body: { message: 'More than 10 requests per second', error_code: 2020202020 },
			headers: { 'Retry-After': '0' },
		},
		10: { status: 500, body: { message: 'Internal server error', error_code: 500 } },
		11: { status: 502, body: { message: 'Bad gateway', error_code: 502 } },
		13: { drop: true },
	});
	let since = sandbox.log.lastSeq();
	const first = await trigger.poll();
	restore();
	expect(first.error).toBeUndefined();
	expect(first.items.map((item) => item.json.email)).toEqual(
		order.slice(0, 1000).map((seed) => seed.email_to),
	);
	// The count (2,500 against 0 held) sends the poll to the end of the list, here its start. The failed pages are
	// asked again (same offset) within the poll; paging stops once the cap is reached.
	expect(callsSince(sandbox, since)).toEqual([
		...bounceCheck,
		bouncePage(0),
		bouncePage(100),
		bouncePage(200),
		bouncePage(300),
		bouncePage(400, 429),
		bouncePage(400),
		bouncePage(500),
		bouncePage(600),
		bouncePage(700, 500),
		bouncePage(700, 502),
		bouncePage(700),
		bouncePage(800, 0),
		bouncePage(800),
		bouncePage(900),
	]);

	since = sandbox.log.lastSeq();
	const second = await trigger.poll();
	expect(second.items.map((item) => item.json.email)).toEqual(
		order.slice(1000, 2000).map((seed) => seed.email_to),
	);
	// 1,000 held, 1,500 more listed: new ones are looked for among the bounces sent from 30 minutes before the newest
	// held one on, which here is the whole list (all were sent within 21 minutes).
	expect(callsSince(sandbox, since)).toEqual([
		...bounceCheck,
		...Array.from({ length: 20 }, (_, page) => bouncePage(page * 100)),
	]);

	// n8n restarts between polls: the remainder comes with the activation poll, from the saved static data.
	trigger.crash();
	since = sandbox.log.lastSeq();
	const third = await trigger.activate('init');
	expect(third.items.map((item) => item.json.email)).toEqual(
		order.slice(2000).map((seed) => seed.email_to),
	);
	expect(callsSince(sandbox, since)).toEqual([
		...bounceCheck,
		...Array.from({ length: 26 }, (_, page) => bouncePage(page * 100)),
	]);
	expect((await trigger.poll()).items).toEqual([]);

	const all = [...first.items, ...second.items, ...third.items].map((item) => item.json.email);
	expect(all).toHaveLength(2500);
	expect(new Set(all).size).toBe(2500);
});

test('10,000 events (5,000 bounces, 5,000 unsubscribes): every one emitted once; static data measured, then pruned', async () => {
	setNow('2026-03-20T20:00:00Z');
	const trigger = harness(
		sandbox,
		parameters(['bounce', 'unsubscribe'], { maxEventsPerPoll: 4000 }),
	);
	expect((await trigger.activate()).items).toEqual([]);
	expect((await trigger.poll()).items).toEqual([]);
	const emptyBytes = trigger.storedBytes();

	await addBounces(
		sandbox,
		Array.from({ length: 5000 }, (_, index) => ({
			email_to: `b${index}@bounce.test`,
			send_date: at('2026-03-20', 72_000 + Math.floor(index / 10)),
		})),
	);
	await addUnsubscribes(
		sandbox,
		Array.from({ length: 5000 }, (_, index) => ({
			email: `u${index}@example.com`,
			date: at('2026-03-20', 72_000 + Math.floor(index / 10)),
		})),
	);
	setNow('2026-03-20T22:00:00Z');

	const seen: IDataObject[] = [];
	for (let poll = 0; poll < 3; poll++)
		seen.push(...(await trigger.poll()).items.map((item) => item.json));
	expect(seen).toHaveLength(10_000);
	expect((await trigger.poll()).items).toEqual([]);
	expect(new Set(seen.map((json) => `${String(json.event)}|${String(json.email)}`)).size).toBe(
		10_000,
	);

	// 8 bytes of digest per event, bucketed by hour (bounces) and day (unsubscribes), + 2 bytes per bounce for its
	// second within the hour.
	const fullBytes = trigger.storedBytes();
	expect(fullBytes).toBeGreaterThan(90_000);
	expect(fullBytes).toBeLessThan(90_000 + 500);

	// A day and a half later the service no longer lists any of them, and the state forgets them.
	setNow('2026-03-22T10:00:00Z');
	await addBounces(sandbox, [{ email_to: 'next@bounce.test', send_date: '2026-03-22 09:00:00' }]);
	const since = sandbox.log.lastSeq();
	expect((await trigger.poll()).items.map((item) => item.json.email)).toEqual(['next@bounce.test']);
	expect(callsSince(sandbox, since)).toEqual([
		bouncePage(0),
		unsubscribePage('2026-03-20'),
		unsubscribePage('2026-03-20', 100),
		...Array.from({ length: 49 }, (_, page) => unsubscribePage('2026-03-20', (page + 2) * 100)),
		unsubscribePage('2026-03-21'),
		unsubscribePage('2026-03-22'),
	]);
	const prunedBytes = trigger.storedBytes();
	// What is left: one digest, its second, the day's list marker (`0:`, `1:<digest>`…).
	expect(prunedBytes).toBeLessThan(emptyBytes + 90);
	expect(trigger.stored().messagingTrigger).toMatchObject({
		bounce: {
			newest: '2026-03-22 09:00:00',
			seen: { '2026-03-22 09': expect.stringMatching(/^[\w-]{8}$/) },
		},
		unsubscribe: { from: '2026-03-22', seen: {} },
	});
});
