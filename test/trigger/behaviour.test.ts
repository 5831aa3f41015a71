import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bounceItem,
	bouncePage,
	callsSince,
	control,
	harness,
	HOUR,
	parameters,
	setNow,
	unsubscribeItem,
	unsubscribePage,
	unsubscribeProbe,
	useTriggerSandbox,
} from './helpers';
import { logger, type PollOutcome } from '../harness/poll-harness';

let sandbox: Sandbox;
useTriggerSandbox('2026-03-10T08:00:00Z', (started) => (sandbox = started));

const emails = (outcome: PollOutcome) => {
	expect(outcome.error).toBeUndefined();
	return outcome.items.map((item) => `${String(item.json.event)} ${String(item.json.email)}`);
};

describe('a gap longer than 24 hours', () => {
	test('is logged and carried on the next emitted item; unsubscribes from the gap are still caught up, bounces that left the window are not', async () => {
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		await trigger.activate();
		await trigger.poll();
		await addBounces(sandbox, [{ email_to: 'g1@bounce.test', send_date: '2026-03-10 08:30:00' }]);
		setNow('2026-03-10T09:00:00Z');
		const before = await trigger.poll();
		expect(emails(before)).toEqual(['bounce g1@bounce.test']);
		expect(before.items[0].json.metadata).toBeUndefined();

		// The workflow is off for 30 hours.
		setNow('2026-03-10T10:00:00Z');
		await addBounces(sandbox, [{ email_to: 'lost@bounce.test', send_date: '2026-03-10 10:00:00' }]);
		await addUnsubscribes(sandbox, [{ email: 'kept@example.com', date: '2026-03-10 10:00:00' }]);
		setNow('2026-03-11T15:00:00Z');
		await addBounces(sandbox, [{ email_to: 'g2@bounce.test', send_date: '2026-03-11 14:00:00' }]);

		const since = sandbox.log.lastSeq();
		const after = await trigger.poll();
		expect(emails(after)).toEqual(['unsubscribe kept@example.com', 'bounce g2@bounce.test']);
		const warning =
			"No successful poll for 30.0 hours (more than 24): bounces from that time may have left the service's 24-hour " +
			'bounce window before they could be read, and are then missing from this output';
		expect(after.items[0].json.metadata).toEqual({ warnings: [warning] });
		expect(after.items[1].json.metadata).toBeUndefined();
		expect(logger.of('warn')).toEqual([`Messaging Trigger: ${warning}`]);
		expect(callsSince(sandbox, since)).toEqual([
			bouncePage(0),
			unsubscribePage('2026-03-10'),
			unsubscribePage('2026-03-11'),
		]);

		await addBounces(sandbox, [{ email_to: 'g3@bounce.test', send_date: '2026-03-11 15:00:00' }]);
		const next = await trigger.poll();
		expect(emails(next)).toEqual(['bounce g3@bounce.test']);
		expect(next.items[0].json.metadata).toBeUndefined();
	});

	test('with nothing new right after it: the warning waits in the state for the next item', async () => {
		const trigger = harness(sandbox, parameters(['bounce']));
		await trigger.activate();
		await trigger.poll();
		setNow('2026-03-11T14:00:00Z');
		expect(await trigger.poll()).toEqual({ items: [] });
		expect((trigger.stored().messagingTrigger as IDataObject).warnings).toBeUndefined(); // legacy: nothing emitted, nothing saved yet
		await addBounces(sandbox, [
			{ email_to: 'later@bounce.test', send_date: '2026-03-11 14:30:00' },
		]);
		setNow('2026-03-11T15:00:00Z');
		const outcome = await trigger.poll();
		expect(emails(outcome)).toEqual(['bounce later@bounce.test']);
		expect(outcome.items[0].json.metadata).toEqual({
			warnings: [expect.stringMatching(/^No successful poll for 30\.0 hours/)],
		});
		expect((trigger.stored().messagingTrigger as IDataObject).warnings).toBeUndefined();
	});
});

