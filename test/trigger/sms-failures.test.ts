import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { control, harness, parameters, setNow, useTriggerSandbox } from './helpers';
import { logger, type PollHarness } from '../harness/poll-harness';
import {
	ALL_SMS,
	deleteCampaign,
	infoCall,
	listCall,
	sendCampaign,
	setTimeline,
	smsCalls,
	smsEvents,
	uaPhones,
} from './sms-helpers';

/**
 * Issue 25: SMS delivery events exactly once when one campaign's read fails (a proxy's or the service's one-off 404,
 * an hour of 500s), while a campaign is being formed (no phones yet), and for campaigns that never send.
 */
let sandbox: Sandbox;
useTriggerSandbox('2026-03-10T08:00:00Z', (started) => (sandbox = started));

const smsState = (trigger: PollHarness) => {
	trigger.deactivate(); // n8n writes the in-memory state (a poll that emitted nothing is not saved otherwise)
	return (trigger.stored().messagingTriggerSms as IDataObject).campaigns as Record<
		string,
		IDataObject
	>;
};

const PROXY_404 = {
	status: 404,
	rawBody: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
	headers: { 'Content-Type': 'text/html' },
};
const SERVICE_404 = { status: 404, body: { message: 'Campaign not found', error_code: 404 } };

describe.each([
	["a proxy's HTML page", PROXY_404, 'The service answered HTTP 404 without an error message'],
	['the service\'s JSON "Campaign not found"', SERVICE_404, 'Campaign not found (error code 404)'],
])('a one-off 404 for a live campaign (%s)', (_label, fault, message) => {
	test('is a failed read: the campaign keeps its state, nothing is emitted twice, the rest comes once', async () => {
		const trigger = harness(sandbox, parameters(ALL_SMS));
		await trigger.activate();
		const phones = uaPhones(4, 1);
		const id = await sendCampaign(sandbox, phones); // sending starts 08:02
		await setTimeline(
			sandbox,
			id,
			Object.fromEntries(
				phones.map((phone, index) => [
					phone,
					{ sentAfterSeconds: 0, finalAfterSeconds: 600 * (index + 1) },
				]),
			),
		);
		setNow('2026-03-10T08:03:00Z');
		const seen = smsEvents(await trigger.poll());
		expect(seen).toEqual(phones.map((phone) => `smsSent ${id} ${phone}`));

		setNow('2026-03-10T08:13:00Z'); // the first phone is delivered, the read answers 404 once
		await control(sandbox, 'POST', '/faults', { path: `/sms/campaigns/info/${id}`, ...fault });
		let since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:13:00'), infoCall(id, 404)]);
		expect(logger.of('warn')).toEqual([
			`Messaging Trigger: SMS campaign ${id}: its details could not be read (${message}); its statuses are read at the next poll, the other campaigns went on`,
		]);
		expect(smsState(trigger)[id]).toMatchObject({ levels: '1111', failed: 1 });

		setNow('2026-03-10T08:14:00Z');
		since = sandbox.log.lastSeq();
		const next = await trigger.poll();
		expect(smsEvents(next)).toEqual([`smsDelivered ${id} ${phones[0]}`]);
		expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 08:14:00'), infoCall(id)]);
		// The warning no emitted item carried comes with the next one.
		expect(next.items[0].json.metadata).toEqual({
			warnings: [logger.of('warn')[0].replace('Messaging Trigger: ', '')],
		});
		seen.push(...smsEvents(next));
		setNow('2026-03-10T08:45:00Z');
		seen.push(...smsEvents(await trigger.poll()));
		expect(seen.sort()).toEqual(
			phones.flatMap((phone) => [`smsDelivered ${id} ${phone}`, `smsSent ${id} ${phone}`]).sort(),
		);
		expect(smsState(trigger)[id]).toEqual({
			created: '2026-03-10 08:00:00',
			sendDate: '2026-03-10 08:02:00',
			done: true,
		});
	});
});

