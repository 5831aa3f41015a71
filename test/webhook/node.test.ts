import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { MAX_BODY_BYTES } from '../../nodes/MessagingEmailTrigger/body';
import { REPEAT_MAX_KEYS } from '../../nodes/MessagingEmailTrigger/dedupe';
import { WebhookHarness } from '../harness/webhook-harness';
import { CredentialStore } from '../harness/credentials';
import { NODE_TYPE, jsonItems, productionPath, startTrigger, trigger } from './setup';

/** 2026-11-23 10:00:00 UTC */
const T = 1_795_428_000;
const ISO = '2026-11-23T10:00:00.000Z';

/** One event of each of the nine kinds, with the wire notes' field names (both variants where they vary). */
const EVENTS: Record<string, IDataObject> = {
	delivered: {
		event: 'delivered',
		timestamp: T,
		message_id: 'pzkic9-0afezp-fc',
		recipient: 'ann@example.com',
		sender: 'news@sandbox.test',
		subject: 'Hello',
		smtp_server_response_code: 250,
		smtp_server_response_subcode: '2.0.0',
		smtp_server_response: 'OK: queued',
	},
	undelivered: {
		event: 'undelivered',
		timestamp: T,
		message_id: 'm-2',
		recipient: 'bob@bounce.test',
		sender: 'news@sandbox.test',
		subject: 'Hello',
		smtp_server_response_code: '550',
		smtp_server_response_subcode: '5.1.1',
		smtp_server_response: 'User unknown',
	},
	opened: {
		event: 'opened',
		timestamp: T,
		message_id: 'm-3',
		recipient: 'ann@example.com',
		sender: 'news@sandbox.test',
		subject: 'Hello',
		user_agent: 'Mozilla/5.0 (Linux) Chrome',
		ip: '198.51.100.7',
	},
	clicked: {
		event: 'clicked',
		timestamp: T,
		message_id: 'm-4',
		recipient: 'ann@example.com',
		sender: 'news@sandbox.test',
		subject: 'Hello',
		link_url: 'https://example.com/a',
		user_agent: 'UA',
		ip: '198.51.100.8',
	},
	spam_by_user: {
		event: 'spam_by_user',
		timestamp: T,
		message_id: 'm-5',
		recipient: 'cat@example.com',
	},
	unsubscribed: {
		event: 'unsubscribed',
		timestamp: T,
		message_id: 'm-6',
		recipient: 'dan@example.com',
	},
	resubscribed: { event: 'resubscribed', timestamp: T, recipient: 'eve@example.com' },
	hard_bounces: {
		event: 'hard_bounces',
		timestamp: T,
		message_id: 'm-8',
		email: 'fay@bounce.test',
		task_id: 77,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		smtp_server_response_code: 550,
		smtp_server_response_subcode: '5.1.1',
		smtp_server_response: 'User unknown',
	},
	soft_bounces: {
		event: 'soft_bounces',
		timestamp: String(T),
		message_id: 'm-9',
		email: 'gus@example.com',
		task_id: 78,
		smtp_server_response_code: 452,
		smtp_server_response_subcode: '4.2.2',
		smtp_server_response: 'Mailbox full',
	},
};

const NULLS = {
	sender: null,
	subject: null,
	messageId: null,
	taskId: null,
	smtpCode: null,
	smtpSubcode: null,
	smtpMessage: null,
	bounceType: null,
	linkUrl: null,
	userAgent: null,
	ip: null,
	spamComplaint: false,
};
const TIMES = { eventTime: '2026-11-23 10:00:00', eventTimeIso: ISO };