test('changing the watched events: kept streams continue, new ones start from now, dropped ones are forgotten', async () => {
	const trigger = harness(sandbox, parameters(['bounce']));
	await trigger.activate();
	await trigger.poll();
	await addBounces(sandbox, [{ email_to: 'x1@bounce.test', send_date: '2026-03-10 08:00:01' }]);
	await addUnsubscribes(sandbox, [{ email: 'y1@example.com', date: '2026-03-10 08:00:01' }]);
	setNow('2026-03-10T08:10:00Z');
	let since = sandbox.log.lastSeq();
	expect(emails(await trigger.poll())).toEqual(['bounce x1@bounce.test']);
	// The window was empty at the last poll: the count says 1 new, read from the end of the list (here offset 0).
	expect(callsSince(sandbox, since)).toEqual([...bounceCheck, bouncePage(0)]);

	// Unsubscribes added: the bounce that arrived meanwhile still comes; the existing unsubscribe is old news.
	await addBounces(sandbox, [{ email_to: 'x2@bounce.test', send_date: '2026-03-10 08:05:00' }]);
	since = sandbox.log.lastSeq();
	expect(emails(await trigger.edit(parameters(['bounce', 'unsubscribe'])))).toEqual([
		'bounce x2@bounce.test',
	]);
	// The bounce count says one more than held: read from the bounces sent 30 minutes before the newest held one.
	expect(callsSince(sandbox, since)).toEqual([
		...bounceCheck,
		bouncePage(0),
		unsubscribePage('2026-03-10'),
	]);
	expect(logger.of('info')).toContain(
		'Messaging Trigger: watched events changed from "bounce" to "bounce,unsubscribe"; newly watched events start from now, unwatched ones are forgotten',
	);
	await addBounces(sandbox, [{ email_to: 'x3@bounce.test', send_date: '2026-03-10 08:09:00' }]);
	await addUnsubscribes(sandbox, [{ email: 'y2@example.com', date: '2026-03-10 08:08:00' }]);
	expect(emails(await trigger.poll())).toEqual([
		'unsubscribe y2@example.com',
		'bounce x3@bounce.test',
	]);

	// Bounces dropped: their state goes, and no bounce request is made.
	since = sandbox.log.lastSeq();
	expect(emails(await trigger.edit(parameters(['unsubscribe'])))).toEqual([]);
	expect(callsSince(sandbox, since)).toEqual([unsubscribeProbe('2026-03-10', 2)]);
	await trigger.poll();
	expect(Object.keys(trigger.stored().messagingTrigger as IDataObject).sort()).toEqual([
		'events',
		'lastPollAt',
		'unsubscribe',
		'version',
	]);

	// Bounces back: they start from now again; what happened while they were not watched is not replayed.
	await addBounces(sandbox, [{ email_to: 'x4@bounce.test', send_date: '2026-03-10 08:09:30' }]);
	expect(emails(await trigger.edit(parameters(['bounce', 'unsubscribe'])))).toEqual([]);
	await addBounces(sandbox, [{ email_to: 'x5@bounce.test', send_date: '2026-03-10 08:09:40' }]);
	expect(emails(await trigger.poll())).toEqual(['bounce x5@bounce.test']);
	expect(emails(await trigger.poll())).toEqual([]);
});

