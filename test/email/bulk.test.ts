import { formatServiceDate } from '../../sandbox/core/clock';
import { jsonOf, useEmailSandbox } from './setup';

const t = useEmailSandbox();

describe('Get Many by ID: chunks of 500', () => {
	test('1,234 IDs from 10 items → 3 requests (500, 500, 234); answers merged, each record paired to its item', async () => {
		const ids = await t.seedEmails(1234);
		const perItem = Math.ceil(1234 / 10);
		const items = Array.from({ length: 10 }, (_, index) => ({
			json: { ids: ids.slice(index * perItem, (index + 1) * perItem) },
		}));
		const result = await t.run(
			{ resource: 'email', operation: 'getManyById', emailIds: '={{ $json.ids }}' },
			items,
		);
		expect(result.error).toBeUndefined();
		const calls = t.calls();
		expect(calls.map(({ method, path }) => `${method} ${path}`)).toEqual(
			Array(3).fill('POST /smtp/emails/info'),
		);
		expect(calls.map((call) => call.body)).toEqual([
			{ emails: ids.slice(0, 500) },
			{ emails: ids.slice(500, 1000) },
			{ emails: ids.slice(1000) },
		]);
		const output = jsonOf(result);
		expect(output.map((record) => record.id)).toEqual(ids);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			ids.map((_, index) => ({ item: Math.floor(index / perItem) })),
		);
		// Records are normalised like Get's: numbers as numbers.
		expect(
			output.every(
				(record) => typeof record.total_size === 'number' && record.smtp_answer_code === 250,
			),
		).toBe(true);
	});
});

describe('Unsubscribe Add/Remove over many items', () => {
	const items = Array.from({ length: 2500 }, (_, index) => ({
		json: { email: `person${index}@example.com` },
	}));

	test('2,500 addresses over 2,500 items → 5 requests of 500; 2,500 outputs, each paired to its item', async () => {
		const result = await t.run(
			{ resource: 'unsubscribe', operation: 'add', emails: '={{ $json.email }}' },
			items,
		);
		expect(result.error).toBeUndefined();
		const calls = t.calls();
		expect(calls.map(({ method, path }) => `${method} ${path}`)).toEqual(
			Array(5).fill('POST /smtp/unsubscribe'),
		);
		expect(calls.map((call) => call.body)).toEqual(
			[0, 1, 2, 3, 4].map((chunk) => ({
				emails: items
					.slice(chunk * 500, (chunk + 1) * 500)
					.map(({ json }) => ({ email: json.email })),
			})),
		);
		expect(jsonOf(result)).toEqual(items.map(({ json }) => ({ email: json.email, result: true })));
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(t.state().unsubscribes).toHaveLength(2500);

		t.sandbox.log.clear();
		const removed = await t.run(
			{
				resource: 'unsubscribe',
				operation: 'remove',
				emails: '={{ $json.email }}',
			},
			items,
		);
		// 500 per request by default, the most the node sends (the service documents no limit; a larger Batch
		// Size is refused, see test/hardening).
		expect(t.calls().map((call) => (call.body as { emails: string[] }).emails.length)).toEqual([
			500, 500, 500, 500, 500,
		]);
		expect(t.calls()[0]).toEqual({
			method: 'DELETE',
			path: '/smtp/unsubscribe',
			rawQuery: '',
			body: { emails: items.slice(0, 500).map(({ json }) => json.email) },
		});
		expect(jsonOf(removed)).toEqual(items.map(({ json }) => ({ email: json.email, result: true })));
		expect(t.state().unsubscribes).toEqual([]);
	});

	test('Batching → Batch Size: a smaller chunk size is honoured', async () => {
		await t.run(
			{
				resource: 'unsubscribe',
				operation: 'add',
				emails: '={{ $json.email }}',
				batching: { batchSize: 300 },
			},
			items.slice(0, 1000),
		);
		expect(t.calls().map((call) => (call.body as { emails: unknown[] }).emails.length)).toEqual([
			300, 300, 300, 100,
		]);
	});

	test('a failed chunk fails only its items (Continue On Fail); an item split across chunks keeps its good half', async () => {
		const mixed = [
			...Array.from({ length: 499 }, (_, index) => ({ json: { emails: `a${index}@example.com` } })),
			// Item 499 has two addresses: the first ends chunk 1, the second starts chunk 2.
			{ json: { emails: 'split1@example.com, split2@example.com' } },
			...Array.from({ length: 600 }, (_, index) => ({ json: { emails: `b${index}@example.com` } })),
		];
		// The first request goes through (the rule only delays it), the second is refused.
		t.sandbox.faults.add({ method: 'POST', path: '/smtp/unsubscribe', delayMs: 1 });
		t.sandbox.faults.add({
			method: 'POST',
			path: '/smtp/unsubscribe',
			status: 422,
			body: { message: 'Simulated refusal', error_code: 77 },
		});
		const result = await t.run(
			{
				resource: 'unsubscribe',
				operation: 'add',
				emails: '={{ $json.emails }}',
				requestOptions: { requestsPerSecond: 0, maxConcurrency: 1 },
			},
			mixed,
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(t.calls().map((call) => (call.body as { emails: unknown[] }).emails.length)).toEqual([
			500, 500, 101,
		]);
		const output = jsonOf(result);
		const failure = { error: 'Simulated refusal (error code 77)', httpCode: '422', errorCode: 77 };
		expect(output.slice(0, 499)).toEqual(
			mixed.slice(0, 499).map(({ json }) => ({ email: json.emails, result: true })),
		);
		expect(output.slice(499, 501)).toEqual([
			{ email: 'split1@example.com', result: true },
			{ ...failure, emails: ['split2@example.com'] },
		]);
		// Chunk 2 held split2 and b0…b498; chunk 3 (b499…b599) went through.
		expect(output.slice(501, 1000)).toEqual(
			Array.from({ length: 499 }, (_, index) => ({
				...failure,
				emails: [`b${index}@example.com`],
			})),
		);
		expect(output.slice(1000)).toEqual(
			Array.from({ length: 101 }, (_, index) => ({
				email: `b${index + 499}@example.com`,
				result: true,
			})),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			...Array.from({ length: 500 }, (_, item) => ({ item })),
			{ item: 499 },
			...Array.from({ length: 600 }, (_, index) => ({ item: index + 500 })),
		]);
	});

	test('without Continue On Fail the failure stops the node and names an item of the failed chunk', async () => {
		t.sandbox.faults.add({
			method: 'POST',
			path: '/smtp/unsubscribe',
			status: 400,
			body: { message: 'Empty emails', error_code: 14 },
		});
		const result = await t.run(
			{
				resource: 'unsubscribe',
				operation: 'add',
				emails: '={{ $json.email }}',
				requestOptions: { requestsPerSecond: 0, maxConcurrency: 1 },
			},
			items.slice(0, 600),
		);
		expect(result.error?.message).toBe('Empty emails (error code 14)');
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(t.calls()).toHaveLength(1);
	});
});