const EXPECTED: Record<string, IDataObject> = {
	delivered: {
		...NULLS,
		event: 'delivered',
		email: 'ann@example.com',
		...TIMES,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		messageId: 'pzkic9-0afezp-fc',
		smtpCode: 250,
		smtpSubcode: '2.0.0',
		smtpMessage: 'OK: queued',
	},
	undelivered: {
		...NULLS,
		event: 'notDelivered',
		email: 'bob@bounce.test',
		...TIMES,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		messageId: 'm-2',
		smtpCode: 550,
		smtpSubcode: '5.1.1',
		smtpMessage: 'User unknown',
		bounceType: 'hard',
	},
	opened: {
		...NULLS,
		event: 'opened',
		email: 'ann@example.com',
		...TIMES,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		messageId: 'm-3',
		userAgent: 'Mozilla/5.0 (Linux) Chrome',
		ip: '198.51.100.7',
	},
	clicked: {
		...NULLS,
		event: 'clicked',
		email: 'ann@example.com',
		...TIMES,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		messageId: 'm-4',
		linkUrl: 'https://example.com/a',
		userAgent: 'UA',
		ip: '198.51.100.8',
	},
	spam_by_user: {
		...NULLS,
		event: 'spamComplaint',
		email: 'cat@example.com',
		...TIMES,
		messageId: 'm-5',
		spamComplaint: true,
	},
	unsubscribed: {
		...NULLS,
		event: 'unsubscribe',
		email: 'dan@example.com',
		...TIMES,
		messageId: 'm-6',
	},
	resubscribed: { ...NULLS, event: 'resubscribe', email: 'eve@example.com', ...TIMES },
	hard_bounces: {
		...NULLS,
		event: 'bounce',
		email: 'fay@bounce.test',
		...TIMES,
		sender: 'news@sandbox.test',
		subject: 'Hello',
		messageId: 'm-8',
		taskId: '77',
		smtpCode: 550,
		smtpSubcode: '5.1.1',
		smtpMessage: 'User unknown',
		bounceType: 'hard',
	},
	soft_bounces: {
		...NULLS,
		event: 'bounce',
		email: 'gus@example.com',
		...TIMES,
		messageId: 'm-9',
		taskId: '78',
		smtpCode: 452,
		smtpSubcode: '4.2.2',
		smtpMessage: 'Mailbox full',
		bounceType: 'soft',
	},
};

let harness: WebhookHarness;
afterEach(async () => await harness?.close());

const postJson = async (body: unknown, path = productionPath(harness)) =>
	await harness.post(path, JSON.stringify(body));

describe('output of each event kind', () => {
	it.each(Object.keys(EVENTS))('%s', async (kind) => {
		harness = await startTrigger();
		const answer = await postJson([EVENTS[kind]]);
		expect(answer).toEqual({ status: 200, text: '' });
		expect(jsonItems(harness)).toEqual([{ ...EXPECTED[kind], raw: EVENTS[kind] }]);
	});

	it('reads `url` for a click link too, `redirected` as a click, and the account zone for Event Time', async () => {
		harness = await startTrigger({}, { timeZone: 'Europe/Berlin' });
		const click = {
			event: 'redirected',
			timestamp: T,
			message_id: 'x',
			recipient: 'a@b.c',
			url: 'https://u',
		};
		await postJson([click]);
		expect(jsonItems(harness)).toEqual([
			{
				...NULLS,
				event: 'clicked',
				email: 'a@b.c',
				eventTime: '2026-11-23 11:00:00',
				eventTimeIso: ISO,
				messageId: 'x',
				linkUrl: 'https://u',
				raw: click,
			},
		]);
	});

	it('a bounce has the same fields and values as Bounce → Get Many and the polling trigger give', async () => {
		const { bounceOutput } = await import('../../nodes/shared/records/emailEvents');
		harness = await startTrigger();
		await postJson([EVENTS.hard_bounces]);
		const polled = bounceOutput(
			{
				email_to: 'fay@bounce.test',
				sender: 'news@sandbox.test',
				send_date: '2026-11-23 10:00:00',
				subject: 'Hello',
				smtp_answer_code: 550,
				smtp_answer_subcode: '5.1.1',
				smtp_answer_data: 'User unknown',
			},
			'UTC',
		);
		const [fromWebhook] = jsonItems(harness);
		for (const [key, value] of Object.entries(polled)) {
			if (key !== 'raw') expect([key, fromWebhook[key]]).toEqual([key, value]);
		}
	});
});