describe('manual mode ("Fetch Test Event")', () => {
	test('returns the most recent events and leaves the cursors untouched', async () => {
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		await trigger.activate();
		await trigger.poll();
		await addBounces(
			sandbox,
			Array.from({ length: 7 }, (_, index) => ({
				email_to: `m${index}@bounce.test`,
				send_date: `2026-03-10 07:0${index}:00`,
			})),
		);
		await addUnsubscribes(sandbox, [
			{ email: 'm-u1@example.com', date: '2026-03-10 07:03:30' },
			{ email: 'm-u2@example.com', date: '2026-03-10 07:05:30', unsubscribe_by_link: 1 },
		]);
		const stored = trigger.stored();
		const saves = trigger.saves;
		const since = sandbox.log.lastSeq();
		const manual = await trigger.manual();
		expect(manual.error).toBeUndefined();
		const bounceAt = (email: string, time: string) => bounceItem(email, `2026-03-10 ${time}`);
		const unsubscribeAt = (email: string, time: string, byLink: boolean) =>
			unsubscribeItem(email, `2026-03-10 ${time}`, { byLink });
		// The five most recent of both lists, oldest first.
		expect(manual.items.map((item) => item.json)).toEqual([
			unsubscribeAt('m-u1@example.com', '07:03:30', false),
			bounceAt('m4@bounce.test', '07:04:00'),
			bounceAt('m5@bounce.test', '07:05:00'),
			unsubscribeAt('m-u2@example.com', '07:05:30', true),
			bounceAt('m6@bounce.test', '07:06:00'),
		]);
		expect(callsSince(sandbox, since)).toEqual([
			bouncePage(0),
			unsubscribePage('2026-03-10'),
			unsubscribePage('2026-03-09'),
		]);
		// Nothing written: neither the editor's copy of the static data nor what n8n saved.
		expect(manual.storedAfter).toEqual(stored);
		expect(trigger.stored()).toEqual(stored);
		expect(trigger.saves).toBe(saves);
		// The scheduled poll still emits all nine.
		expect(emails(await trigger.poll())).toHaveLength(9);
	});

	test('with more than a page of bounces, fetches only the tail', async () => {
		const trigger = harness(sandbox, parameters(['bounce']));
		await addBounces(
			sandbox,
			Array.from({ length: 150 }, (_, index) => ({
				email_to: `t${index}@bounce.test`,
				send_date: '2026-03-10 07:00:00',
			})),
		);
		const since = sandbox.log.lastSeq();
		const manual = await trigger.manual();
		expect(manual.items.map((item) => item.json.email)).toEqual([
			't145@bounce.test',
			't146@bounce.test',
			't147@bounce.test',
			't148@bounce.test',
			't149@bounce.test',
		]);
		expect(callsSince(sandbox, since)).toEqual([bouncePage(0), bouncePage(145, 200, 5)]);
		expect(manual.storedAfter).toEqual({});
	});

	test('says clearly when there is nothing in the window', async () => {
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		const manual = await trigger.manual();
		expect(manual.items).toEqual([]);
		expect(manual.error?.message).toBe(
			"No bounces or unsubscribes in the service's window right now",
		);
		expect(manual.error?.description).toBe(
			'Bounces are listed for the last 24 hours, unsubscribes for today and yesterday (service time). ' +
				'To make one: send an email to an address that does not exist (with the sandbox: any address at bounce.test, e.g. someone@bounce.test), or add a test address with Messaging Email → Unsubscribe → Add, then fetch again.',
		);
	});
});

