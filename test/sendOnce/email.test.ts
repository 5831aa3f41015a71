import type { INodeParameters } from 'n8n-workflow';

import { sendParameters } from '../harness/send-parameters';
import { jsonOf } from '../harness/run-node';
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
});
