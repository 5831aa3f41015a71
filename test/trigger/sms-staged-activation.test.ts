import type { IDataObject, INodeType } from 'n8n-workflow';

import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	addBounces,
	parameters,
	setNow,
	trigger as messagingTrigger,
	useTriggerSandbox,
} from './helpers';
import { logger, PollHarness, type PersistenceMode } from '../harness/poll-harness';
import { ALL_SMS, sendCampaign, smsEvents } from './sms-helpers';

/**
 * n8n 2.x with durable poll cursors does not save an activation poll that emits nothing. Like the email events
 * (staged-activation.test.ts), the SMS delivery state's first baseline is handed over through the workflow's global
 * static data, under a key of its own, and the first scheduled poll continues from it.
 */
const SMS_HANDOVER = 'messagingTriggerSms.activation.trigger-node';
const EMAIL_HANDOVER = 'messagingTrigger.activation.trigger-node';
const CONTINUING_SMS =
	'Messaging Trigger: continuing SMS delivery events from the activation poll (n8n did not save its state: durable poll cursors)';
const CONTINUING_EMAIL =
	'Messaging Trigger: continuing email events from the activation poll (n8n did not save its state: durable poll cursors)';

let sandbox: Sandbox;
useTriggerSandbox('2026-03-10T08:00:00Z', (started) => (sandbox = started));

function triggerOf(
	nodeType: INodeType,
	events: string[],
	persistence: PersistenceMode = 'staged',
	options: IDataObject = {},
) {
	return new PollHarness({
		nodeType,
		parameters: parameters(events, options),
		credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
		persistence,
	});
}

const nodes: Array<[string, INodeType]> = [
	['Messaging Trigger', messagingTrigger],
	['Messaging SMS Trigger', new MessagingSmsTrigger()],
];

describe.each(nodes)('%s, staged persistence (durable poll cursors)', (_name, nodeType) => {
	test('statuses reached between activation and the first scheduled poll are emitted by that poll, once', async () => {
		// Created 08:00, sent 08:02 (status 1), final 08:03; the phone ending in 0 is not delivered.
		const running = await sendCampaign(sandbox, ['380671234561', '380671234570']);
		setNow('2026-03-10T08:02:30Z');
		const trigger = triggerOf(nodeType, ALL_SMS);

		expect(smsEvents(await trigger.activate())).toEqual([]);
		// Nothing emitted: n8n commits no cursor, but it saved the workflow's global static data.
		expect(trigger.persisted).toBeUndefined();
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toEqual({
			version: 1,
			lastPollAt: expect.any(Number),
			listFrom: '2026-03-07 08:02:30',
			campaigns: {
				[running]: {
					created: '2026-03-10 08:00:00',
					sendDate: '2026-03-10 08:02:00',
					phones: expect.stringMatching(/^[\w-]{12}$/),
					levels: '11',
				},
			},
		});
		expect(trigger.persistedGlobal?.[EMAIL_HANDOVER]).toBeUndefined();

		// Between activation and the first scheduled poll: the running campaign becomes final, a new one is sent.
		const fresh = await sendCampaign(sandbox, ['380671234562']); // sent 08:04:30, final 08:05:30
		setNow('2026-03-10T08:04:40Z');
		const first = await trigger.poll();
		expect(smsEvents(first)).toEqual([
			`smsDelivered ${running} 380671234561`,
			`smsNotDelivered ${running} 380671234570`,
			`smsSent ${fresh} 380671234562`,
		]);
		expect(logger.of('info')).toContain(CONTINUING_SMS);
		// The emit committed the cursor and saved the global static data without the handover.
		expect((trigger.persisted?.messagingTriggerSms as IDataObject).campaigns).toEqual({
			[running]: { created: '2026-03-10 08:00:00', sendDate: '2026-03-10 08:02:00', done: true },
			[fresh]: {
				created: expect.stringMatching(/^2026-03-10 08:02:3/),
				sendDate: expect.stringMatching(/^2026-03-10 08:04:3/),
				phones: expect.stringMatching(/^[\w-]{12}$/),
				levels: '1',
			},
		});
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();

		expect(smsEvents(await trigger.poll())).toEqual([]);
		setNow('2026-03-10T08:05:40Z');
		expect(smsEvents(await trigger.poll())).toEqual([`smsDelivered ${fresh} 380671234562`]);
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(logger.of('info').filter((line) => line === CONTINUING_SMS)).toHaveLength(1);
	});

	test('n8n restarts before the first scheduled poll: the second activation hands the baseline over again', async () => {
		const running = await sendCampaign(sandbox, ['380671234561', '380671234570']);
		setNow('2026-03-10T08:02:30Z');
		const trigger = triggerOf(nodeType, ALL_SMS);
		expect(smsEvents(await trigger.activate())).toEqual([]);
		trigger.crash();
		setNow('2026-03-10T08:02:40Z');
		// Continues from the handover, nothing new yet: not committed either, so the handover must stay.
		expect(smsEvents(await trigger.activate('init'))).toEqual([]);
		expect(trigger.persisted).toBeUndefined();
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toMatchObject({
			campaigns: { [running]: { levels: '11' } },
		});
		setNow('2026-03-10T08:03:30Z');
		expect(smsEvents(await trigger.poll())).toEqual([
			`smsDelivered ${running} 380671234561`,
			`smsNotDelivered ${running} 380671234570`,
		]);
		expect(smsEvents(await trigger.poll())).toEqual([]);
	});

	test('a first scheduled poll that emits nothing commits the cursor; the stale handover is ignored, then dropped', async () => {
		const trigger = triggerOf(nodeType, ALL_SMS);
		await trigger.activate();
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toMatchObject({ campaigns: {} });
		setNow('2026-03-10T08:01:00Z');
		expect(smsEvents(await trigger.poll())).toEqual([]);
		// Cursor committed by n8n (scheduled poll, nothing emitted); the global data is not saved without an emit.
		expect(trigger.persisted?.messagingTriggerSms).toMatchObject({ version: 1, campaigns: {} });
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeDefined();
		const id = await sendCampaign(sandbox, ['380671234561']);
		setNow('2026-03-10T08:04:30Z');
		expect(smsEvents(await trigger.poll())).toEqual([
			`smsSent ${id} 380671234561`,
			`smsDelivered ${id} 380671234561`,
		]);
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();
		expect(smsEvents(await trigger.poll())).toEqual([]);
		expect(logger.of('info')).toContain(CONTINUING_SMS);
	});

	test('legacy persistence keeps the baseline with the node: no handover is written', async () => {
		const running = await sendCampaign(sandbox, ['380671234561']);
		setNow('2026-03-10T08:02:30Z');
		const trigger = triggerOf(nodeType, ALL_SMS, 'legacy');
		expect(smsEvents(await trigger.activate())).toEqual([]);
		expect(trigger.persisted?.messagingTriggerSms).toMatchObject({
			campaigns: { [running]: { levels: '1' } },
		});
		expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();
		setNow('2026-03-10T08:03:30Z');
		expect(smsEvents(await trigger.poll())).toEqual([`smsDelivered ${running} 380671234561`]);
		expect(logger.of('info')).not.toContain(CONTINUING_SMS);
	});
});