describe('errors', () => {
	/** A trigger past its first polls, with one bounce and one unsubscribe waiting; its state before the next poll. */
	async function withEventsPending(bounce: string, unsubscribe: string) {
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		await trigger.activate();
		await trigger.poll();
		await addBounces(sandbox, [{ email_to: bounce, send_date: '2026-03-10 07:59:00' }]);
		await addUnsubscribes(sandbox, [{ email: unsubscribe, date: '2026-03-10 07:59:00' }]);
		return { trigger, stored: trigger.stored() };
	}

	test('the email area not activated: a clear error at activation, and no state', async () => {
		await control(sandbox, 'PATCH', '/settings', { emailActivated: false });
		const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']));
		const outcome = await trigger.activate();
		expect(outcome.items).toEqual([]);
		expect(outcome.error?.constructor.name).toBe('NodeApiError');
		expect(outcome.error?.message).toBe("The account's email (SMTP) area is not activated");
		expect(outcome.error?.description).toContain(
			'No such SMTP user, you need to create SMTP account first',
		);
		expect(trigger.stored()).toEqual({});
	});

	test('a persistent 5xx fails the poll with a NodeApiError and moves nothing; the next poll emits the event once', async () => {
		const { trigger, stored } = await withEventsPending('p1@bounce.test', 'p2@example.com');
		// Bounces are read fine, unsubscribes fail three times: the bounce must not be marked as seen either.
		sandbox.faults.add({
			path: '/smtp/unsubscribe',
			method: 'GET',
			status: 503,
			body: { message: 'Service unavailable', error_code: 503 },
			times: 3,
		});
		const since = sandbox.log.lastSeq();
		const failed = await trigger.poll();
		expect(failed.items).toEqual([]);
		expect(failed.error?.constructor.name).toBe('NodeApiError');
		expect(failed.error?.message).toBe('Service unavailable (error code 503)');
		expect(failed.error?.description).toBe('Failed 3 times');
		expect(failed.error?.httpCode).toBe('503');
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			bouncePage(0),
			unsubscribeProbe('2026-03-10', 0, 503),
			unsubscribeProbe('2026-03-10', 0, 503),
			unsubscribeProbe('2026-03-10', 0, 503),
		]);
		expect(trigger.stored()).toEqual(stored);
		expect(emails(await trigger.poll())).toEqual([
			'bounce p1@bounce.test',
			'unsubscribe p2@example.com',
		]);
		expect(emails(await trigger.poll())).toEqual([]);
	});

	test.each([
		['/smtp/bounces/day/total', 'no count', { total: 'n/a' }, 'count of bounces'],
		['/smtp/bounces/day', 'no list', { total: 1, request_limit: 100 }, 'list of bounces'],
		['/smtp/unsubscribe', 'no list', { data: null }, 'list of unsubscribed entries'],
		// The service answers a bare array; Get Many and the trigger read it one way (records/unsubscribes.ts).
		[
			'/smtp/unsubscribe',
			'the list wrapped in data',
			{ data: [{ email: 'q2@example.com', date: '2026-03-10 09:00:00' }] },
			'list of unsubscribed entries',
		],
		// One entry that is not a record: dropping it could lose an event, so the whole answer is refused.
		[
			'/smtp/bounces/day',
			'an entry that is not a record',
			{ total: 1, emails: ['q1@bounce.test'] },
			'list of bounces',
		],
		[
			'/smtp/unsubscribe',
			'an entry that is not a record',
			[{ email: 'q2@example.com' }, 7],
			'list of unsubscribed entries',
		],
	])(
		'GET %s answered by JSON with %s (a proxy): the poll fails quoting it, moves nothing, and the next poll emits each event once',
		async (path, _problem, body, what) => {
			const { trigger, stored } = await withEventsPending('q1@bounce.test', 'q2@example.com');
			sandbox.faults.add({ path, method: 'GET', status: 200, body, times: 1 });
			const failed = await trigger.poll();
			expect(failed.items).toEqual([]);
			expect(failed.error?.constructor.name).toBe('NodeApiError');
			expect(failed.error?.message).toBe(
				`The answer to GET ${path} holds no ${what}: ${JSON.stringify(JSON.stringify(body))}`,
			);
			expect(trigger.stored()).toEqual(stored);
			expect(emails(await trigger.poll())).toEqual([
				'bounce q1@bounce.test',
				'unsubscribe q2@example.com',
			]);
			expect(emails(await trigger.poll())).toEqual([]);
		},
	);

	test('bad configuration fails at activation, before any request', async () => {
		const since = sandbox.log.lastSeq();
		const noEvents = await harness(sandbox, parameters([])).activate();
		expect(noEvents.error?.message).toBe('Events: choose at least one event');
		const badZone = await harness(
			sandbox,
			parameters(['bounce']),
			'legacy',
			'Mars/Olympus',
		).activate();
		expect(badZone.error?.message).toBe(
			'Account Time Zone: "Mars/Olympus" is not a time zone name',
		);
		const unknownEvent = await harness(sandbox, parameters(['bounce', 'opened'])).activate();
		expect(unknownEvent.error?.message).toBe('Events: "opened" is not an event of this trigger');
		expect(callsSince(sandbox, since)).toEqual([]);
	});
});

