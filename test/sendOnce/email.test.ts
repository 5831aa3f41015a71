import type { INodeParameters } from 'n8n-workflow';

import { sendParameters } from '../harness/send-parameters';
import { jsonOf } from '../harness/run-node';
import { deduplicationStore } from '../harness/deduplication';
import { useSendOnceSandbox } from './setup';

const t = useSendOnceSandbox();

const orders = (...ids: Array<number | string | null | object>) =>
	ids.map((orderId, n) => ({ json: { orderId, email: `buyer${n}@example.com` } }));

/** Email → Send to each item's buyer, once per order. */
const confirmation = (settings: INodeParameters = {}): INodeParameters =>
	sendParameters({
		to: '={{ $json.email }}',
		subject: '=Order {{ $json.orderId }}',
		options: {
			sendOnce: { settings: { key: '={{ $json.orderId }}-confirmation', ...settings } },
		},
	});

/** The next `accepted` emails go through, the one after is refused by the service (HTTP 422). */
const refuseAfter = (accepted: number) => {
	if (accepted)
		t.sandbox.faults.add({ method: 'POST', path: '/smtp/emails', delayMs: 1, times: accepted });
	t.sandbox.faults.add({
		method: 'POST',
		path: '/smtp/emails',
		status: 422,
		body: { message: 'Recipient refused', error_code: 422 },
	});
};

const posts = () => t.calls().filter((call) => call.method === 'POST');
const sentTo = () =>
	posts().map(
		(call) => (call.body as { email: { to: Array<{ email: string }> } }).email.to[0].email,
	);