test('email and SMS events at once: each state hands over under its own key, both continue once', async () => {
	const trigger = triggerOf(messagingTrigger, ['bounce', 'unsubscribe', ...ALL_SMS]);
	expect((await trigger.activate()).items).toEqual([]);
	expect(trigger.persisted).toBeUndefined();
	expect(trigger.persistedGlobal?.[EMAIL_HANDOVER]).toMatchObject({
		version: 1,
		events: 'bounce,unsubscribe',
	});
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toMatchObject({ version: 1, campaigns: {} });

	await addBounces(sandbox, [
		{ email_to: 'between@bounce.test', send_date: '2026-03-10 08:00:30' },
	]);
	const id = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:30Z');
	const first = await trigger.poll();
	expect(first.error).toBeUndefined();
	expect(
		first.items.map((item) =>
			item.json.email !== undefined
				? `${String(item.json.event)} ${String(item.json.email)}`
				: `${String(item.json.event)} ${String(item.json.campaignId)} ${String(item.json.phone)}`,
		),
	).toEqual([
		'bounce between@bounce.test',
		`smsSent ${id} 380671234561`,
		`smsDelivered ${id} 380671234561`,
	]);
	expect(logger.of('info')).toEqual(expect.arrayContaining([CONTINUING_SMS, CONTINUING_EMAIL]));
	expect(Object.keys(trigger.persisted ?? {}).sort()).toEqual([
		'messagingTrigger',
		'messagingTriggerSms',
	]);
	expect(trigger.persistedGlobal?.[EMAIL_HANDOVER]).toBeUndefined();
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();
	expect((await trigger.poll()).items).toEqual([]);
});

test('an activation poll that emits (SMS look-back) is committed with both states: no handover for either', async () => {
	const old = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:30Z');
	const trigger = triggerOf(messagingTrigger, ['bounce', ...ALL_SMS], 'staged', {
		includeSmsLookBack: true,
	});
	expect(smsEvents(await trigger.activate())).toEqual([
		`smsSent ${old} 380671234561`,
		`smsDelivered ${old} 380671234561`,
	]);
	// n8n committed the whole node state with the emit, the email events' baseline included.
	expect(Object.keys(trigger.persisted ?? {}).sort()).toEqual([
		'messagingTrigger',
		'messagingTriggerSms',
	]);
	expect(trigger.persistedGlobal?.[EMAIL_HANDOVER]).toBeUndefined();
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();
	await addBounces(sandbox, [{ email_to: 'next@bounce.test', send_date: '2026-03-10 08:03:40' }]);
	setNow('2026-03-10T08:04:00Z');
	expect((await trigger.poll()).items.map((item) => item.json.email)).toEqual(['next@bounce.test']);
	expect((await trigger.poll()).items).toEqual([]);
});

test('SMS events no longer watched: their handover goes with their state, so choosing them again starts from now', async () => {
	const trigger = triggerOf(messagingTrigger, ['bounce', 'smsDelivered']);
	await trigger.activate();
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeDefined();
	// Edited before any scheduled poll: the reactivation drops the SMS handover (n8n saves that after activating).
	await trigger.edit(parameters(['bounce']));
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toBeUndefined();
	expect(trigger.persistedGlobal?.[EMAIL_HANDOVER]).toMatchObject({ events: 'bounce' });

	const id = await sendCampaign(sandbox, ['380671234561']);
	setNow('2026-03-10T08:03:30Z');
	// Delivered while SMS events were not watched; chosen again: from now on, so never emitted.
	expect((await trigger.edit(parameters(['bounce', 'smsDelivered']))).items).toEqual([]);
	expect(trigger.persistedGlobal?.[SMS_HANDOVER]).toMatchObject({
		campaigns: { [id]: { done: true } },
	});
	setNow('2026-03-10T08:04:00Z');
	expect(smsEvents(await trigger.poll())).toEqual([]);
	// Only that new baseline was continued from (by the scheduled poll), never the first activation's.
	expect(logger.of('info').filter((line) => line === CONTINUING_SMS)).toHaveLength(1);
});
