/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { formatServiceDate } from '../../sandbox/core/clock';
import { N8nInstance } from '../../scripts/n8n/instance';
import { withRawBounce, withRawUnsubscribe } from '../trigger/helpers';
import {
	SANDBOX_CREDENTIALS,
	credentialRecords,
	example,
	executionsOf,
	itemsOf,
	pollingTriggerWorkflow,
	sandboxRequest,
	waitFor,
	waitForPolls,
	wire,
	type Workflow,
} from './helpers';

/**
 * The bounce example (Messaging Trigger → look-up → unsubscribe + remove the phone) and a trigger watching both
 * event types, published in a running n8n 2.40.7 (`n8n start`, one-minute polls), while the sandbox's day ends:
 * bounces and unsubscribes are created before and after the sandbox's midnight, some "late" (dated before
 * midnight, appearing after it). Read back through n8n's public API, every event must start exactly one item.
 *
 * Time: the sandbox clock runs ahead of real time by a whole number of minutes so that its midnight falls
 * ~2.5 minutes after n8n starts; the credential's Account Time Zone is that same offset (`+HH:MM`), i.e. the sandbox
 * account is in that zone and n8n and the service agree on the time, as in production.
 */
const BOUNCE_WORKFLOW = 'msgExBounceClean';
const ALL_EVENTS_WORKFLOW = 'e2eTriggerEvents';
const LIST = 4242;
const PHONES: Record<string, string> = {
	'ann@bounce.test': '380986235698',
	'bob@bounce.test': '380631234567',
};
const OTHER_PHONE = '380500000001';

let sandbox: Sandbox;
let n8n: N8nInstance;
const timings: Record<string, number> = {};

interface SeededBounce {
	email_to: string;
	subject: string;
	send_date: string;
}
interface SeededUnsubscribe {
	email: string;
	date: string;
	unsubscribe_by_link?: number;
	spam_complaint?: number;
}

const control = (method: string, path: string, body?: unknown) =>
	sandboxRequest(sandbox.url, method, `/__sandbox${path}`, body);

const bounces: SeededBounce[] = [];
const unsubscribes: SeededUnsubscribe[] = [];

async function seed(newBounces: SeededBounce[], newUnsubscribes: SeededUnsubscribe[]) {
	if (newBounces.length) await control('POST', '/email/bounces', { bounces: newBounces });
	if (newUnsubscribes.length)
		await control('POST', '/email/unsubscribes', { unsubscribes: newUnsubscribes });
	bounces.push(...newBounces);
	unsubscribes.push(...newUnsubscribes);
}

const sandboxNow = () => formatServiceDate(sandbox.clock.now());
/**
 * The start of each bounce poll: an idle-capable poll asks the window's count first; a full read starts at the first
 * page. A count-mode poll may also read the first page, right after its one-record probe (`limit=1`): not a start.
 */
const bouncePolls = () => {
	const ok = sandbox.log.all().filter((entry) => entry.status === 200);
	return ok.filter((entry, index) => {
		if (entry.path === '/smtp/bounces/day/total') return true;
		if (entry.path !== '/smtp/bounces/day' || entry.rawQuery !== 'limit=100&offset=0') return false;
		return !ok
			.slice(0, index)
			.some(
				(earlier) =>
					earlier.path === '/smtp/bounces/day' &&
					earlier.rawQuery === 'limit=1&offset=0' &&
					entry.receivedAt - earlier.receivedAt < 3_000,
			);
	});
};

/** Resolves once both active triggers have polled (each polls once a minute) after `since` (real ms). */
const bothPolledAfter = (since: number, label: string) =>
	waitForPolls(bouncePolls, 2, since, label, timings);

const allEventsWorkflow = (): Workflow =>
	pollingTriggerWorkflow(
		ALL_EVENTS_WORKFLOW,
		'e2e: every bounce and unsubscribe',
		'9d3c0a52-7a11-4c4e-9d8e-5f0c2b1a7e01',
		{
			events: ['bounce', 'unsubscribe'],
		},
	);

