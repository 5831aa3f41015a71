/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import type { IDataObject } from 'n8n-workflow';

import { FLUSH_EVERY_MS } from '../../sandbox/email/webhooks';
import { webhooksOf } from '../../sandbox/email';
import { useEmailSandbox } from '../email/setup';
import type { WebhookHarness } from '../harness/webhook-harness';
import { jsonItems, startTrigger } from './setup';
import { omit } from '../../sandbox/core/records';

/**
 * The sandbox's webhook delivery posting to the trigger over real HTTP: what the service's settings page does
 * (a handler URL, ticked events), what produces events (sends, tracking, unsubscribe/resubscribe), the 30 s /
 * 500-event batching, and batches posted again after a non-2xx answer.
 */
const t = useEmailSandbox();
let harness: WebhookHarness;

beforeEach(async () => {
	webhooksOf(t.sandbox).reset();
	harness = await startTrigger();
});
afterEach(async () => await harness.close());

const nowSeconds = () => Math.floor(t.sandbox.clock.nowMs() / 1000);
const register = async (body: IDataObject = {}) =>
	await t.control('POST', '/email/webhooks', { url: harness.productionUrl(), ...body });
const flush = async () => await t.control('POST', '/email/webhooks/flush');
const inject = async (events: IDataObject[]) =>
	await t.control('POST', '/email/webhooks/events', { events });
const send = async (to: string[], subject = 'Hello') =>
	(
		(await t.api('POST', '/smtp/emails', {
			email: {
				text: 'Hi',
				subject,
				from: { email: 'sender@sandbox.test' },
				to: to.map((email) => ({ email })),
			},
		})) as { id: string }
	).id;
const posted = () => harness.hits.map((hit) => hit.status);

