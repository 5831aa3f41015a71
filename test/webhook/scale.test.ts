import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import {
	KEY_LENGTH,
	MAX_REMEMBERED_KEYS,
	RepeatMemory,
	eventKey,
	forgetAllRepeats,
} from '../../nodes/MessagingEmailTrigger/dedupe';
import { WebhookHarness, type StaticDataStore } from '../harness/webhook-harness';
import { NODE_TYPE, jsonItems, trigger } from './setup';

/**
 * The repeat memory's bound (docs/webhook-trigger.md, "What the memory costs"): repeats refused after a restart
 * and across two n8n processes sharing one database, over real HTTP; the oldest keys dropped a minute at a time once
 * the memory holds MAX_REMEMBERED_KEYS.
 */

/** 2026-11-23 10:00:00 UTC */
const T = 1_795_428_000;
const opened = (id: string): IDataObject => ({
	event: 'opened',
	timestamp: T,
	message_id: id,
	recipient: `${id}@example.com`,
});
const summary = (received: number, emitted: number, repeats = 0) =>
	JSON.stringify({ received, emitted, kindNotChosen: 0, repeats, notEvents: 0 });

const harnesses: WebhookHarness[] = [];
afterEach(async () => {
	await Promise.all(harnesses.splice(0).map(async (harness) => await harness.close()));
	forgetAllRepeats();
});

/** An n8n process serving the trigger (this module's copy of the node, or another's) on a shared database. */
async function serve(
	nodeType: typeof trigger,
	database: StaticDataStore,
	webhookId: string,
): Promise<WebhookHarness> {
	const harness = await new WebhookHarness({
		nodeType,
		nodeTypeName: NODE_TYPE,
		parameters: { events: ['opened'] },
		webhookId,
		database,
	}).listen();
	harnesses.push(harness);
	return harness;
}

const post = async (harness: WebhookHarness, events: IDataObject[]) =>
	await harness.post(new URL(harness.productionUrl()).pathname, JSON.stringify(events));

/** A second n8n process: the node's modules loaded again, so it shares nothing in memory with this one. */
async function nodeOfAnotherProcess(): Promise<typeof trigger> {
	let nodeType: typeof trigger | undefined;
	await jest.isolateModulesAsync(async () => {
		const module = await import('../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node');
		nodeType = new module.MessagingEmailTrigger();
	});
	return nodeType!;
}

describe('over HTTP, one database', () => {
	it('two n8n processes: a batch one emitted is refused by the other, both ways', async () => {
		const database = { json: '{}' };
		const webhookId = randomUUID();
		const first = await serve(trigger, database, webhookId);
		const second = await serve(await nodeOfAnotherProcess(), database, webhookId);
		const batch = [opened('a'), opened('b'), opened('c')];
		expect(await post(first, batch)).toEqual({ status: 200, text: summary(3, 3) });
		expect(await post(second, batch)).toEqual({ status: 200, text: summary(3, 0, 3) });
		const next = [opened('d'), opened('a'), opened('e')];
		expect(await post(second, next)).toEqual({ status: 200, text: summary(3, 2, 1) });
		expect(await post(first, next)).toEqual({ status: 200, text: summary(3, 0, 3) });
		expect(jsonItems(first).map((item) => item.messageId)).toEqual(['a', 'b', 'c']);
		expect(jsonItems(second).map((item) => item.messageId)).toEqual(['d', 'e']);
	});

	it('after a restart (nothing in memory) every stored key is refused and a new event passes', async () => {
		const database = { json: '{}' };
		const webhookId = randomUUID();
		const before = Array.from({ length: 300 }, (_, n) => opened(`r-${n}`));
		expect(await post(await serve(trigger, database, webhookId), before)).toEqual({
			status: 200,
			text: summary(300, 300),
		});
		forgetAllRepeats();
		const restarted = await serve(trigger, database, webhookId);
		expect(await post(restarted, [...before, opened('r-new')])).toEqual({
			status: 200,
			text: summary(301, 1, 300),
		});
		expect(jsonItems(restarted).map((item) => item.messageId)).toEqual(['r-new']);
	});
});