test('"include the last 24 hours" emits the window once on the first activation, never again', async () => {
	setNow('2026-03-25T06:00:00Z');
	await addBounces(sandbox, [
		{ email_to: 'in@bounce.test', send_date: '2026-03-24 07:00:00' },
		{ email_to: 'gone@bounce.test', send_date: '2026-03-24 05:00:00' },
	]);
	await addUnsubscribes(sandbox, [
		{ email: 'too-old@example.com', date: '2026-03-24 05:30:00' },
		{ email: 'day-before@example.com', date: '2026-03-24 07:00:00' },
		{ email: 'today@example.com', date: '2026-03-25 05:00:00' },
	]);
	const trigger = harness(
		sandbox,
		parameters(['bounce', 'unsubscribe'], { includeLast24Hours: true }),
	);
	const since = sandbox.log.lastSeq();
	expect(emails(await trigger.activate())).toEqual([
		'bounce in@bounce.test',
		'unsubscribe day-before@example.com',
		'unsubscribe today@example.com',
	]);
	expect(callsSince(sandbox, since)).toEqual([
		bouncePage(0),
		unsubscribePage('2026-03-24'),
		unsubscribePage('2026-03-25'),
	]);
	expect(emails(await trigger.poll())).toEqual([]);
	trigger.crash();
	expect(emails(await trigger.activate('init'))).toEqual([]);
	expect(emails(await trigger.poll())).toEqual([]);
});