async function until(condition: () => boolean, label: string, ms = 5000) {
	const deadline = Date.now() + ms;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${label}`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

describe('what produces events', () => {
	it('a send: delivered per good recipient; not delivered and a hard bounce (`email`, `task_id`) per bounce address', async () => {
		await register();
		const before = nowSeconds();
		const id = await send(['ann@example.com', 'bob@bounce.test']);
		await flush();
		expect(posted()).toEqual([200]);
		const raws = jsonItems(harness).map((item) => item.raw as IDataObject);
		for (const raw of raws) expect(raw.timestamp).toBeGreaterThanOrEqual(before);
		const common = { message_id: id, sender: 'sender@sandbox.test', subject: 'Hello' };
		const failure = {
			smtp_server_response_code: 550,
			smtp_server_response_subcode: '5.1.1',
			smtp_server_response: 'User unknown',
		};
		expect(raws.map((raw) => omit(raw, 'timestamp'))).toEqual([
			{
				event: 'delivered',
				...common,
				recipient: 'ann@example.com',
				smtp_server_response_code: 250,
				smtp_server_response_subcode: '2.0.0',
				smtp_server_response: 'OK: queued',
			},
			{ event: 'undelivered', ...common, recipient: 'bob@bounce.test', ...failure },
			{ event: 'hard_bounces', ...common, email: 'bob@bounce.test', task_id: 1, ...failure },
		]);
		expect(
			jsonItems(harness).map((item) => [item.event, item.email, item.smtpCode, item.bounceType]),
		).toEqual([
			['delivered', 'ann@example.com', 250, null],
			['notDelivered', 'bob@bounce.test', 550, 'hard'],
			['bounce', 'bob@bounce.test', 550, 'hard'],
		]);
	});

	it('opens and clicks from the tracking control route; clicks carry `link_url` or `url`', async () => {
		const id = await send(['ann@example.com']);
		await register();
		await t.control('POST', '/email/tracking', {
			id,
			opens: [{ browser: 'Firefox', os: 'Linux', ip: '203.0.113.5' }],
			clicks: [
				{ url: 'https://example.com/a' },
				{ url: 'https://example.com/b', ip: '203.0.113.6' },
			],
		});
		await flush();
		const raws = jsonItems(harness).map((item) => item.raw as IDataObject);
		expect(raws.map((raw) => [raw.event, raw.link_url, raw.url])).toEqual([
			['opened', undefined, undefined],
			['clicked', 'https://example.com/a', undefined],
			['clicked', undefined, 'https://example.com/b'],
		]);
		expect(
			jsonItems(harness).map((item) => [
				item.event,
				item.messageId,
				item.linkUrl,
				item.userAgent,
				item.ip,
			]),
		).toEqual([
			['opened', id, null, 'Mozilla/5.0 (Linux) Firefox', '203.0.113.5'],
			['clicked', id, 'https://example.com/a', 'Mozilla/5.0 (Linux) Chrome', '198.51.100.7'],
			['clicked', id, 'https://example.com/b', 'Mozilla/5.0 (Linux) Chrome', '203.0.113.6'],
		]);
	});

	it('unsubscribe (API), spam complaint (control), resubscribe (API)', async () => {
		await register();
		await t.api('POST', '/smtp/unsubscribe', { emails: [{ email: 'dan@example.com' }] });
		await t.control('POST', '/email/unsubscribes', {
			unsubscribes: [{ email: 'cat@example.com', spam_complaint: 1 }],
		});
		await t.api('DELETE', '/smtp/unsubscribe', {
			emails: ['dan@example.com', 'nobody@example.com'],
		});
		await flush();
		expect(jsonItems(harness).map((item) => [item.event, item.email, item.spamComplaint])).toEqual([
			['unsubscribe', 'dan@example.com', false],
			['spamComplaint', 'cat@example.com', true],
			['resubscribe', 'dan@example.com', false],
		]);
	});

	it('only the kinds ticked for the handler are posted', async () => {
		await register({ events: ['hard_bounces'] });
		await send(['ann@example.com', 'bob@bounce.test']);
		await flush();
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['bounce']);
	});
});

describe('batching', () => {
	it(`waits ${FLUSH_EVERY_MS / 1000} s of sandbox clock, then posts without being asked`, async () => {
		await register();
		await send(['ann@example.com']);
		await new Promise((resolve) => setTimeout(resolve, 600));
		expect(harness.hits).toHaveLength(0);
		await t.control('POST', '/clock/advance', { seconds: 30 });
		await until(() => harness.hits.length === 1, 'the 30-second flush');
		expect(jsonItems(harness).map((item) => item.event)).toEqual(['delivered']);
	});

	it('500 waiting events are posted at once, without waiting for the 30 s', async () => {
		await register();
		const events = Array.from({ length: 500 }, (_, n) => ({
			event: 'opened',
			message_id: `m-${n}`,
			recipient: `r${n}@example.com`,
		}));
		await inject(events);
		await until(() => harness.emitted().length === 500, '500 events');
		expect(harness.hits.map((hit) => hit.items?.length)).toEqual([500]);
	});

	it('1,200 events: three POSTs of 500, 500 and 200; each event emitted once', async () => {
		await register();
		await inject(
			Array.from({ length: 1200 }, (_, n) => ({
				event: n % 2 ? 'opened' : 'delivered',
				message_id: `m-${n}`,
				recipient: `r${n}@example.com`,
			})),
		);
		await flush();
		expect(harness.hits.map((hit) => [hit.status, hit.items?.length])).toEqual([
			[200, 500],
			[200, 500],
			[200, 200],
		]);
		const ids = jsonItems(harness).map((item) => item.messageId);
		expect(new Set(ids).size).toBe(1200);
	});

	it('events of one kind split over several POSTs (batch size 2)', async () => {
		await register({ batchSize: 2 });
		await send(['a@example.com', 'b@example.com', 'c@example.com']);
		await flush();
		expect(harness.hits.map((hit) => hit.items?.map((item) => item.json.event))).toEqual([
			['delivered', 'delivered'],
			['delivered'],
		]);
	});
});

describe('posting again', () => {
	it('a batch whose 200 was lost is posted again at the next flush; the trigger drops the repeats', async () => {
		await register({ loseAnswers: 1 });
		await send(['ann@example.com', 'bob@example.com']);
		await flush();
		await flush();
		expect(harness.hits.map((hit) => [hit.status, hit.answer])).toEqual([
			[200, '{"received":2,"emitted":2,"kindNotChosen":0,"repeats":0,"notEvents":0}'],
			[200, '{"received":2,"emitted":0,"kindNotChosen":0,"repeats":2,"notEvents":0}'],
		]);
		const deliveries = webhooksOf(t.sandbox).deliveries;
		expect(deliveries.map((d) => [d.batch, d.attempt, d.status, d.delivered])).toEqual([
			[deliveries[0].batch, 1, 200, false],
			[deliveries[0].batch, 2, 200, true],
		]);
		expect(jsonItems(harness).map((item) => item.email)).toEqual([
			'ann@example.com',
			'bob@example.com',
		]);
	});

	it('a batch answered 404 (wrong secret) is posted again at every flush, and never emitted', async () => {
		await t.control('POST', '/email/webhooks', {
			url: `${harness.url}/webhook/00000000-0000-4000-8000-000000000000/email-events`,
		});
		await send(['ann@example.com']);
		await flush();
		await t.control('POST', '/clock/advance', { seconds: 30 });
		await until(() => harness.hits.length === 2, 'the second attempt');
		expect(posted()).toEqual([404, 404]);
		expect(harness.emitted()).toEqual([]);
		const state = (await t.control('GET', '/email/webhooks')) as {
			handlers: Array<{ pending: number; retrying: number }>;
		};
		expect(state.handlers[0]).toMatchObject({ pending: 0, retrying: 1 });
	});

	it('a handler that does not answer (closed port) keeps its batch for later', async () => {
		const closed = harness.productionUrl();
		await harness.close();
		await t.control('POST', '/email/webhooks', { url: closed });
		await send(['ann@example.com']);
		await flush();
		expect(webhooksOf(t.sandbox).deliveries.map((d) => [d.status, d.delivered])).toEqual([
			[0, false],
		]);
		expect(webhooksOf(t.sandbox).handlers[0].retry).toHaveLength(1);
	});
});