/** The sandbox account's zone as an offset name (`+10:47`), valid for Intl on Node 24. */
function offsetZone(minutes: number): string {
	return `+${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The instant a sandbox time (wall clock in the offset zone) denotes. */
function instantOf(serviceTime: string, offsetMinutes: number): string {
	return new Date(
		Date.parse(`${serviceTime.replace(' ', 'T')}Z`) - offsetMinutes * 60_000,
	).toISOString();
}

afterAll(async () => {
	if (n8n?.pid) timings['n8n pid'] = n8n.pid;
	await n8n?.dispose();
	await sandbox?.close();
	process.stdout.write(`\ne2e trigger timings (ms): ${JSON.stringify(timings, null, 2)}\n`);
});

it('every bounce and unsubscribe across the sandbox midnight starts exactly one item; the bounce example unsubscribes and removes phones', async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.e2e.config.js');
	const testStarted = Date.now();
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });

	// Sandbox midnight at a whole real minute, at least 2 minutes ahead (imports + start take ~35 s, then one poll before midnight).
	const midnightReal = Math.ceil((Date.now() + 120_000) / 60_000) * 60_000;
	const offsetMinutes = Math.round(
		((86_400_000 - (midnightReal % 86_400_000)) % 86_400_000) / 60_000,
	);
	sandbox.clock.advance(offsetMinutes * 60_000);
	const zone = offsetZone(offsetMinutes);
	const midnight = formatServiceDate(new Date(midnightReal + offsetMinutes * 60_000));
	expect(midnight.slice(11)).toBe('00:00:00');
	const today = midnight.slice(0, 10);
	const yesterday = formatServiceDate(new Date(midnightReal + offsetMinutes * 60_000 - 1000)).slice(
		0,
		10,
	);

	// The mailing list the example removes phones from, and events from before activation (never emitted).
	const add = await fetch(`${sandbox.url}/sms/numbers`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${SANDBOX_CREDENTIALS.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ addressBookId: LIST, phones: [...Object.values(PHONES), OTHER_PHONE] }),
	});
	expect(add.status).toBe(200);
	await control('POST', '/email/bounces', {
		bounces: [
			{ email_to: 'before@bounce.test', subject: 'Before activation', send_date: sandboxNow() },
		],
	});
	await control('POST', '/email/unsubscribes', {
		unsubscribes: [{ email: 'before@example.com', date: sandboxNow() }],
	});
	sandbox.log.clear();

	let started = Date.now();
	n8n = await N8nInstance.create({ tarball });
	await n8n.importCredentials(credentialRecords(sandbox.url, zone));
	const bounceExample = example('bounce-cleanup-trigger.json');
	await n8n.importWorkflows([bounceExample, allEventsWorkflow()]);
	await n8n.activate(BOUNCE_WORKFLOW);
	await n8n.activate(ALL_EVENTS_WORKFLOW);
	timings['create + import + publish'] = Date.now() - started;

	started = Date.now();
	await n8n.start();
	timings['start (REST ready, owner, API key)'] = Date.now() - started;
	expect(n8n.pid).toBeGreaterThan(0);

	// Poll 0 (at activation) only takes the baseline.
	await bothPolledAfter(0, 'activation polls');
	expect(Date.now()).toBeLessThan(midnightReal - 60_000);
	const activatedAt = Date.now();

	// Before midnight.
	let now = sandboxNow();
	await seed(
		[
			{ email_to: 'ann@bounce.test', subject: 'Order 1', send_date: now },
			{ email_to: 'xeno@bounce.test', subject: 'Order 2', send_date: now },
		],
		[{ email: 'u1@example.com', date: now, unsubscribe_by_link: 1 }],
	);
	await bothPolledAfter(Date.now(), 'poll 1 (before midnight)');
	now = sandboxNow();
	expect(now < midnight).toBe(true);
	await seed(
		[{ email_to: 'bob@bounce.test', subject: 'Order 3', send_date: now }],
		[{ email: 'u2@example.com', date: now, spam_complaint: 1 }],
	);

	// After midnight: today's events, and "late" ones dated just before midnight that appear only now.
	await waitFor(
		'the sandbox midnight',
		() => (Date.now() > midnightReal + 1500 ? true : undefined),
		240_000,
	);
	now = sandboxNow();
	expect(now.slice(0, 10)).toBe(today);
	await seed(
		[
			{ email_to: 'carl@bounce.test', subject: 'Order 4', send_date: now },
			{ email_to: 'dave@bounce.test', subject: 'Order 5', send_date: `${yesterday} 23:59:59` },
		],
		[
			{ email: 'u3@example.com', date: now },
			{ email: 'u4@example.com', date: `${yesterday} 23:59:58` },
		],
	);
	await bothPolledAfter(Date.now(), 'first poll after midnight');

	// Each bounce the example handles adds an unsubscribe (dated when its execution ran): those are events too.
	const expectedBounces = bounces.map((bounce) => bounce.email_to).sort();
	const expectedUnsubscribes = [
		...unsubscribes.map((entry) => entry.email),
		...expectedBounces,
	].sort();
	const emitted = async () => {
		const executions = await executionsOf(n8n, ALL_EVENTS_WORKFLOW);
		return executions.flatMap((execution) => itemsOf(execution, 'Messaging Trigger'));
	};
	await waitFor(
		'every event to be emitted',
		async () =>
			(await emitted()).length >= expectedBounces.length + expectedUnsubscribes.length
				? true
				: undefined,
		130_000,
		2000,
	);
	// One more poll of each: nothing may come twice.
	await bothPolledAfter(Date.now(), 'a quiet poll');
	await waitFor(
		'executions to finish',
		async () => {
			const all = [
				...(await executionsOf(n8n, ALL_EVENTS_WORKFLOW)),
				...(await executionsOf(n8n, BOUNCE_WORKFLOW)),
			];
			return all.every((execution) => execution.finished || execution.status === 'error')
				? true
				: undefined;
		},
		60_000,
		1000,
	);
	timings['polling phase (activation → last poll)'] = Date.now() - activatedAt;

	// ---- the watcher of both events: each event exactly once, with the trigger's exact item ----
	const allEvents = await executionsOf(n8n, ALL_EVENTS_WORKFLOW);
	expect(allEvents.map((execution) => execution.status)).toEqual(allEvents.map(() => 'success'));
	const items = allEvents.flatMap((execution) => itemsOf(execution, 'Messaging Trigger'));
	const bounceItems = items.filter((item) => item.event === 'bounce');
	const unsubscribeItems = items.filter((item) => item.event === 'unsubscribe');
	expect(bounceItems.map((item) => item.email).sort()).toEqual(expectedBounces);
	expect(unsubscribeItems.map((item) => item.email).sort()).toEqual(expectedUnsubscribes);
	expect(items).toHaveLength(expectedBounces.length + expectedUnsubscribes.length);
	for (const bounce of bounces) {
		expect(bounceItems.find((item) => item.email === bounce.email_to)).toEqual(
			withRawBounce({
				event: 'bounce',
				email: bounce.email_to,
				eventTime: bounce.send_date,
				eventTimeIso: instantOf(bounce.send_date, offsetMinutes),
				sender: 'sender@sandbox.test',
				subject: bounce.subject,
				smtpCode: 550,
				smtpSubcode: '5.1.1',
				smtpMessage: 'User unknown',
				bounceType: 'hard',
			}),
		);
	}
	for (const entry of unsubscribes) {
		expect(unsubscribeItems.find((item) => item.email === entry.email)).toEqual(
			withRawUnsubscribe({
				event: 'unsubscribe',
				email: entry.email,
				eventTime: entry.date,
				eventTimeIso: instantOf(entry.date, offsetMinutes),
				byLink: entry.unsubscribe_by_link === 1,
				byUser: false,
				spamComplaint: entry.spam_complaint === 1,
			}),
		);
	}
	// The unsubscribes the example made: by the user (the API), dated in the sandbox's day when they ran.
	for (const email of expectedBounces) {
		const item = unsubscribeItems.find((candidate) => candidate.email === email)!;
		expect(item).toMatchObject({
			event: 'unsubscribe',
			byLink: false,
			byUser: true,
			spamComplaint: false,
		});
		expect([yesterday, today]).toContain(String(item.eventTime).slice(0, 10));
	}
	// Both days were read after midnight (the late unsubscribe is dated yesterday).
	const unsubscribeReads = sandbox.log
		.all()
		.filter((entry) => entry.path === '/smtp/unsubscribe' && entry.method === 'GET');
	// Two triggers and the example share one account (10 requests a second), so a read may meet the service's
	// rate limit; the transport then reads again. Nothing else may fail, and both days must have been read.
	expect(
		unsubscribeReads.filter((entry) => entry.status !== 200).map((entry) => entry.status),
	).toEqual(unsubscribeReads.filter((entry) => entry.status !== 200).map(() => 429));
	const readDays = unsubscribeReads
		.filter((entry) => entry.status === 200)
		.map((entry) => entry.query.date);
	expect(new Set(readDays)).toEqual(new Set([yesterday, today]));

	// ---- the bounce example: one item per bounce, look-up, unsubscribe, phone removed ----
	const cleanups = await executionsOf(n8n, BOUNCE_WORKFLOW);
	expect(cleanups.map((execution) => execution.status)).toEqual(cleanups.map(() => 'success'));
	const handled = cleanups.flatMap((execution) => itemsOf(execution, 'On Bounce'));
	expect(handled.map((item) => item.email).sort()).toEqual(expectedBounces);
	const lookedUp = cleanups.flatMap((execution) => itemsOf(execution, 'Look Up Phone'));
	expect(lookedUp.sort((a, b) => String(a.email).localeCompare(String(b.email)))).toEqual(
		expectedBounces.map((email) => ({
			email,
			reason: '550 User unknown',
			phone: PHONES[email] ?? '',
		})),
	);
	expect(
		cleanups
			.flatMap((execution) => itemsOf(execution, 'Add to Unsubscribe List'))
			.sort((a, b) => String(a.email).localeCompare(String(b.email))),
	).toEqual(
		expectedBounces.map((email) => ({ email, comment: 'Bounced: 550 User unknown', result: true })),
	);
	const removed = cleanups.flatMap((execution) => itemsOf(execution, 'Remove from SMS List'));
	expect(removed.flatMap((item) => item.phones as string[]).sort()).toEqual(
		Object.values(PHONES).sort(),
	);

	// The requests the example made: one unsubscribe request per execution (all its bounces), one removal per
	// execution with a known phone.
	const writes = sandbox.log
		.all()
		.filter((entry) => entry.method !== 'GET' && entry.path !== '/oauth/access_token');
	const unsubscribeBodies = writes.filter((entry) => entry.path === '/smtp/unsubscribe').map(wire);
	expect(unsubscribeBodies).toHaveLength(cleanups.length);
	for (const request of unsubscribeBodies)
		expect(request).toMatchObject({ method: 'POST', query: {} });
	expect(
		unsubscribeBodies
			.flatMap(
				(request) => (request.body as { emails: Array<{ email: string; comment: string }> }).emails,
			)
			.sort((a, b) => a.email.localeCompare(b.email)),
	).toEqual(expectedBounces.map((email) => ({ email, comment: 'Bounced: 550 User unknown' })));
	const removals = writes.filter((entry) => entry.path === '/sms/numbers').map(wire);
	for (const request of removals)
		expect(request).toMatchObject({ method: 'DELETE', query: {}, body: { addressBookId: LIST } });
	expect(
		removals.flatMap((request) => (request.body as { phones: string[] }).phones).sort(),
	).toEqual(Object.values(PHONES).sort());
	expect(writes).toHaveLength(unsubscribeBodies.length + removals.length);
	const state = (await control('GET', '/sms/state')) as {
		lists: Array<{ id: number; phones: Record<string, unknown> }>;
	};
	expect(Object.keys(state.lists.find((list) => list.id === LIST)!.phones)).toEqual([OTHER_PHONE]);

	// ---- stop n8n by its process id ----
	const pid = n8n.pid!;
	started = Date.now();
	await n8n.stop();
	timings.stop = Date.now() - started;
	expect(() => process.kill(pid, 0)).toThrow();
	timings.total = Date.now() - testStarted;
});
