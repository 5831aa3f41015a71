import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	addBounces,
	callsSince,
	control,
	failNth,
	harness,
	parameters,
	setNow,
	trigger as messagingTrigger,
	useTriggerSandbox,
} from './helpers';
import { logger, PollHarness, type PersistenceMode } from '../harness/poll-harness';
import {
	ALL_SMS,
	cancelCampaign,
	deleteCampaign,
	infoCall,
	listCall,
	sendCampaign,
	smsCalls,
	smsEvents,
} from './sms-helpers';

let sandbox: Sandbox;
useTriggerSandbox('2026-03-10T08:00:00Z', (started) => (sandbox = started));

/** Five UA phones; the sandbox does not deliver numbers ending in 0. */
const FIVE = ['380671234561', '380671234562', '380671234563', '380671234570', '380671234580'];
const sms = (events = ALL_SMS, options: IDataObject = {}) => parameters(events, options);

function withState(persisted: IDataObject, params: INodeParameters, persistence?: PersistenceMode) {
	return new PollHarness({
		nodeType: messagingTrigger,
		parameters: params,
		credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
		persisted,
		persistence,
	});
}

const smsState = (trigger: PollHarness) => trigger.stored().messagingTriggerSms as IDataObject;

describe.each<PersistenceMode>(['legacy', 'staged'])('n8n persistence: %s', (persistence) => {
	test('a campaign of 5 phones going 0 → 1 → 2 / 12 across polls: each status once per phone, 1 list read + 1 read per campaign still delivering', async () => {
		const trigger = harness(sandbox, sms(), persistence);
		let since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.activate())).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:00:00')]);
		// The first scheduled poll (n8n 2's durable cursor does not commit an activation poll that emits nothing).
		expect(smsEvents(await trigger.poll())).toEqual([]);

		setNow('2026-03-10T08:01:00Z');
		const id = await sendCampaign(sandbox, FIVE); // moderated: sending starts 08:03:00
		setNow('2026-03-10T08:02:00Z');
		since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		// Its send date has not come: the details are not read.
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:02:00')]);

		setNow('2026-03-10T08:03:30Z');
		since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual(FIVE.map((phone) => `smsSent ${id} ${phone}`));
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:03:30'), infoCall(id)]);
		expect(smsState(trigger).campaigns).toEqual({
			[id]: {
				created: '2026-03-10 08:01:00',
				sendDate: '2026-03-10 08:03:00',
				phones: expect.stringMatching(/^[\w-]{12}$/),
				levels: '11111',
			},
		});

		setNow('2026-03-10T08:04:30Z');
		since = sandbox.log.lastSeq();
		const final = await trigger.poll();
		expect(smsEvents(final)).toEqual([
			`smsDelivered ${id} 380671234561`,
			`smsDelivered ${id} 380671234562`,
			`smsDelivered ${id} 380671234563`,
			`smsNotDelivered ${id} 380671234570`,
			`smsNotDelivered ${id} 380671234580`,
		]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:04:30'), infoCall(id)]);
		const seenAt = final.items[0].json.statusSeenAt as string;
		expect(seenAt.startsWith('2026-03-10T08:04:3')).toBe(true);
		expect(final.items[0].json).toEqual({
			event: 'smsDelivered',
			campaignId: id,
			phone: '380671234561',
			status: 2,
			statusName: 'Delivered',
			countryCode: 'UA',
			moneySpent: 0.03,
			currency: 'USD',
			senderName: 'Sandbox',
			sendDate: '2026-03-10 08:03:00',
			sendDateIso: '2026-03-10T08:03:00.000Z',
			statusSeenAt: seenAt,
			// The service's record: the phone as a JSON number, the country code key with a Cyrillic "с".
			raw: {
				phone: 380671234561,
				status: 2,
				status_explain: 'Delivered',
				'\u0441ountry_code': 'UA',
				money_spent: 0.03,
			},
		});
		expect(final.items[3].json).toMatchObject({
			event: 'smsNotDelivered',
			phone: '380671234570',
			status: 12,
			statusName: 'Not delivered',
		});
		// All final: the campaign shrinks to its dates and is not read again.
		expect(smsState(trigger).campaigns).toEqual({
			[id]: { created: '2026-03-10 08:01:00', sendDate: '2026-03-10 08:03:00', done: true },
		});

		setNow('2026-03-10T08:10:00Z');
		since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:10:00')]);
	});

	test('restart between polls: statuses emitted before the restart do not come again, the rest come once', async () => {
		const trigger = harness(sandbox, sms(), persistence);
		await trigger.activate();
		await trigger.poll();
		const first = await sendCampaign(sandbox, FIVE.slice(0, 2));
		setNow('2026-03-10T08:02:30Z');
		expect(smsEvents(await trigger.poll())).toEqual([
			`smsSent ${first} 380671234561`,
			`smsSent ${first} 380671234562`,
		]);
		const second = await sendCampaign(sandbox, FIVE.slice(2));

		// n8n stops and comes back; the emitted poll was saved with its items.
		trigger.crash();
		setNow('2026-03-10T08:03:40Z');
		expect(smsEvents(await trigger.activate('init'))).toEqual([
			`smsDelivered ${first} 380671234561`,
			`smsDelivered ${first} 380671234562`,
		]);
		// A poll whose read of the second campaign fails keeps that campaign's state (with a warning) …
		setNow('2026-03-10T08:05:00Z');
		const restore = failNth(sandbox, `/sms/campaigns/info/${second}`, {
			1: { status: 400, body: { message: 'Temporary', error_code: 400 } },
		});
		const failed = await trigger.poll();
		restore();
		expect(failed).toEqual({ items: [], error: undefined });
		expect(logger.of('warn')).toEqual([
			`Messaging Trigger: SMS campaign ${second}: its details could not be read (Temporary (error code 400)); its statuses are read at the next poll, the other campaigns went on`,
		]);
		// … so the next one emits the second campaign's statuses exactly once.
		setNow('2026-03-10T08:06:00Z');
		expect(smsEvents(await trigger.poll())).toEqual([
			`smsSent ${second} 380671234563`,
			`smsDelivered ${second} 380671234563`,
			`smsSent ${second} 380671234570`,
			`smsNotDelivered ${second} 380671234570`,
			`smsSent ${second} 380671234580`,
			`smsNotDelivered ${second} 380671234580`,
		]);
		trigger.crash();
		setNow('2026-03-10T08:07:00Z');
		expect(smsEvents(await trigger.activate('init'))).toEqual([]);
		expect(smsEvents(await trigger.poll())).toEqual([]);
	});
});