describe('batches', () => {
	const many = (count: number) =>
		Array.from({ length: count }, (_, n) => ({
			...EVENTS.delivered,
			message_id: `id-${n}`,
			recipient: `r${n}@example.com`,
		}));

	it.each([1, 500, 1200])('a batch of %i events gives that many items, in order', async (count) => {
		harness = await startTrigger();
		const answer = await postJson(many(count));
		expect(answer.status).toBe(200);
		const items = jsonItems(harness);
		expect(items).toHaveLength(count);
		expect(items.map((item) => item.messageId)).toEqual(
			many(count).map((event) => event.message_id),
		);
	});

	it('One Item per Batch: one item holding every event', async () => {
		harness = await startTrigger({ options: { oneItemPerBatch: true } });
		await postJson(many(3));
		const items = jsonItems(harness);
		expect(items).toHaveLength(1);
		expect(items[0].count).toBe(3);
		expect((items[0].events as IDataObject[]).map((event) => event.email)).toEqual([
			'r0@example.com',
			'r1@example.com',
			'r2@example.com',
		]);
	});

	it('only the chosen events start the workflow; the others are acknowledged (200) and dropped', async () => {
		harness = await startTrigger({ events: ['opened', 'clicked'] });
		const answer = await postJson(Object.values(EVENTS));
		expect(answer.status).toBe(200);
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['opened', 'clicked']);
		const none = await postJson([EVENTS.delivered, { event: 'new', message_id: 'z' }]);
		expect(none).toEqual({ status: 200, text: '{"received":2,"emitted":0}' });
		expect(harness.hits[1].items).toBeUndefined();
	});

	it('Events from an expression giving one kind as text: that kind starts the workflow', async () => {
		harness = await startTrigger({ events: '={{ "clicked" }}' });
		const answer = await postJson([EVENTS.delivered, EVENTS.clicked, EVENTS.opened]);
		expect(answer).toEqual({ status: 200, text: '' });
		expect(jsonItems(harness)).toEqual([{ ...EXPECTED.clicked, raw: EVENTS.clicked }]);
	});
});

describe('the secret (n8n’s random id of the node in the URL)', () => {
	it.each([
		['a wrong id', () => `/webhook/${randomUUID()}/email-events`],
		['no id', () => '/webhook/email-events'],
		['an empty id', () => '/webhook//email-events'],
		['a prefix of the id', () => productionPath(harness).replace(/^(\/webhook\/.{35}).\//, '$1/')],
		[
			'the id one character longer',
			() => productionPath(harness).replace(/\/email-events$/, '0/email-events'),
		],
		['the workflow/node-name path', () => '/webhook/webhook-workflow/email%20events/email-events'],
	])('%s: 404, nothing emitted', async (_label, path) => {
		harness = await startTrigger();
		const target = path();
		expect(target).not.toBe(productionPath(harness));
		const answer = await postJson([EVENTS.delivered], target);
		expect(answer).toEqual({ status: 404, text: '{"message":"Not found"}' });
		expect(harness.emitted()).toEqual([]);
	});

	it('a node without n8n’s id refuses every request and refuses to activate', async () => {
		harness = await startTrigger({}, { webhookId: null });
		const answer = await postJson(
			[EVENTS.delivered],
			'/webhook/webhook-workflow/email%20events/email-events',
		);
		expect(answer.status).toBe(404);
		expect(harness.emitted()).toEqual([]);
		const checkExists = trigger.webhookMethods.default.checkExists;
		const context = { getNode: () => ({ name: 'Email Events' }) } as never;
		await expect(checkExists.call(context)).rejects.toThrow(
			'This node has no random webhook ID, so its URL would be guessable',
		);
	});

	it('the id is what n8n generates: a random UUID v4 under /webhook/<id>/email-events', async () => {
		harness = await startTrigger();
		expect(productionPath(harness)).toMatch(
			/^\/webhook\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\/email-events$/,
		);
	});
});

describe('bodies', () => {
	beforeEach(async () => {
		harness = await startTrigger();
	});

	it('an empty array: 200, nothing emitted', async () => {
		expect(await postJson([])).toEqual({ status: 200, text: '{"received":0,"emitted":0}' });
		expect(harness.emitted()).toEqual([]);
	});

	it('a single object instead of an array', async () => {
		expect((await postJson(EVENTS.opened)).status).toBe(200);
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['opened']);
	});

	it('form-encoded: one event as fields, or the JSON list in one field', async () => {
		const fields = new URLSearchParams({
			event: 'unsubscribed',
			recipient: 'f@x.y',
			timestamp: String(T),
		});
		const form = 'application/x-www-form-urlencoded';
		expect((await harness.post(productionPath(harness), fields.toString(), form)).status).toBe(200);
		const list = new URLSearchParams({ events: JSON.stringify([EVENTS.opened, EVENTS.clicked]) });
		expect((await harness.post(productionPath(harness), list.toString(), form)).status).toBe(200);
		expect(jsonItems(harness).map((item) => [item.event, item.email, item.eventTimeIso])).toEqual([
			['unsubscribe', 'f@x.y', ISO],
			['opened', 'ann@example.com', ISO],
			['clicked', 'ann@example.com', ISO],
		]);
	});

	it('JSON sent as text/plain or without a content type is read', async () => {
		const path = productionPath(harness);
		expect((await harness.post(path, JSON.stringify([EVENTS.opened]), 'text/plain')).status).toBe(
			200,
		);
		expect((await harness.post(path, JSON.stringify([EVENTS.clicked]), null)).status).toBe(200);
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['opened', 'clicked']);
	});

	it.each([
		['text that is not JSON', 'delivered to ann', 'text/plain'],
		['no content type, not JSON', '<xml/>', null],
		['an empty body', '', 'application/json'],
		['a list of non-objects', '[1,2]', 'application/json'],
		['a JSON string', '"delivered"', 'application/json'],
		['a form without an event', 'a=1&b=2', 'application/x-www-form-urlencoded'],
	])('%s: 400, nothing emitted', async (_label, body, contentType) => {
		const answer = await harness.post(productionPath(harness), body, contentType);
		expect(answer).toEqual({
			status: 400,
			text: '{"message":"The body is not a JSON list of events"}',
		});
		expect(harness.emitted()).toEqual([]);
	});

	it('JSON that does not parse: n8n itself answers 422 before the node runs', async () => {
		const answer = await harness.post(productionPath(harness), '[{"event":', 'application/json');
		expect(answer.status).toBe(422);
		expect(harness.emitted()).toEqual([]);
	});

	it(`a body over ${MAX_BODY_BYTES} bytes: 413, nothing emitted`, async () => {
		const big = [{ ...EVENTS.delivered, subject: 'x'.repeat(MAX_BODY_BYTES) }];
		const answer = await postJson(big);
		expect(answer.status).toBe(413);
		expect(harness.emitted()).toEqual([]);
	});
});