test('a 404 for a campaign the list no longer holds: deleted, dropped at once; one the list cannot vouch for: after 3 polls of 404', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 10 * 86_400 });
	const trigger = harness(sandbox, parameters(ALL_SMS, { smsLookBackDays: 1 }));
	await trigger.activate();
	// Created now, scheduled for tomorrow 07:00: followed after the list (1 day back) has stopped showing it.
	const old = await sendCampaign(sandbox, ['380671234561'], { date: '2026-03-11 07:00:00' });
	const deleted = await sendCampaign(sandbox, ['380671234562']);
	setNow('2026-03-10T08:03:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([`smsSent ${deleted} 380671234562`]);
	await deleteCampaign(sandbox, deleted);
	setNow('2026-03-10T08:04:00Z');
	let since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([
		listCall('2026-03-09 08:04:00'),
		infoCall(deleted, 404),
	]);
	expect(Object.keys(smsState(trigger))).toEqual([old]);

	setNow('2026-03-11T08:30:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([`smsSent ${old} 380671234561`]);
	await control(sandbox, 'POST', '/faults', {
		path: `/sms/campaigns/info/${old}`,
		...SERVICE_404,
		times: 3,
	});
	for (const [minute, kept] of [
		['31', true],
		['32', true],
		['33', false],
	] as const) {
		setNow(`2026-03-11T08:${minute}:00Z`);
		since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([
			listCall(`2026-03-10 08:${minute}:00`),
			infoCall(old, 404),
		]);
		expect(old in smsState(trigger)).toBe(kept);
	}
	expect(logger.of('info')).toContain(
		`Messaging Trigger: SMS campaign ${old} no longer exists (deleted): not followed`,
	);
});

test('one campaign failing for an hour holds back no other: the others are emitted at every poll, it comes once it answers again', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 86_400 });
	const trigger = harness(sandbox, parameters(ALL_SMS));
	await trigger.activate();
	const failing = await sendCampaign(sandbox, uaPhones(2, 1));
	const healthy = [
		await sendCampaign(sandbox, uaPhones(3, 11)),
		await sendCampaign(sandbox, uaPhones(3, 21)),
	];
	// Healthy phones are delivered over the hour, one every 10 minutes.
	for (const [campaign, id] of healthy.entries())
		await setTimeline(
			sandbox,
			id,
			Object.fromEntries(
				uaPhones(3, 11 + 10 * campaign).map((phone, index) => [
					phone,
					{ sentAfterSeconds: 0, finalAfterSeconds: 600 * (1 + index + 3 * campaign) },
				]),
			),
		);
	await control(sandbox, 'POST', '/faults', {
		path: `/sms/campaigns/info/${failing}`,
		status: 500,
		body: { message: 'Internal error', error_code: 500 },
		until: '2026-03-10T09:05:00Z',
	});
	const emitted: string[] = [];
	for (let minute = 2; minute <= 62; minute += 10) {
		setNow(new Date(Date.UTC(2026, 2, 10, 8, minute, 30)).toISOString());
		const since = sandbox.log.lastSeq();
		const events = smsEvents(await trigger.poll());
		emitted.push(...events);
		// Tried 3 times (the client's retries of a 500), then the others; once it has failed it is read last.
		const failed = [infoCall(failing, 500), infoCall(failing, 500), infoCall(failing, 500)];
		const calls = smsCalls(sandbox, since).slice(1);
		expect(calls.filter((call) => call.includes(`/${failing} `))).toEqual(failed);
		if (minute > 2) expect(calls.slice(-3)).toEqual(failed);
		expect(events.some((event) => event.includes(` ${failing} `))).toBe(false);
		if (minute > 2) expect(events).toHaveLength(1); // one healthy phone delivered every 10 minutes
	}
	expect(emitted).toHaveLength(6 + 6);
	// Warned once (with the campaign named), not at every poll.
	expect(logger.of('warn')).toEqual([
		`Messaging Trigger: SMS campaign ${failing}: its details could not be read (Internal error (error code 500)); its statuses are read at the next poll, the other campaigns went on`,
	]);
	setNow('2026-03-10T09:06:00Z');
	const back = smsEvents(await trigger.poll());
	expect(back).toEqual([
		`smsSent ${failing} ${uaPhones(2, 1)[0]}`,
		`smsSent ${failing} ${uaPhones(2, 1)[1]}`,
	]);
	expect(logger.of('info')).toContain(
		`Messaging Trigger: SMS campaign ${failing}: read again after 7 failed polls`,
	);
	emitted.push(...back);
	expect(new Set(emitted).size).toBe(emitted.length);
});