describe('the bound', () => {
	const start = Date.UTC(2026, 10, 23, 10, 0);
	const MINUTE = 60_000;
	/** Distinct keys of KEY_LENGTH characters (any text of that length is a key to the memory). */
	const keyOf = (n: number) => `k${String(n).padStart(KEY_LENGTH - 1, '0')}`;
	const perMinute = Math.ceil(MAX_REMEMBERED_KEYS / 3);

	/** Four minutes of `perMinute` keys each, the store written after each minute as n8n would. */
	function fourMinutes(staticData: IDataObject) {
		let fresh = 0;
		for (let minute = 0; minute < 4; minute++) {
			const memory = new RepeatMemory('scope:A', start + minute * MINUTE, staticData);
			for (let n = minute * perMinute; n < (minute + 1) * perMinute; n++)
				if (memory.isNew(keyOf(n))) fresh++;
			memory.save();
		}
		expect(fresh).toBe(4 * perMinute);
	}

	it(`keeps the newest ${MAX_REMEMBERED_KEYS} keys, dropping the oldest minute whole; a restarted process agrees`, () => {
		const staticData: IDataObject = {};
		fourMinutes(staticData);
		const stored = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		const hours = (stored.repeats as IDataObject).hours as Record<string, IDataObject>;
		const hour = String(Math.floor(start / 3_600_000));
		// Minute 0 (the oldest) is gone: the three newest hold every key within the bound.
		expect(Object.keys(hours)).toEqual([hour]);
		expect(Object.keys(hours[hour])).toEqual(['1', '2', '3']);
		const keptKeys = Object.values(hours[hour]).join('').length / KEY_LENGTH;
		expect(keptKeys).toBe(3 * perMinute);
		expect(keptKeys).toBeLessThanOrEqual(MAX_REMEMBERED_KEYS + 1);

		forgetAllRepeats();
		const restarted = new RepeatMemory('scope:A', start + 4 * MINUTE, stored);
		expect(restarted.isNew(keyOf(perMinute))).toBe(false); // minute 1
		expect(restarted.isNew(keyOf(4 * perMinute - 1))).toBe(false); // minute 3
		expect(restarted.isNew(keyOf(0))).toBe(true); // minute 0: past the bound
	});

	it('the process that wrote the store agrees with it: a batch of repeats writes nothing, the oldest minute is gone', () => {
		const staticData: IDataObject = {};
		fourMinutes(staticData);
		const stored = JSON.stringify(staticData);
		const loaded = JSON.parse(stored) as IDataObject;
		const repeatsOnly = new RepeatMemory('scope:A', start + 3 * MINUTE, loaded);
		expect(repeatsOnly.isNew(keyOf(3 * perMinute))).toBe(false);
		expect(repeatsOnly.isNew(keyOf(perMinute))).toBe(false);
		repeatsOnly.save();
		expect(JSON.stringify(loaded)).toBe(stored);
		expect(repeatsOnly.isNew(keyOf(0))).toBe(true);
	});

	it('a store of the hourly layout (version 1) is read: its keys are repeats, and it is rewritten by minute', () => {
		const hour = Math.floor(start / 3_600_000);
		const keys = [opened('v1-a'), opened('v1-b')].map(eventKey);
		const staticData: IDataObject = { repeats: { v: 1, hours: { [hour]: keys.join('') } } };
		const memory = new RepeatMemory('scope:B', start + 30 * MINUTE, staticData);
		expect(keys.map((key) => memory.isNew(key))).toEqual([false, false]);
		memory.save();
		expect(staticData.repeats).toEqual({ v: 2, hours: { [hour]: { '59': keys.join('') } } });
	});
});