describe('unknown kinds', () => {
	const unknown = {
		event: 'new',
		timestamp: T,
		message_id: 'n-1',
		recipient: 'h@x.y',
		extra: { a: 1 },
	};

	it('pass through as themselves with the raw event when Other Kinds is chosen (the default)', async () => {
		harness = await startTrigger();
		await postJson([unknown, { mystery: true }]);
		expect(jsonItems(harness)).toEqual([
			{ ...NULLS, event: 'new', email: 'h@x.y', ...TIMES, messageId: 'n-1', raw: unknown },
			{
				...NULLS,
				event: '',
				email: '',
				eventTime: null,
				eventTimeIso: null,
				raw: { mystery: true },
			},
		]);
	});

	it('are dropped (and acknowledged) when Other Kinds is not chosen', async () => {
		harness = await startTrigger({ events: ['delivered'] });
		expect(await postJson([unknown])).toEqual({ status: 200, text: '{"received":1,"emitted":0}' });
		expect(harness.emitted()).toEqual([]);
	});
});

describe('repeats', () => {
	it('an event posted again (alone, in a later batch, or twice in one) is emitted once', async () => {
		harness = await startTrigger();
		await postJson([EVENTS.delivered, EVENTS.opened]);
		await postJson([EVENTS.opened, EVENTS.clicked, EVENTS.clicked]);
		expect(await postJson([EVENTS.delivered])).toEqual({
			status: 200,
			text: '{"received":1,"emitted":0}',
		});
		expect(jsonItems(harness).map((item) => item.event)).toEqual([
			'delivered',
			'opened',
			'clicked',
		]);
	});

	it('two opens of one message at different times are two events', async () => {
		harness = await startTrigger();
		await postJson([EVENTS.opened, { ...EVENTS.opened, timestamp: T + 5 }]);
		expect(harness.emitted()).toHaveLength(2);
	});

	it('Drop Repeats off: every copy is emitted', async () => {
		harness = await startTrigger({ options: { dropRepeats: false } });
		await postJson([EVENTS.opened]);
		await postJson([EVENTS.opened]);
		expect(harness.emitted()).toHaveLength(2);
	});

	it('test URL events do not hide production events (separate memory)', async () => {
		harness = await startTrigger();
		const test = new URL(harness.testUrl()).pathname;
		expect((await postJson([EVENTS.opened], test)).status).toBe(200);
		expect((await postJson([EVENTS.opened])).status).toBe(200);
		expect(harness.hits.map((hit) => [hit.mode, hit.items?.length])).toEqual([
			['manual', 1],
			['webhook', 1],
		]);
	});

	it(`the window is bounded: after ${REPEAT_MAX_KEYS} newer events the oldest key is forgotten`, async () => {
		harness = await startTrigger();
		const event = (n: number) => ({ ...EVENTS.delivered, message_id: `k-${n}` });
		const all = Array.from({ length: REPEAT_MAX_KEYS + 1 }, (_, n) => event(n));
		for (let start = 0; start < all.length; start += 5000) {
			expect((await postJson(all.slice(start, start + 5000))).status).toBe(200);
		}
		expect(harness.emitted()).toHaveLength(REPEAT_MAX_KEYS + 1);
		await postJson([event(0), event(REPEAT_MAX_KEYS)]);
		expect(harness.hits.at(-1)!.items?.map((item) => item.json.messageId)).toEqual(['k-0']);
	});
});