describe('Return All over 1,000+ records', () => {
	test('bounces: 1,050 in the window → 11 pages of at most 100, all records in order', async () => {
		const base = t.sandbox.clock.nowMs() - 20 * 3_600_000;
		const bounces = Array.from({ length: 1050 }, (_, index) => ({
			email_to: `b${index}@example.com`,
			send_date: formatServiceDate(new Date(base + index * 1000)),
		}));
		expect(await t.control('POST', '/email/bounces', { bounces })).toEqual({
			result: true,
			added: 1050,
		});
		const result = await t.run({ resource: 'bounce', operation: 'getAll', returnAll: true });
		expect(t.calls().map((call) => call.rawQuery)).toEqual(
			Array.from({ length: 11 }, (_, page) => `limit=100&offset=${page * 100}`),
		);
		const output = jsonOf(result);
		expect(output).toHaveLength(1050);
		expect(output.map((record) => record.email)).toEqual(bounces.map((bounce) => bounce.email_to));
		expect(output[1049]).toEqual({
			event: 'bounce',
			email: 'b1049@example.com',
			eventTime: bounces[1049].send_date,
			eventTimeIso: `${bounces[1049].send_date.replace(' ', 'T')}.000Z`,
			sender: 'sender@sandbox.test',
			subject: '',
			smtpCode: 550,
			smtpSubcode: '5.1.1',
			smtpMessage: 'User unknown',
			bounceType: 'hard',
			raw: {
				email_to: 'b1049@example.com',
				sender: 'sender@sandbox.test',
				subject: '',
				smtp_answer_code: 550,
				smtp_answer_subcode: '5.1.1',
				smtp_answer_data: 'User unknown',
				send_date: bounces[1049].send_date,
			},
		});
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	test('unsubscribes: 1,234 → 13 pages; Limit 250 → 3 requests (100, 100, 50)', async () => {
		const unsubscribes = Array.from({ length: 1234 }, (_, index) => ({
			email: `u${index}@example.com`,
			date: '2026-02-03 10:00:00',
		}));
		await t.control('POST', '/email/unsubscribes', { unsubscribes });
		const all = await t.run({ resource: 'unsubscribe', operation: 'getAll', returnAll: true });
		expect(t.calls()).toHaveLength(13);
		expect(jsonOf(all).map((entry) => entry.email)).toEqual(
			unsubscribes.map((entry) => entry.email),
		);

		t.sandbox.log.clear();
		const limited = await t.run({
			resource: 'unsubscribe',
			operation: 'getAll',
			returnAll: false,
			limit: 250,
		});
		expect(t.calls().map((call) => call.rawQuery)).toEqual([
			'limit=100&offset=0',
			'limit=100&offset=100',
			'limit=50&offset=200',
		]);
		expect(jsonOf(limited)).toHaveLength(250);
	});
});
