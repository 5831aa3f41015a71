import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bouncePage,
	callsSince,
	parameters,
	setNow,
	trigger as nodeType,
	unsubscribePage,
	useTriggerSandbox,
} from './helpers';
import { logger, PollHarness, type PersistenceMode } from '../harness/poll-harness';

/**
 * n8n 2.x with durable poll cursors does not save an activation poll that emits nothing (PollTriggerExecutor:
 * no commit for a testing poll that returns null). The trigger hands its first baseline over through the
 * workflow's global static data, which n8n saves after activation; the first scheduled poll continues from it.
 */
const HANDOVER = 'messagingTrigger.activation.trigger-node';

let sandbox: Sandbox;
useTriggerSandbox('2026-04-02T10:00:00Z', (started) => (sandbox = started));

const emails = (items: Array<{ json: IDataObject }>) =>
	items.map((item) => `${String(item.json.event)} ${String(item.json.email)}`);

function harnessWith(
	authType: 'apiKey' | 'clientCredentials',
	persistence: PersistenceMode,
	options: IDataObject = {},
) {
	return new PollHarness({
		nodeType,
		parameters: parameters(['bounce', 'unsubscribe'], options),
		credentials: new CredentialStore(sandboxCredentials(sandbox, authType)),
		persistence,
	});
}

async function seedBetween(count: number) {
	await addBounces(
		sandbox,
		Array.from({ length: count }, (_, index) => ({
			email_to: `between${index}@bounce.test`,
			send_date: `2026-04-02 10:00:${String(10 + index).padStart(2, '0')}`,
		})),
	);
	await addUnsubscribes(sandbox, [{ email: 'between@example.com', date: '2026-04-02 10:00:30' }]);
}

describe.each(['apiKey', 'clientCredentials'] as const)('staged persistence, %s', (authType) => {
	test('events between activation and the first scheduled poll are emitted by that poll, once', async () => {
		await addBounces(sandbox, [{ email_to: 'old@bounce.test', send_date: '2026-04-02 09:00:00' }]);
		await addUnsubscribes(sandbox, [{ email: 'old@example.com', date: '2026-04-02 09:30:00' }]);
		const trigger = harnessWith(authType, 'staged');

		const activation = await trigger.activate();
		expect(activation.items).toEqual([]);
		// Nothing emitted: n8n commits no cursor, but it saved the workflow's global static data.
		expect(trigger.persisted).toBeUndefined();
		expect(trigger.persistedGlobal?.[HANDOVER]).toMatchObject({
			version: 1,
			events: 'bounce,unsubscribe',
			bounce: { newest: '2026-04-02 09:00:00' },
			unsubscribe: { from: '2026-04-02' },
		});

		await seedBetween(25);
		setNow('2026-04-02T10:01:00Z');
		const since = sandbox.log.lastSeq();
		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(emails(first.items)).toEqual([
			// 26 events, oldest first (at the same second, bounces before unsubscribes).
			...Array.from({ length: 21 }, (_, index) => `bounce between${index}@bounce.test`),
			'unsubscribe between@example.com',
			...Array.from({ length: 4 }, (_, index) => `bounce between${21 + index}@bounce.test`),
		]);
		// Continued from the handed-over baseline: counted, and the new bounces read from the end of the list.
		expect(callsSince(sandbox, since)).toEqual([
			...bounceCheck,
			bouncePage(0),
			`GET /smtp/unsubscribe?date=2026-04-02&limit=2&offset=0 200`,
			unsubscribePage('2026-04-02'),
		]);
		expect(logger.of('info')).toContain(
			'Messaging Trigger: continuing email events from the activation poll (n8n did not save its state: durable poll cursors)',
		);
		// The emit committed the cursor and saved the global static data without the handover.
		expect(trigger.persisted?.messagingTrigger).toMatchObject({ events: 'bounce,unsubscribe' });
		expect(trigger.persistedGlobal?.[HANDOVER]).toBeUndefined();

		expect((await trigger.poll()).items).toEqual([]);
		await addBounces(sandbox, [{ email_to: 'next@bounce.test', send_date: '2026-04-02 10:01:30' }]);
		setNow('2026-04-02T10:02:00Z');
		expect(emails((await trigger.poll()).items)).toEqual(['bounce next@bounce.test']);
		expect((await trigger.poll()).items).toEqual([]);
	});
});