describe('settings', () => {
	it('an Account Time Zone that is not a zone fails the activation, naming the credential field', async () => {
		harness = await startTrigger({}, { timeZone: 'Mars/Olympus' });
		await expect(harness.activate()).rejects.toThrow(
			'Account Time Zone: "Mars/Olympus" is not a time zone name',
		);
	});

	it('Events given an unknown value (expression, imported JSON) fail the activation, naming the setting', async () => {
		harness = await startTrigger({ events: ['opened', 'bounce'] });
		await expect(harness.activate()).rejects.toThrow(
			'Events: "bounce" is not an event of this trigger',
		);
	});

	it('known Events and a zone: the activation passes; without a credential Event Time is in UTC', async () => {
		harness = await startTrigger({ events: ['opened'] }, { timeZone: 'Europe/Berlin' });
		await expect(harness.activate()).resolves.toBe(true);
		await harness.close();
		harness = await startTrigger({ events: ['opened'] });
		await expect(harness.activate()).resolves.toBe(true);
	});

	it('an Account Time Zone made wrong after activation: 500 (the service posts again later), nothing emitted or remembered', async () => {
		harness = await startTrigger({ events: ['opened'] }, { timeZone: 'Mars/Olympus' });
		const answer = await postJson([EVENTS.opened]);
		expect(answer).toEqual({
			status: 500,
			text: '{"code":0,"message":"Account Time Zone: \\"Mars/Olympus\\" is not a time zone name"}',
		});
		expect(harness.emitted()).toEqual([]);
		// The user fixes the zone; the service posts the batch again: it is new to the node.
		const webhookId = new URL(harness.productionUrl()).pathname.split('/')[2];
		await harness.close();
		harness = await new WebhookHarness({
			nodeType: trigger,
			nodeTypeName: NODE_TYPE,
			parameters: { events: ['opened'] },
			webhookId,
			credentials: new CredentialStore({ apiKey: 'unused', timeZone: 'UTC' }),
		}).listen();
		expect((await postJson([EVENTS.opened])).text).toBe('');
		expect(harness.emitted()).toHaveLength(1);
	});
});

describe('test mode', () => {
	it('the test URL (/webhook-test/<id>/email-events) runs the node in manual mode with the same output', async () => {
		harness = await startTrigger();
		const answer = await postJson([EVENTS.hard_bounces], new URL(harness.testUrl()).pathname);
		expect(answer.status).toBe(200);
		expect(harness.hits[0].mode).toBe('manual');
		expect(jsonItems(harness)).toEqual([{ ...EXPECTED.hard_bounces, raw: EVENTS.hard_bounces }]);
	});
});