test('first activation starts from now: campaigns already running are followed, statuses already reached are not emitted', async () => {
	const done = await sendCampaign(sandbox, ['380671111111', '380671111120']); // sent 08:02, final 08:03
	setNow('2026-03-10T08:00:30Z');
	const running = await sendCampaign(sandbox, ['380672222221']); // sent 08:02:30, final 08:03:30
	const later = await sendCampaign(sandbox, ['380673333331'], { date: '2026-03-10 12:00:00' });
	setNow('2026-03-10T08:03:00Z');
	const trigger = harness(sandbox, sms());
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.activate())).toEqual([]);
	// The campaign for 12:00 has not started: nothing to take a baseline of, and nothing to read yet.
	expect(smsCalls(sandbox, since)).toEqual([
		listCall('2026-03-07 08:03:00'),
		infoCall(done),
		infoCall(running),
	]);
	setNow('2026-03-10T08:06:00Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([`smsDelivered ${running} 380672222221`]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:06:00'), infoCall(running)]);
	setNow('2026-03-10T12:01:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsSent ${later} 380673333331`,
		`smsDelivered ${later} 380673333331`,
	]);
});

test('"Include SMS Look-Back on First Run": the first poll emits what the look-back already holds, once', async () => {
	const old = await sendCampaign(sandbox, ['380671111111', '380671111120']);
	setNow('2026-03-12T08:00:00Z');
	const recent = await sendCampaign(sandbox, ['380672222221']);
	setNow('2026-03-12T08:02:10Z');
	const trigger = harness(sandbox, sms(ALL_SMS, { includeSmsLookBack: true }));
	expect(smsEvents(await trigger.activate())).toEqual([
		`smsSent ${old} 380671111111`,
		`smsDelivered ${old} 380671111111`,
		`smsSent ${old} 380671111120`,
		`smsNotDelivered ${old} 380671111120`,
		`smsSent ${recent} 380672222221`,
	]);
	setNow('2026-03-12T08:04:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([`smsDelivered ${recent} 380672222221`]);
	// Editing the node (a reactivation) is not a first run: nothing comes again.
	expect(
		smsEvents(await trigger.edit(sms(ALL_SMS, { includeSmsLookBack: true, smsLookBackDays: 4 }))),
	).toEqual([]);
});

test('a cancelled campaign: read once its send date has passed, no event, then never again', async () => {
	const id = await sendCampaign(sandbox, FIVE, { date: '2026-03-10 18:00:00' });
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	await cancelCampaign(sandbox, id);
	setNow('2026-03-10T18:05:00Z');
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 18:05:00'), infoCall(id)]);
	trigger.deactivate(); // writes the in-memory state, as n8n does (no poll emitted)
	expect(smsState(trigger).campaigns).toEqual({
		[id]: { created: '2026-03-10 08:00:00', sendDate: '2026-03-10 18:00:00', done: true },
	});
	setNow('2026-03-10T18:10:00Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 18:10:00')]);
});