test('staged: a first scheduled poll that emits nothing commits the cursor; the handover is never used again', async () => {
	const trigger = harnessWith('apiKey', 'staged');
	await trigger.activate();
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeDefined();
	setNow('2026-04-02T10:01:00Z');
	expect((await trigger.poll()).items).toEqual([]);
	// Cursor committed by n8n (scheduled poll, nothing emitted); the global data is not saved without an emit.
	expect(trigger.persisted?.messagingTrigger).toMatchObject({ events: 'bounce,unsubscribe' });
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeDefined();
	// Later polls have a state of their own: the stale handover is ignored, and dropped with the next emit.
	await seedBetween(2);
	setNow('2026-04-02T10:02:00Z');
	expect(emails((await trigger.poll()).items)).toEqual([
		'bounce between0@bounce.test',
		'bounce between1@bounce.test',
		'unsubscribe between@example.com',
	]);
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeUndefined();
	expect((await trigger.poll()).items).toEqual([]);
});

test('staged: n8n restarts before the first scheduled poll: the second activation hands the baseline over again', async () => {
	const trigger = harnessWith('apiKey', 'staged');
	await trigger.activate();
	trigger.crash();
	setNow('2026-04-02T10:00:05Z');
	// Continues from the handover and emits nothing: n8n does not commit this one either, so the handover stays.
	expect((await trigger.activate('init')).items).toEqual([]);
	expect(trigger.persisted).toBeUndefined();
	expect(trigger.persistedGlobal?.[HANDOVER]).toMatchObject({ events: 'bounce,unsubscribe' });
	await seedBetween(2);
	setNow('2026-04-02T10:01:00Z');
	expect(emails((await trigger.poll()).items)).toEqual([
		'bounce between0@bounce.test',
		'bounce between1@bounce.test',
		'unsubscribe between@example.com',
	]);
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeUndefined();
	expect((await trigger.poll()).items).toEqual([]);
});

test('staged: a handover for other watched events is not taken (those start from now)', async () => {
	const trigger = harnessWith('apiKey', 'staged');
	await trigger.activate();
	(trigger.persistedGlobal![HANDOVER] as IDataObject).events = 'bounce';
	await seedBetween(1);
	setNow('2026-04-02T10:01:00Z');
	expect((await trigger.poll()).items).toEqual([]);
	expect(trigger.persisted?.messagingTrigger).toMatchObject({ events: 'bounce,unsubscribe' });
});

test('legacy persistence keeps the baseline with the node: no handover is written', async () => {
	const trigger = harnessWith('apiKey', 'legacy');
	await trigger.activate();
	expect(trigger.persisted?.messagingTrigger).toMatchObject({ events: 'bounce,unsubscribe' });
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeUndefined();
	await seedBetween(3);
	setNow('2026-04-02T10:01:00Z');
	expect((await trigger.poll()).items).toHaveLength(4);
});

test('staged with "Include Last 24 Hours": the activation poll emits, so n8n commits it; no handover needed', async () => {
	await addBounces(sandbox, [{ email_to: 'day@bounce.test', send_date: '2026-04-02 09:00:00' }]);
	const trigger = harnessWith('apiKey', 'staged', { includeLast24Hours: true });
	expect(emails((await trigger.activate()).items)).toEqual(['bounce day@bounce.test']);
	expect(trigger.persisted?.messagingTrigger).toBeDefined();
	expect(trigger.persistedGlobal?.[HANDOVER]).toBeUndefined();
	setNow('2026-04-02T10:01:00Z');
	expect((await trigger.poll()).items).toEqual([]);
});