test('an unsubscribe removed from the list mid-day (offsets shift) makes no new one go missing', async () => {
	const trigger = harness(sandbox, parameters(['unsubscribe']));
	await trigger.activate();
	await trigger.poll();
	await addUnsubscribes(
		sandbox,
		Array.from({ length: 150 }, (_, index) => ({
			email: `r${index}@example.com`,
			date: '2026-03-10 08:00:01',
		})),
	);
	expect(emails(await trigger.poll())).toHaveLength(150);
	// Ten early entries are removed (a resubscription) and five new ones arrive.
	const response = await fetch(`${sandbox.url}/smtp/unsubscribe`, {
		method: 'DELETE',
		headers: {
			Authorization: `Bearer ${sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({
			emails: Array.from({ length: 10 }, (_, index) => `r${index}@example.com`),
		}),
	});
	expect(response.status).toBe(200);
	await addUnsubscribes(
		sandbox,
		Array.from({ length: 5 }, (_, index) => ({
			email: `new${index}@example.com`,
			date: '2026-03-10 08:00:02',
		})),
	);
	expect(emails(await trigger.poll())).toEqual(
		Array.from({ length: 5 }, (_, index) => `unsubscribe new${index}@example.com`),
	);
	expect(emails(await trigger.poll())).toEqual([]);
});

test("account time zone (the credential's): times read in it, and its days decide which unsubscribes are read", async () => {
	setNow('2026-03-26T23:30:00Z'); // 00:30 on the 27th in Berlin (UTC+1 until the end of March)
	const trigger = harness(
		sandbox,
		parameters(['bounce', 'unsubscribe']),
		'legacy',
		'Europe/Berlin',
	);
	let since = sandbox.log.lastSeq();
	await trigger.activate();
	expect(callsSince(sandbox, since)).toEqual([
		bouncePage(0),
		unsubscribePage('2026-03-26'),
		unsubscribePage('2026-03-27'),
	]);
	await addBounces(sandbox, [{ email_to: 'tz@bounce.test', send_date: '2026-03-26 10:00:00' }]);
	since = sandbox.log.lastSeq();
	const outcome = await trigger.poll();
	expect(outcome.items.map((item) => [item.json.eventTime, item.json.eventTimeIso])).toEqual([
		['2026-03-26 10:00:00', '2026-03-26T09:00:00.000Z'],
	]);
	expect(callsSince(sandbox, since)).toEqual([
		...bounceCheck,
		bouncePage(0),
		unsubscribeProbe('2026-03-26', 0),
		unsubscribeProbe('2026-03-27', 0),
	]);
});

test('clock skew: the service ahead of n8n near midnight delays an unsubscribe by a poll, never loses it', async () => {
	setNow('2026-03-10T23:00:00Z');
	sandbox.clock.advance(2 * HOUR); // the service's clock reads 01:00 on the 11th
	const trigger = harness(sandbox, parameters(['unsubscribe']));
	await trigger.activate();
	await trigger.poll();
	await addUnsubscribes(sandbox, [{ email: 'early@example.com' }]); // dated by the service's clock
	const since = sandbox.log.lastSeq();
	expect(emails(await trigger.poll())).toEqual([]);
	expect(callsSince(sandbox, since)).toEqual([unsubscribeProbe('2026-03-10', 0)]);
	setNow('2026-03-11T00:10:00Z');
	expect(emails(await trigger.poll())).toEqual(['unsubscribe early@example.com']);
	expect(emails(await trigger.poll())).toEqual([]);
});

test("clock skew: the service behind n8n dates an unsubscribe yesterday after n8n's midnight; yesterday is still read", async () => {
	setNow('2026-03-10T23:50:00Z');
	const trigger = harness(sandbox, parameters(['unsubscribe']));
	await trigger.activate();
	await trigger.poll();
	setNow('2026-03-11T00:05:00Z');
	expect(emails(await trigger.poll())).toEqual([]);
	// The service's clock is 10 minutes behind: at n8n's 00:10 it writes 23:59:59 of the 10th.
	setNow('2026-03-11T00:10:00Z');
	await addUnsubscribes(sandbox, [{ email: 'behind@example.com', date: '2026-03-10 23:59:59' }]);
	const since = sandbox.log.lastSeq();
	expect(emails(await trigger.poll())).toEqual(['unsubscribe behind@example.com']);
	// The 10th's probe finds an entry: that day is read in full; the 11th's probe finds nothing.
	expect(callsSince(sandbox, since)).toEqual([
		unsubscribeProbe('2026-03-10', 0),
		unsubscribePage('2026-03-10'),
		unsubscribeProbe('2026-03-11', 0),
	]);
	// From 03:00 (n8n's clock, service zone) yesterday is closed and no longer read.
	setNow('2026-03-11T03:00:00Z');
	await trigger.poll();
	const later = sandbox.log.lastSeq();
	await trigger.poll();
	expect(callsSince(sandbox, later)).toEqual([unsubscribeProbe('2026-03-11', 0)]);
});

test('a bounce dated more than a day ahead of n8n is emitted but does not move the retention floor', async () => {
	const trigger = harness(sandbox, parameters(['bounce']));
	await trigger.activate();
	await trigger.poll();
	// The sandbox lists only bounces sent before its now: its clock goes two days ahead of n8n's.
	sandbox.clock.advance(48 * HOUR);
	await addBounces(sandbox, [{ email_to: 'future@bounce.test', send_date: '2026-03-12 07:00:00' }]);
	expect(emails(await trigger.poll())).toEqual(['bounce future@bounce.test']);
	// Had `newest` become 2026-03-12 07:00, every bounce sent before 2026-03-11 06:00 would now be ignored.
	expect((trigger.stored().messagingTrigger as { bounce: IDataObject }).bounce).toEqual({
		seen: { '2026-03-12 07': expect.stringMatching(/^[\w-]{8}$/) },
		seconds: { '2026-03-12 07': 'AA' },
		fullReadAt: expect.any(Number),
	});
});