test('a campaign scheduled for tomorrow costs only the list read until its send time, then is followed', async () => {
	const trigger = harness(sandbox, sms(['smsDelivered', 'smsNotDelivered']));
	await trigger.activate();
	const id = await sendCampaign(sandbox, FIVE, { date: '2026-03-11 09:00:00' });
	for (const now of ['2026-03-10T12:00:00Z', '2026-03-10T23:59:00Z', '2026-03-11T08:59:00Z']) {
		setNow(now);
		const since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since)).toHaveLength(1);
	}
	setNow('2026-03-11T09:00:30Z');
	let since = sandbox.log.lastSeq();
	// Sent, but only Delivered / Not Delivered are watched: remembered, not emitted.
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-08 09:00:30'), infoCall(id)]);
	setNow('2026-03-11T09:01:30Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsDelivered ${id} 380671234561`,
		`smsDelivered ${id} 380671234562`,
		`smsDelivered ${id} 380671234563`,
		`smsNotDelivered ${id} 380671234570`,
		`smsNotDelivered ${id} 380671234580`,
	]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-08 09:01:30'), infoCall(id)]);
});

test('look-back: a campaign whose phones never become final is followed for 3 days after its send date, then dropped; a gap longer than the look-back warns', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 10 * 86_400 });
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	const stuck = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([`smsSent ${stuck} 380671234561`]);
	setNow('2026-03-13T08:01:00Z');
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-10 08:01:00'), infoCall(stuck)]);
	// Created 08:00, sent 08:02: both older than the look-back now.
	setNow('2026-03-13T08:02:01Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-10 08:02:01')]);
	trigger.deactivate();
	expect(smsState(trigger).campaigns).toEqual({});
	expect(logger.of('info')).toContain(
		`Messaging Trigger: SMS campaign ${stuck} sent 2026-03-10 08:02:00 left the look-back with phones not final: no longer followed`,
	);

	// Four days without a poll.
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 60 });
	setNow('2026-03-17T09:00:00Z');
	const next = await sendCampaign(sandbox, ['380671234562']);
	setNow('2026-03-17T09:03:30Z');
	const after = await trigger.poll();
	expect(smsEvents(after)).toEqual([
		`smsSent ${next} 380671234562`,
		`smsDelivered ${next} 380671234562`,
	]);
	const warning =
		'No successful poll for 4.0 days (more than the SMS look-back of 3): campaigns created and finished in that time were not followed, their statuses are missing from this output';
	expect(after.items[0].json.metadata).toEqual({ warnings: [warning] });
	expect(logger.of('warn')).toEqual([`Messaging Trigger: ${warning}`]);
});