test("a campaign answered by JSON without its phones (a proxy) is that campaign's failed read only", async () => {
	const trigger = harness(sandbox, parameters(ALL_SMS));
	await trigger.activate();
	const odd = await sendCampaign(sandbox, ['380671234563']);
	const fine = await sendCampaign(sandbox, ['380671234564']);
	setNow('2026-03-10T08:05:00Z');
	await control(sandbox, 'POST', '/faults', {
		path: `/sms/campaigns/info/${odd}`,
		status: 200,
		body: [{ result: true }],
	});
	const outcome = await trigger.poll();
	expect(smsEvents(outcome)).toEqual([
		`smsSent ${fine} 380671234564`,
		`smsDelivered ${fine} 380671234564`,
	]);
	expect(outcome.items[0].json.metadata).toEqual({
		warnings: [
			`SMS campaign ${odd}: its details could not be read (The answer to GET /sms/campaigns/info/${odd} holds no campaign with its phones: "{\\"result\\":true}"); its statuses are read at the next poll, the other campaigns went on`,
		],
	});
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsSent ${odd} 380671234563`,
		`smsDelivered ${odd} 380671234563`,
	]);
});

test('a campaign still being formed (no phones for 5 minutes after its send date) gives all its statuses once its phones show', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { formingSeconds: 300 });
	const trigger = harness(sandbox, parameters(ALL_SMS));
	await trigger.activate();
	const phones = uaPhones(3, 1);
	const id = await sendCampaign(sandbox, phones); // sending starts 08:02, phones listed from 08:07
	await setTimeline(
		sandbox,
		id,
		Object.fromEntries(
			phones.map((phone) => [phone, { sentAfterSeconds: 60, finalAfterSeconds: 900 }]),
		),
	);
	for (const minute of ['03', '05', '06']) {
		setNow(`2026-03-10T08:${minute}:30Z`);
		const since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since)).toEqual([
			listCall(`2026-03-07 08:${minute}:30`),
			infoCall(id),
		]);
	}
	expect(smsState(trigger)[id]).toEqual({
		created: '2026-03-10 08:00:00',
		sendDate: '2026-03-10 08:02:00',
	});
	setNow('2026-03-10T08:07:30Z');
	expect(smsEvents(await trigger.poll())).toEqual(phones.map((phone) => `smsSent ${id} ${phone}`));
	setNow('2026-03-10T08:17:30Z');
	expect(smsEvents(await trigger.poll())).toEqual(
		phones.map((phone) => `smsDelivered ${id} ${phone}`),
	);
});

test('a campaign formed at the first activation is not taken as it is: its statuses come once its phones show', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { formingSeconds: 300 });
	const id = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:00Z');
	const trigger = harness(sandbox, parameters(ALL_SMS));
	expect(smsEvents(await trigger.activate())).toEqual([]);
	setNow('2026-03-10T08:08:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([
		`smsSent ${id} 380671234561`,
		`smsDelivered ${id} 380671234561`,
	]);
});

test('never sent: a campaign listing no phones, or every phone still "Ready to send", 6 hours after its send date is no longer read', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { formingSeconds: 86_400 });
	const trigger = harness(sandbox, parameters(ALL_SMS));
	await trigger.activate();
	const empty = await sendCampaign(sandbox, ['380671234561']);
	const unsent = await sendCampaign(sandbox, ['380671234562', '380671234563']);
	await setTimeline(
		sandbox,
		unsent,
		{
			'380671234562': { sentAfterSeconds: null, finalAfterSeconds: null },
			'380671234563': { sentAfterSeconds: null, finalAfterSeconds: null },
		},
		0,
	);
	for (const at of ['2026-03-10T08:03:00Z', '2026-03-10T14:01:00Z']) {
		setNow(at);
		const since = sandbox.log.lastSeq();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(smsCalls(sandbox, since).slice(1)).toEqual([infoCall(empty), infoCall(unsent)]);
	}
	setNow('2026-03-10T14:02:30Z');
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(logger.of('info')).toEqual(
		expect.arrayContaining([
			`Messaging Trigger: SMS campaign ${empty} sent 2026-03-10 08:02:00 still lists no phones: no longer followed`,
			`Messaging Trigger: SMS campaign ${unsent} sent 2026-03-10 08:02:00 has every phone still "Ready to send": taken as never sent (cancelled), no longer followed`,
		]),
	);
	setNow('2026-03-10T14:10:00Z');
	const since = sandbox.log.lastSeq();
	expect(smsEvents(await trigger.poll())).toEqual([]);
	expect(smsCalls(sandbox, since)).toEqual([listCall('2026-03-07 14:10:00')]);
});
