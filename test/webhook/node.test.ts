import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { MAX_BODY_BYTES } from '../../nodes/MessagingEmailTrigger/body';
import {
	REPEAT_WINDOW_MS,
	RepeatMemory,
	eventKey,
	forgetAllRepeats,
} from '../../nodes/MessagingEmailTrigger/dedupe';
import { WebhookHarness } from '../harness/webhook-harness';
import { CredentialStore } from '../harness/credentials';
import { NODE_TYPE, jsonItems, productionPath, startTrigger, trigger } from './setup';

/** 2026-11-23 10:00:00 UTC */
const T = 1_795_428_000;
const ISO = '2026-11-23T10:00:00.000Z';

/**
 * One event of each of the nine kinds, with the field names of docs/service-notes.md, Webhooks (both variants where
 * they vary).
 */
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

/** The node's answer to a batch: how many entries came, started the workflow, and why the others did not. */
const summary = (
	received: number,
	emitted: number,
	{ kindNotChosen = 0, repeats = 0, notEvents = 0 } = {},
) => JSON.stringify({ received, emitted, kindNotChosen, repeats, notEvents });

const postJson = async (body: unknown, path = productionPath(harness)) =>
	await harness.post(path, JSON.stringify(body));

describe('output of each event kind', () => {
	it.each(Object.keys(EVENTS))('%s', async (kind) => {
		harness = await startTrigger();
		const answer = await postJson([EVENTS[kind]]);
		expect(answer).toEqual({ status: 200, text: summary(1, 1) });
		expect(jsonItems(harness)).toEqual([{ ...EXPECTED[kind], raw: EVENTS[kind] }]);
	});

	it.each([
		['soft_bounces', 552, '5.2.2', 'Mailbox full', 'soft'],
		['soft_bounced', 550, '5.1.1', 'User unknown', 'soft'],
		['hard_bounces', 421, '4.4.2', 'Try later', 'hard'],
		['hard_bounced', 452, '4.2.2', 'Over quota', 'hard'],
	])(
		'%s with SMTP %i: the service’s verdict decides bounceType, the code is reported beside it',
		async (kind, code, subcode, text, verdict) => {
			harness = await startTrigger();
			const event = {
				event: kind,
				timestamp: T,
				message_id: `b-${kind}`,
				email: 'x@example.com',
				smtp_server_response_code: code,
				smtp_server_response_subcode: subcode,
				smtp_server_response: text,
			};
			await postJson([event]);
			expect(jsonItems(harness)).toEqual([
				{
					...NULLS,
					event: 'bounce',
					email: 'x@example.com',
					...TIMES,
					messageId: `b-${kind}`,
					smtpCode: code,
					smtpSubcode: subcode,
					smtpMessage: text,
					bounceType: verdict,
					raw: event,
				},
			]);
		},
	);

	it.each([
		['spam', 'spam_by_user'],
		['hard_bounced', 'hard_bounces'],
		['soft_bounced', 'soft_bounces'],
	])(
		'the 2026 spelling %s is the same event as %s: same output, same filter choice, same repeat key',
		async (spelling, kind) => {
			harness = await startTrigger({ events: [kind] });
			const event = { ...EVENTS[kind], event: spelling };
			const answer = await postJson([event]);
			expect(answer).toEqual({ status: 200, text: summary(1, 1) });
			expect(jsonItems(harness)).toEqual([{ ...EXPECTED[kind], raw: event }]);
			// The older spelling of the same event, posted again: a repeat.
			expect(await postJson([EVENTS[kind]])).toEqual({
				status: 200,
				text: summary(1, 0, { repeats: 1 }),
			});
		},
	);

	it('Events given the 2026 spellings (an expression, imported JSON) choose the same kinds', async () => {
		harness = await startTrigger({ events: ['spam', 'hard_bounced'] });
		await postJson([EVENTS.spam_by_user, EVENTS.hard_bounces, EVENTS.soft_bounces]);
		expect(jsonItems(harness).map((item) => [item.event, item.spamComplaint])).toEqual([
			['spamComplaint', true],
			['bounce', false],
		]);
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
		const none = await postJson([
			EVENTS.delivered,
			{ event: 'new', message_id: 'z', recipient: 'z@example.com' },
		]);
		expect(none).toEqual({ status: 200, text: summary(2, 0, { kindNotChosen: 2 }) });
		expect(harness.hits[1].items).toBeUndefined();
	});

	it('Events from an expression giving one kind as text: that kind starts the workflow', async () => {
		harness = await startTrigger({ events: '={{ "clicked" }}' });
		const answer = await postJson([EVENTS.delivered, EVENTS.clicked, EVENTS.opened]);
		expect(answer).toEqual({ status: 200, text: summary(3, 1, { kindNotChosen: 2 }) });
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

	it('Events holding a value that is no event kind (an expression, imported JSON): activation refused naming the setting', async () => {
		const node = { name: 'Email Events', webhookId: randomUUID() };
		const context = (events: unknown) =>
			({ getNode: () => node, getNodeParameter: () => events }) as never;
		const checkExists = trigger.webhookMethods.default.checkExists;
		await expect(checkExists.call(context('bounce'))).rejects.toThrow(
			'Events: "bounce" is not an email event kind this trigger offers',
		);
		await expect(checkExists.call(context(['opened', 'spam']))).resolves.toBe(true);
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
		expect(await postJson([])).toEqual({ status: 200, text: summary(0, 0) });
		expect(harness.emitted()).toEqual([]);
	});

	it('a single object instead of an array: accepted on purpose (the service may post one event), emitted as one', async () => {
		expect(await postJson(EVENTS.opened)).toEqual({ status: 200, text: summary(1, 1) });
		expect(jsonItems(harness)).toEqual([{ ...EXPECTED.opened, raw: EVENTS.opened }]);
	});

	it('an event without any recipient address is no event: 400 alone, counted under notEvents in a batch, never emitted with email ""', async () => {
		const noAddress = [
			{ event: 'opened' },
			{ event: 'opened', timestamp: T, message_id: 'm-9', recipient: '  ' },
			{ event: 'clicked', message_id: 'm-10', recipient: null, email: 42, url: 'https://x.y/' },
		];
		expect(await postJson(noAddress)).toEqual({
			status: 400,
			text: `{"message":"${noEventMessage}","notEvents":3}`,
		});
		expect(await postJson(noAddress[0])).toEqual({
			status: 400,
			text: `{"message":"${noEventMessage}","notEvents":1}`,
		});
		// `recipient` empty, the address under `email`: that address.
		const bounceLike = { event: 'opened', timestamp: T, recipient: '', email: 'gus@example.com' };
		expect(await postJson([EVENTS.opened, ...noAddress, bounceLike])).toEqual({
			status: 200,
			text: summary(5, 2, { notEvents: 3 }),
		});
		expect(jsonItems(harness).map((item) => item.email)).toEqual([
			'ann@example.com',
			'gus@example.com',
		]);
	});

	it('a click without a link field the node reads (link_url, url) is emitted with linkUrl null and counted in the answer', async () => {
		const guessed = {
			...EVENTS.clicked,
			message_id: 'm-11',
			link_url: undefined,
			link: 'https://x.y/',
		};
		const answer = await postJson([guessed, { ...EVENTS.clicked, message_id: 'm-12' }]);
		expect(answer).toEqual({
			status: 200,
			text: JSON.stringify({
				received: 2,
				emitted: 2,
				kindNotChosen: 0,
				repeats: 0,
				notEvents: 0,
				clicksWithoutLink: 1,
			}),
		});
		expect(jsonItems(harness).map((item) => item.linkUrl)).toEqual([null, 'https://example.com/a']);
		// The unknown field stays under `raw`, as the service posted it.
		expect((jsonItems(harness)[0].raw as IDataObject).link).toBe('https://x.y/');
		// Both fields the service uses count as a link.
		const withUrl = {
			...EVENTS.clicked,
			message_id: 'm-13',
			link_url: undefined,
			url: 'https://x.y/u',
		};
		expect(await postJson([withUrl])).toEqual({ status: 200, text: summary(1, 1) });
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

	const noEventMessage =
		'No entry is an email event: each needs its kind as text under \\"event\\", the recipient\'s address under \\"recipient\\" or \\"email\\", and at most 32 levels of nesting';

	it.each([
		['an object without `event`', { test: true }],
		['a list of objects without `event`', [{ foo: 1 }, { bar: 2 }]],
		['an empty or non-text `event`', [{ event: '' }, { event: 7, message_id: 'x' }]],
	])('%s: 400, nothing emitted', async (_label, body) => {
		const count = Array.isArray(body) ? body.length : 1;
		expect(await postJson(body)).toEqual({
			status: 400,
			text: `{"message":"${noEventMessage}","notEvents":${count}}`,
		});
		expect(harness.emitted()).toEqual([]);
	});

	it('a mixed batch: its events are emitted (200), the other entries counted as notEvents', async () => {
		const answer = await postJson([{ foo: 1 }, EVENTS.opened, { event: null }]);
		expect(answer).toEqual({ status: 200, text: summary(3, 1, { notEvents: 2 }) });
		expect(jsonItems(harness).map((item) => item.messageId)).toEqual(['m-3']);
	});

	it('an event nested 5,000 levels deep is not an event: 400 alone, counted in a mixed batch; no 500', async () => {
		// Written as text: JSON.stringify itself overflows the stack on it.
		const deep = `${'{"inner":'.repeat(5000)}{"end":true}${'}'.repeat(5000)}`;
		const nested = `{"event":"opened","recipient":"deep@example.com","extra":${deep}}`;
		const post = async (body: string) => await harness.post(productionPath(harness), body);
		expect(await post(`[${nested}]`)).toEqual({
			status: 400,
			text: `{"message":"${noEventMessage}","notEvents":1}`,
		});
		expect(await post(`[${nested},${JSON.stringify(EVENTS.clicked)}]`)).toEqual({
			status: 200,
			text: summary(2, 1, { notEvents: 1 }),
		});
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['clicked']);
	});

	it('an event without message id or time is keyed on its whole content, without recursion', async () => {
		const loose = { event: 'opened', recipient: 'a@b.c', extra: { list: [1, { b: 2, a: 1 }] } };
		const reordered = { extra: { list: [1, { a: 1, b: 2 }] }, recipient: 'a@b.c', event: 'opened' };
		expect((await postJson([loose])).text).toBe(summary(1, 1));
		expect((await postJson([reordered])).text).toBe(summary(1, 0, { repeats: 1 }));
		expect((await postJson([{ ...loose, extra: { list: [2] } }])).text).toBe(summary(1, 1));
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
		await postJson([unknown]);
		expect(jsonItems(harness)).toEqual([
			{ ...NULLS, event: 'new', email: 'h@x.y', ...TIMES, messageId: 'n-1', raw: unknown },
		]);
	});

	it('are dropped (and acknowledged) when Other Kinds is not chosen', async () => {
		harness = await startTrigger({ events: ['delivered'] });
		expect(await postJson([unknown])).toEqual({
			status: 200,
			text: summary(1, 0, { kindNotChosen: 1 }),
		});
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
			text: summary(1, 0, { repeats: 1 }),
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

	it('the same event with its timestamp once a number and once text is one event', async () => {
		harness = await startTrigger();
		await postJson([EVENTS.opened]);
		const asText = { ...EVENTS.opened, timestamp: String(T) };
		expect(await postJson([asText])).toEqual({
			status: 200,
			text: summary(1, 0, { repeats: 1 }),
		});
		expect(harness.emitted()).toHaveLength(1);
	});

	it('the answer tells events of a kind not chosen from repeats', async () => {
		harness = await startTrigger({ events: ['opened', 'clicked'] });
		await postJson([EVENTS.opened]);
		const answer = await postJson([EVENTS.opened, EVENTS.delivered, EVENTS.clicked]);
		expect(answer).toEqual({
			status: 200,
			text: summary(3, 1, { kindNotChosen: 1, repeats: 1 }),
		});
	});

	it('repeats after a restart are dropped: the memory is in the static data n8n stores', async () => {
		harness = await startTrigger();
		const batch = Array.from({ length: 100 }, (_, n) => ({
			...EVENTS.opened,
			message_id: `r-${n}`,
		}));
		expect(await postJson(batch)).toEqual({ status: 200, text: summary(100, 100) });
		const stored = harness.storedStaticData();
		const webhookId = new URL(harness.productionUrl()).pathname.split('/')[2];
		await harness.close();
		// n8n restarts: nothing in memory, the workflow (with its static data) loaded from the database.
		forgetAllRepeats();
		harness = await new WebhookHarness({
			nodeType: trigger,
			nodeTypeName: NODE_TYPE,
			parameters: { events: ['opened'] },
			webhookId,
			staticData: stored,
		}).listen();
		const again = await postJson([...batch, { ...EVENTS.opened, message_id: 'r-new' }]);
		expect(again).toEqual({ status: 200, text: summary(101, 1, { repeats: 100 }) });
		expect(jsonItems(harness).map((item) => item.messageId)).toEqual(['r-new']);
	});

	it('an event is remembered for 24 hours of arrival, then forgotten with its hour (bounded by time)', async () => {
		const start = Date.UTC(2026, 10, 23, 10, 30);
		const clock = jest.spyOn(Date, 'now').mockReturnValue(start);
		try {
			harness = await startTrigger();
			await postJson([EVENTS.opened]);
			clock.mockReturnValue(start + REPEAT_WINDOW_MS);
			expect((await postJson([EVENTS.opened])).text).toBe(summary(1, 0, { repeats: 1 }));
			const hours = (harness.storedStaticData()['node:Email Events'] as IDataObject)
				.repeats as IDataObject;
			expect(Object.keys(hours.hours as IDataObject)).toEqual([
				String(Math.floor(start / 3_600_000)),
			]);
			clock.mockReturnValue(start + REPEAT_WINDOW_MS + 3_600_000);
			expect((await postJson([EVENTS.opened])).text).toBe(summary(1, 1));
			const after = (harness.storedStaticData()['node:Email Events'] as IDataObject)
				.repeats as IDataObject;
			expect(Object.keys(after.hours as IDataObject)).toEqual([
				String(Math.floor((start + REPEAT_WINDOW_MS + 3_600_000) / 3_600_000)),
			]);
		} finally {
			clock.mockRestore();
		}
	});

	it('10,000 events of one day take 12 characters each in the static data', async () => {
		harness = await startTrigger();
		const all = Array.from({ length: 10_000 }, (_, n) => ({
			...EVENTS.delivered,
			message_id: `k-${n}`,
		}));
		for (let start = 0; start < all.length; start += 5000)
			expect((await postJson(all.slice(start, start + 5000))).status).toBe(200);
		const stored = JSON.stringify(harness.storedStaticData());
		expect(stored.length).toBeGreaterThan(120_000);
		expect(stored.length).toBeLessThan(120_200);
	});
});

describe('repeat memory shared by n8n processes', () => {
	const key = (n: number) => eventKey({ ...EVENTS.opened, message_id: `p-${n}` });
	const now = Date.UTC(2026, 10, 23, 10, 0);
	/** The workflow's static data in n8n's database: every request loads a copy and writes its copy back. */
	let database: IDataObject = {};
	const load = () => JSON.parse(JSON.stringify(database)) as IDataObject;
	const answerBatch = (process: string, loaded: IDataObject, keys: number[]) => {
		const memory = new RepeatMemory(`workflow:node:${process}`, now, loaded);
		const fresh = keys.filter((n) => memory.isNew(key(n)));
		memory.save();
		return { fresh, write: () => (database = loaded) };
	};
	beforeEach(() => {
		forgetAllRepeats();
		database = {};
	});

	it('two processes answering at once: the next write of either holds the keys of both', () => {
		const loadedByA = load();
		const loadedByB = load();
		answerBatch('A', loadedByA, [1]).write();
		// B loaded before A wrote: its write lacks key 1.
		answerBatch('B', loadedByB, [2]).write();
		expect(answerBatch('restarted', load(), [1]).fresh).toEqual([1]);
		// A answers its next batch: it writes what it knows (1) with what B stored (2) and its new key (3).
		answerBatch('A', load(), [3]).write();
		expect(answerBatch('C', load(), [1, 2, 3, 4]).fresh).toEqual([4]);
	});

	it('two requests of one process answering at once: the later write keeps the earlier one’s keys', () => {
		const first = load();
		const second = load();
		answerBatch('A', first, [1]).write();
		answerBatch('A', second, [2]).write();
		forgetAllRepeats();
		expect(answerBatch('restarted', load(), [1, 2, 3]).fresh).toEqual([3]);
	});

	it('a batch of repeats only writes nothing (n8n saves static data only when it changed)', () => {
		answerBatch('A', load(), [1]).write();
		const loaded = load();
		const memory = new RepeatMemory('workflow:node:A', now, loaded);
		expect(memory.isNew(key(1))).toBe(false);
		const before = JSON.stringify(loaded);
		memory.save();
		expect(JSON.stringify(loaded)).toBe(before);
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
			'Events: "bounce" is not an email event kind this trigger offers',
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
		expect((await postJson([EVENTS.opened])).text).toBe(summary(1, 1));
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