describe('Email → Send with Send Once per Key', () => {
	test('the same items twice: the second run sends nothing and marks every item', async () => {
		const first = await t.email(confirmation(), orders(1, 2, 3));
		expect(first.error).toBeUndefined();
		expect(sentTo()).toEqual(['buyer0@example.com', 'buyer1@example.com', 'buyer2@example.com']);
		const ids = jsonOf(first).map((json) => json.id);
		expect(
			jsonOf(first).map(({ alreadySent, sendOnceKey }) => ({ alreadySent, sendOnceKey })),
		).toEqual([
			{ alreadySent: false, sendOnceKey: '1-confirmation' },
			{ alreadySent: false, sendOnceKey: '2-confirmation' },
			{ alreadySent: false, sendOnceKey: '3-confirmation' },
		]);
		t.sandbox.log.clear();

		const second = await t.email(confirmation(), orders(1, 2, 3));
		expect(second.error).toBeUndefined();
		expect(posts()).toEqual([]);
		expect(second.items).toEqual(
			[1, 2, 3].map((order, item) => ({
				json: {
					alreadySent: true,
					sendOnceKey: `${order}-confirmation`,
					firstSentAt: null,
					firstSendId: null,
				},
				pairedItem: { item },
			})),
		);
		expect(t.outbox()).toEqual([
			'buyer0@example.com | Order 1',
			'buyer1@example.com | Order 2',
			'buyer2@example.com | Order 3',
		]);
		expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
	});

	test('the same key twice in one run is sent once; the repeat names the first send', async () => {
		const result = await t.email(confirmation(), orders(7, 8, 7));
		expect(result.error).toBeUndefined();
		expect(sentTo()).toEqual(['buyer0@example.com', 'buyer1@example.com']);
		const [first, , repeat] = jsonOf(result);
		expect(repeat).toEqual({
			alreadySent: true,
			sendOnceKey: '7-confirmation',
			firstSentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			firstSendId: first.id,
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	test('a run that failed at item N, retried: only items N… are sent', async () => {
		// One at a time: the first two go through, the service refuses the third (nothing sent), the run stops.
		refuseAfter(2);
		const parameters = {
			...confirmation(),
			requestOptions: { requestsPerSecond: 0, maxConcurrency: 1 },
		};
		const failed = await t.email(parameters, orders(1, 2, 3, 4, 5));
		expect(failed.error?.message).toBe('Recipient refused (error code 422)');
		expect(sentTo()).toEqual(['buyer0@example.com', 'buyer1@example.com', 'buyer2@example.com']);
		expect(t.outbox()).toEqual(['buyer0@example.com | Order 1', 'buyer1@example.com | Order 2']);
		t.sandbox.log.clear();

		const retried = await t.email(parameters, orders(1, 2, 3, 4, 5));
		expect(retried.error).toBeUndefined();
		expect(sentTo()).toEqual(['buyer2@example.com', 'buyer3@example.com', 'buyer4@example.com']);
		expect(jsonOf(retried).map((json) => json.alreadySent)).toEqual([
			true,
			true,
			false,
			false,
			false,
		]);
		expect(t.outbox()).toEqual(
			[1, 2, 3, 4, 5].map((order) => `buyer${order - 1}@example.com | Order ${order}`),
		);
	});

	test('the exact request: the email is sent as without the option', async () => {
		await t.email(confirmation(), orders(1));
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/senders', body: undefined },
			{
				method: 'POST',
				path: '/smtp/emails',
				body: {
					email: {
						html: Buffer.from('<p>Hello</p>').toString('base64'),
						text: 'Hello',
						subject: 'Order 1',
						from: { name: 'Sandbox Sender', email: 'sender@sandbox.test' },
						to: [{ email: 'buyer0@example.com' }],
					},
				},
			},
		]);
	});

	test('Continue On Fail: a refused item is not remembered, so the retry sends it (and only it)', async () => {
		t.sandbox.faults.add({ method: 'POST', path: '/smtp/emails', delayMs: 1 });
		refuseAfter(0);
		const parameters = {
			...confirmation(),
			requestOptions: { requestsPerSecond: 0, maxConcurrency: 1 },
		};
		const first = await t.email(parameters, orders(1, 2, 3), { continueOnFail: true });
		expect(first.error).toBeUndefined();
		expect(jsonOf(first)[1]).toEqual({
			error: 'Recipient refused (error code 422)',
			httpCode: '422',
			errorCode: 422,
		});
		expect(t.outbox()).toEqual(['buyer0@example.com | Order 1', 'buyer2@example.com | Order 3']);
		t.sandbox.log.clear();

		const retry = await t.email(parameters, orders(1, 2, 3), { continueOnFail: true });
		expect(sentTo()).toEqual(['buyer1@example.com']);
		expect(jsonOf(retry).map((json) => json.alreadySent)).toEqual([true, false, true]);
	});

	test('an unknown outcome (connection cut): the key stays remembered, the error says how to send anyway', async () => {
		t.sandbox.faults.add({ method: 'POST', path: '/smtp/emails', drop: true });
		const failed = await t.email(confirmation(), orders(1));
		expect(failed.error?.message).toMatch(/^The connection to the server was closed unexpectedly/);
		expect(failed.error?.description).toBe(
			'POST /smtp/emails was not retried: the service may have processed it, and repeating it could send twice. Check before re-running. ' +
				'Send Once per Key: the key "1-confirmation" stays remembered as possibly sent, so a re-run does not send it again. Check what was sent. ' +
				"To send it anyway, run once with Send Once per Key → Forget First: This Run's Keys.",
		);
		t.sandbox.log.clear();

		const rerun = await t.email(confirmation(), orders(1));
		expect(posts()).toEqual([]);
		expect(jsonOf(rerun)).toEqual([
			{ alreadySent: true, sendOnceKey: '1-confirmation', firstSentAt: null, firstSendId: null },
		]);

		const forced = await t.email(confirmation({ forget: 'items' }), orders(1));
		expect(sentTo()).toEqual(['buyer0@example.com']);
		expect(jsonOf(forced)[0]).toMatchObject({ alreadySent: false, sendOnceKey: '1-confirmation' });
		expect(t.outbox()).toEqual(['buyer0@example.com | Order 1']);
	});

	test("Forget First: Everything Remembered sends every item again; only this node's keys are forgotten", async () => {
		await t.email(confirmation(), orders(1, 2));
		await t.email(confirmation(), orders(1, 2), { nodeId: 'other' });
		t.sandbox.log.clear();
		await t.email(confirmation({ forget: 'all' }), orders(1, 2));
		expect(sentTo()).toEqual(['buyer0@example.com', 'buyer1@example.com']);
		t.sandbox.log.clear();
		await t.email(confirmation(), orders(1, 2), { nodeId: 'other' });
		expect(posts()).toEqual([]);
	});

	test('per node by default: another node (or workflow) sends the same keys; per workflow: it does not', async () => {
		await t.email(confirmation(), orders(1));
		await t.email(confirmation(), orders(1), { nodeId: 'second-node' });
		await t.email(confirmation(), orders(1), { workflowId: 'other-workflow' });
		expect(t.outbox()).toEqual(Array(3).fill('buyer0@example.com | Order 1'));
		t.sandbox.log.clear();

		const workflowWide = confirmation({ scope: 'workflow' });
		await t.email(workflowWide, orders(1));
		const second = await t.email(workflowWide, orders(1), { nodeId: 'second-node' });
		expect(sentTo()).toEqual(['buyer0@example.com']);
		expect(jsonOf(second)[0]).toMatchObject({ alreadySent: true, sendOnceKey: '1-confirmation' });
		// n8n keeps one row per node id ('n:<id>') and one per workflow (''), two values per key each.
		expect(deduplicationStore().count('test-workflow', 'n:subject')).toBe(2);
		expect(deduplicationStore().count('test-workflow', 'n:second-node')).toBe(2);
		expect(deduplicationStore().count('test-workflow', '')).toBe(2);
	});

	test('Key left empty: a digest of the message, so the same email to the same people is sent once', async () => {
		const byDigest = sendParameters({
			to: '={{ $json.email }}',
			subject: '={{ $json.subject }}',
			options: { sendOnce: { settings: {} } },
		});
		const first = await t.email(byDigest, [
			{ json: { email: 'ann@example.com', subject: 'Welcome' } },
			{ json: { email: 'bob@example.com', subject: 'Welcome' } },
		]);
		const keys = jsonOf(first).map((json) => json.sendOnceKey as string);
		expect(keys[0]).toMatch(/^auto:[\w-]{22}$/);
		expect(keys[1]).not.toBe(keys[0]);
		t.sandbox.log.clear();
		const second = await t.email(byDigest, [
			{ json: { email: 'ann@example.com', subject: 'Welcome' } },
			{ json: { email: 'ann@example.com', subject: 'Welcome again' } },
		]);
		expect(sentTo()).toEqual(['ann@example.com']);
		expect(jsonOf(second)[0]).toEqual({
			alreadySent: true,
			sendOnceKey: keys[0],
			firstSentAt: null,
			firstSendId: null,
		});
	});
});

describe('Send Once per Key: bad keys are refused before anything is sent', () => {
	test.each([
		[
			'an object',
			{ id: 1 },
			'Send Once per Key: Key must be text, but the value is an object ({"id":1}) [item 1]',
		],
		[
			'null',
			null,
			'Send Once per Key: Key must be text or a number, but the value is null [item 1]',
		],
		['empty text', '  ', 'Send Once per Key: Key is empty [item 1]'],
	])('%s', async (_, badKey, message) => {
		const parameters = sendParameters({
			to: '={{ $json.email }}',
			options: { sendOnce: { settings: { key: '={{ $json.orderId }}' } } },
		});
		const result = await t.email(parameters, orders(1, badKey as never, 3));
		expect(result.error?.message).toBe(message);
		expect(posts()).toEqual([]);
		expect(deduplicationStore().calls).toEqual([]);
	});

	test('a missing field (undefined) is refused too; with Continue On Fail the other items go out', async () => {
		const parameters = sendParameters({
			to: '={{ $json.email }}',
			options: { sendOnce: { settings: { key: '={{ $json.orderId }}' } } },
		});
		const result = await t.email(
			parameters,
			[{ json: { orderId: 1, email: 'a@example.com' } }, { json: { email: 'b@example.com' } }],
			{
				continueOnFail: true,
			},
		);
		expect(jsonOf(result)[1]).toEqual({
			error: 'Send Once per Key: Key must be text or a number, but the value is nothing [item 1]',
			description:
				'Point the expression at a field that holds text, e.g. {{ $json.orderId }}, or leave Key empty to use a digest of the message.',
		});
		expect(sentTo()).toEqual(['a@example.com']);
	});

	test('a bad key in the first item fails that item only (Continue On Fail)', async () => {
		const parameters = sendParameters({
			to: '={{ $json.email }}',
			options: { sendOnce: { settings: { key: '={{ $json.orderId }}' } } },
		});
		const result = await t.email(parameters, orders({ id: 1 }, 2), { continueOnFail: true });
		expect(jsonOf(result)[0].error).toBe(
			'Send Once per Key: Key must be text, but the value is an object ({"id":1}) [item 0]',
		);
		expect(jsonOf(result)[1]).toMatchObject({ alreadySent: false, sendOnceKey: '2' });
		expect(sentTo()).toEqual(['buyer1@example.com']);
	});

	test('Remember For (Days) given as an expression that is not a whole number', async () => {
		const result = await t.email(confirmation({ days: '={{ 1.5 }}' }), orders(1));
		expect(result.error?.message).toBe(
			'Send Once per Key: Remember For (Days) must be a whole number of days, 0 or more, but the value is 1.5 [item 0]',
		);
		expect(posts()).toEqual([]);
	});
});