describe('a damaged state never re-emits: it is replaced by a baseline, with a warning', () => {
	// A damaged campaign entry alone: test/trigger/sms-damaged-state.test.ts.
	const damages: Array<[string, (state: IDataObject) => unknown]> = [
		['an unknown version', (state) => ({ ...state, version: 99 })],
		['not an object', () => 'garbage'],
		['no campaign map', (state) => ({ ...state, campaigns: [] })],
	];
	test.each(damages)('%s', async (_label, damage) => {
		const trigger = harness(sandbox, sms());
		await trigger.activate();
		const id = await sendCampaign(sandbox, FIVE.slice(0, 2));
		expect(id).toBe('1001'); // the sandbox's first campaign id
		setNow('2026-03-10T08:02:30Z');
		expect(smsEvents(await trigger.poll())).toHaveLength(2);
		const stored = trigger.stored();
		stored.messagingTriggerSms = damage(stored.messagingTriggerSms as IDataObject) as IDataObject;

		const restarted = withState(stored, sms());
		const since = sandbox.log.lastSeq();
		expect(smsEvents(await restarted.activate('init'))).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:02:30'), infoCall(id)]);
		const warnings = logger.of('warn');
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			/^Messaging Trigger: The saved SMS delivery state could not be read \(.+\): campaigns are followed again from now on; statuses reached before this poll are not emitted$/,
		);
		setNow('2026-03-10T08:03:40Z');
		const next = await restarted.poll();
		expect(smsEvents(next)).toEqual([
			`smsDelivered ${id} 380671234561`,
			`smsDelivered ${id} 380671234562`,
		]);
		expect(next.items[0].json.metadata).toEqual({
			warnings: [warnings[0].replace('Messaging Trigger: ', '')],
		});
	});
});

test('a campaign deleted while followed is dropped, the poll goes on', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 3600 });
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	const gone = await sendCampaign(sandbox, ['380671234561']);
	const kept = await sendCampaign(sandbox, ['380671234562']);
	setNow('2026-03-10T08:03:00Z');
	expect(smsEvents(await trigger.poll())).toHaveLength(2);
	await deleteCampaign(sandbox, gone);
	setNow('2026-03-10T08:04:00Z');
	const since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([
		listCall('2026-03-07 08:04:00'),
		infoCall(gone, 404),
		infoCall(kept),
	]);
	trigger.deactivate();
	expect(Object.keys(smsState(trigger).campaigns as IDataObject)).toEqual([kept]);
});

// A campaign's details answered so: that campaign only (test/trigger/sms-failures.test.ts).
test.each([
	['the campaign list', '/sms/campaigns/list', { result: true, data: null }, 'list of records'],
])(
	'%s answered by JSON without what the trigger reads (a proxy): the poll fails quoting it and moves nothing',
	async (_what, pathPattern, body, what) => {
		const trigger = harness(sandbox, sms());
		await trigger.activate();
		const id = await sendCampaign(sandbox, ['380671234563']); // sent 08:02, final 08:03
		setNow('2026-03-10T08:05:00Z');
		const path = pathPattern.replace(':id', id);
		const stored = trigger.stored();
		sandbox.faults.add({ path, method: 'GET', status: 200, body, times: 1 });
		const failed = await trigger.poll();
		expect(failed.items).toEqual([]);
		expect(failed.error?.message).toBe(
			`The answer to GET ${path} holds no ${what}: ${JSON.stringify(JSON.stringify(Array.isArray(body) ? body[0] : body))}`,
		);
		expect(trigger.stored()).toEqual(stored);
		expect(smsEvents(await trigger.poll())).toEqual([
			`smsSent ${id} 380671234563`,
			`smsDelivered ${id} 380671234563`,
		]);
	},
);

test('Fetch Test Event returns the newest statuses and moves nothing', async () => {
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	const id = await sendCampaign(sandbox, FIVE);
	const scheduled = await sendCampaign(sandbox, ['380679999991'], { date: '2026-03-11 10:00:00' });
	setNow('2026-03-10T08:04:00Z');
	const before = trigger.stored();
	const since = sandbox.log.lastSeq();
	const sample = await trigger.manual();
	expect(sample.error).toBeUndefined();
	expect(smsEvents(sample)).toEqual([
		`smsDelivered ${id} 380671234561`,
		`smsDelivered ${id} 380671234562`,
		`smsDelivered ${id} 380671234563`,
		`smsNotDelivered ${id} 380671234570`,
		`smsNotDelivered ${id} 380671234580`,
	]);
	// The scheduled campaign's send date has not come: not read.
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:04:00'), infoCall(id)]);
	expect(scheduled).not.toBe(id);
	expect(trigger.stored()).toEqual(before);
	expect(sample.storedAfter).toEqual(before);
	// The next scheduled poll still emits everything once.
	expect(smsEvents(await trigger.poll())).toHaveLength(10);

	// Statuses exist, none of the chosen event: the error says so (it used to say there were none).
	const notChosen = await harness(sandbox, sms(['smsSent'])).manual();
	expect(notChosen.error?.message).toBe(
		'No SMS Sent status in the campaigns of the last 3 days; their phones reached other statuses (3 SMS Delivered, 2 SMS Not Delivered)',
	);
	expect(notChosen.error?.description).toBe(
		'The trigger is working: none of the recent phones reached a chosen event yet. Fetch again once one does, or add the other events to Events to see a sample.',
	);
});

test('Fetch Test Event with no campaign in the look-back says there are no statuses', async () => {
	const empty = await harness(sandbox, sms(['smsNotDelivered'])).manual();
	expect(empty.error?.message).toBe('No SMS delivery statuses in the campaigns of the last 3 days');
});

test('the Messaging SMS Trigger node (listed under Messaging SMS in the editor) runs the same poller', async () => {
	const trigger = new PollHarness({
		nodeType: new MessagingSmsTrigger(),
		parameters: {
			events: ['smsNotDelivered'],
			options: {},
			requestOptions: { requestsPerSecond: 0 },
		},
		credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
	});
	await trigger.activate();
	const id = await sendCampaign(sandbox, FIVE);
	// Straight from 0 to final between two polls.
	setNow('2026-03-10T08:03:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsNotDelivered ${id} 380671234570`,
		`smsNotDelivered ${id} 380671234580`,
	]);
	expect(smsEvents(await trigger.poll())).toEqual([]);
});

test('email and SMS events in one trigger: both states kept side by side, each event once', async () => {
	const trigger = harness(sandbox, sms(['bounce', 'smsDelivered']));
	await trigger.activate();
	await addBounces(sandbox, [{ email_to: 'a@bounce.test', send_date: '2026-03-10 08:00:30' }]);
	const id = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:30Z');
	const since = sandbox.log.lastSeq();
	const outcome = await trigger.poll();
	expect(
		outcome.items.map(
			(item) => `${String(item.json.event)} ${String(item.json.email ?? item.json.phone)}`,
		),
	).toEqual(['bounce a@bounce.test', 'smsDelivered 380671234561']);
	// The SMS poll first (its state is written last), then the email poll (its requests are its own business).
	const calls = callsSince(sandbox, since);
	expect(calls.slice(0, 2)).toEqual([
		expect.stringMatching(
			/^GET \/sms\/campaigns\/list\?dateFrom=2026-03-07(\+|%20)08%3A03%3A30 200$/,
		),
		`GET /sms/campaigns/info/${id}? 200`,
	]);
	expect(calls.length).toBeGreaterThan(2);
	for (const call of calls.slice(2)) expect(call).toMatch(/^GET \/smtp\/bounces\/day/);
	expect(Object.keys(trigger.stored()).sort()).toEqual(['messagingTrigger', 'messagingTriggerSms']);
	expect(smsEvents(await trigger.poll())).toEqual([]);

	// SMS events dropped: their state goes with them; email events dropped: theirs goes.
	await trigger.edit(sms(['bounce']));
	expect(Object.keys(trigger.stored())).toEqual(['messagingTrigger']);
	await trigger.edit(sms(['smsDelivered']));
	expect(Object.keys(trigger.stored())).toEqual(['messagingTriggerSms']);
});

test('phones of one campaign reach their statuses at different polls; a code the reference does not list is not emitted and keeps the campaign followed', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 3600 });
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	await trigger.poll();
	const id = await sendCampaign(sandbox, FIVE);
	const set = async (statuses: Record<string, number>) =>
		await control(sandbox, 'PATCH', `/sms/campaigns/${id}/phones`, { statuses });
	setNow('2026-03-10T08:02:30Z');
	expect(smsEvents(await trigger.poll())).toHaveLength(5);

	await set({ '380671234561': 2, '380671234570': 12 });
	setNow('2026-03-10T08:03:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsDelivered ${id} 380671234561`,
		`smsNotDelivered ${id} 380671234570`,
	]);
	expect((smsState(trigger).campaigns as Record<string, IDataObject>)[id].levels).toBe('211n1');

	await set({ '380671234562': 2, '380671234563': 7 });
	setNow('2026-03-10T08:04:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([`smsDelivered ${id} 380671234562`]);

	await set({ '380671234563': 2, '380671234580': 12 });
	setNow('2026-03-10T08:05:30Z');
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsDelivered ${id} 380671234563`,
		`smsNotDelivered ${id} 380671234580`,
	]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:05:30'), infoCall(id)]);
	setNow('2026-03-10T08:06:30Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:06:30')]);
});

test('the service lists the phones in another order at the next read: each phone keeps its own statuses', async () => {
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	await trigger.poll();
	setNow('2026-03-10T08:01:00Z');
	const id = await sendCampaign(sandbox, FIVE);
	// The service's answer with the phones at `statuses` (in FIVE's order), listed in that order or reversed.
	const answerWith = async (statuses: number[], reversed: boolean) => {
		const [answer] = (await (
			await fetch(`${sandbox.url}/sms/campaigns/info/${id}`, {
				headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
			})
		).json()) as Array<{ data: IDataObject }>;
		const phones = (answer.data.task_phones_info as IDataObject[]).map(
			(phone, index): IDataObject => ({ ...phone, status: statuses[index] }),
		);
		expect(phones.map((phone) => String(phone.phone))).toEqual(FIVE);
		return [
			{
				...answer,
				data: { ...answer.data, task_phones_info: reversed ? phones.reverse() : phones },
			},
		];
	};
	setNow('2026-03-10T08:03:30Z');
	let restore = failNth(sandbox, `/sms/campaigns/info/${id}`, {
		1: { status: 200, body: await answerWith([1, 1, 0, 0, 0], false) },
	});
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsSent ${id} 380671234561`,
		`smsSent ${id} 380671234562`,
	]);
	restore();
	setNow('2026-03-10T08:04:30Z');
	restore = failNth(sandbox, `/sms/campaigns/info/${id}`, {
		1: { status: 200, body: await answerWith([2, 12, 1, 2, 1], true) },
	});
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsDelivered ${id} 380671234561`,
		`smsNotDelivered ${id} 380671234562`,
		`smsSent ${id} 380671234563`,
		`smsSent ${id} 380671234570`,
		`smsDelivered ${id} 380671234570`,
		`smsSent ${id} 380671234580`,
	]);
	restore();
	expect(logger.of('warn')).toEqual([]);
	expect((smsState(trigger).campaigns as IDataObject)[id]).toMatchObject({ levels: '2n121' });
});

test('a longer look-back (an edit) does not bring back campaigns already followed and dropped', async () => {
	const trigger = harness(sandbox, sms());
	await trigger.activate();
	await trigger.poll();
	const id = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsSent ${id} 380671234561`,
		`smsDelivered ${id} 380671234561`,
	]);
	setNow('2026-03-13T09:00:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([]);
	trigger.deactivate();
	expect(smsState(trigger).campaigns).toEqual({});

	setNow('2026-03-13T09:01:00Z');
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.edit(sms(ALL_SMS, { smsLookBackDays: 5 })))).toEqual([]);
	// Listed again, older than what the last poll covered: read once for its baseline, not emitted.
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-08 09:01:00'), infoCall(id)]);
	setNow('2026-03-13T09:02:00Z');
	since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-08 09:02:00')]);
});

test('no event chosen: a clear error naming the parameter, nothing sent', async () => {
	const since = sandbox.log.lastSeq();
	const outcome = await harness(sandbox, sms([])).activate();
	expect(outcome.error?.message).toBe('Events: choose at least one event');
	expect(smsCalls(sandbox, since)).toEqual([]);
});
