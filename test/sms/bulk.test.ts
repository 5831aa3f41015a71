import { jsonOf, pairing, useSmsSandbox } from './setup';

const t = useSmsSandbox();

const phoneAt = (index: number) => String(380500000000 + index);
const inputs = (count: number, extra: (index: number) => Record<string, unknown> = () => ({})) =>
	Array.from({ length: count }, (_, index) => ({
		json: { phone: phoneAt(index), ...extra(index) },
	}));

describe('bulk: many items, few requests', () => {
	test('10,000 items → 10 requests of 1,000 phones; counters add up; every item paired once', async () => {
		// 500 of them are already in the list.
		await t.run({
			resource: 'phoneNumber',
			operation: 'add',
			addressBookId: 1,
			phones: Array.from({ length: 500 }, (_, i) => phoneAt(i * 20)).join(','),
		});
		t.sandbox.log.clear();
		const result = await t.run(
			{ resource: 'phoneNumber', operation: 'add', addressBookId: 1, phones: '={{ $json.phone }}' },
			inputs(10_000),
		);
		expect(result.error).toBeUndefined();
		const calls = t.calls();
		expect(calls).toHaveLength(10);
		expect(calls.every((call) => call.method === 'POST' && call.path === '/sms/numbers')).toBe(
			true,
		);
		expect(calls.map((call) => (call.body as { phones: string[] }).phones.length)).toEqual(
			Array(10).fill(1000),
		);
		expect((calls[3].body as { phones: string[] }).phones[0]).toBe(phoneAt(3000));
		const outputs = jsonOf(result);
		expect(outputs.map((json) => json.counters)).toEqual(
			Array(10).fill({ added: 950, exceptions: 0, exists: 50 }),
		);
		const paired = pairing(result);
		expect(paired.map((list) => list.length)).toEqual(Array(10).fill(1000));
		expect(paired.flat()).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
		const state = await t.control('GET', '/sms/state');
		expect(Object.keys((state.lists as Array<{ phones: object }>)[0].phones)).toHaveLength(10_000);
	});

	test('the batch size is a node option', async () => {
		const result = await t.run(
			{
				resource: 'blacklist',
				operation: 'add',
				phones: '={{ $json.phone }}',
				description: 'bulk',
				batching: { batchSize: 300 },
			},
			inputs(1000),
		);
		expect(t.calls().map((call) => (call.body as { phones: string[] }).phones.length)).toEqual([
			300, 300, 300, 100,
		]);
		expect(jsonOf(result).map((json) => json.counters)).toEqual([
			{ added: 300, exists: 0 },
			{ added: 300, exists: 0 },
			{ added: 300, exists: 0 },
			{ added: 100, exists: 0 },
		]);
	});

	test('a failed batch fails only its items (Continue On Fail)', async () => {
		t.sandbox.faults.add({
			method: 'POST',
			path: '/sms/send',
			status: 422,
			body: { message: 'Balance is depleted', error_code: 707 },
		});
		const result = await t.run(
			{
				resource: 'campaign',
				operation: 'sendToNumbers',
				sender: 'Sandbox',
				body: 'Hi',
				phones: '={{ $json.phone }}',
				batching: { batchSize: 2 },
			},
			inputs(5),
			{ continueOnFail: true },
		);
		expect(t.calls().map((call) => (call.body as { phones: string[] }).phones)).toEqual([
			[phoneAt(0), phoneAt(1)],
			[phoneAt(2), phoneAt(3)],
			[phoneAt(4)],
		]);
		// One error item per item of the failed request, each with its own phones.
		const outputs = jsonOf(result);
		const failure = {
			error: 'Balance is depleted (error code 707)',
			httpCode: '422',
			errorCode: 707,
		};
		expect(outputs.slice(0, 2)).toEqual([
			{ ...failure, phones: [phoneAt(0)] },
			{ ...failure, phones: [phoneAt(1)] },
		]);
		expect(outputs.slice(2).map((json) => [json.campaign_id, json.counters])).toEqual([
			['1001', { exceptions: 0, sends: 2 }],
			['1002', { exceptions: 0, sends: 1 }],
		]);
		expect(pairing(result)).toEqual([[0], [1], [2, 3], [4]]);
	});

	test('without Continue On Fail a failed batch stops the node with its message', async () => {
		t.sandbox.faults.add({
			method: 'DELETE',
			path: '/sms/numbers',
			status: 400,
			body: { message: 'Book not found', error_code: 213 },
		});
		const result = await t.run(
			{
				resource: 'phoneNumber',
				operation: 'remove',
				addressBookId: 1,
				phones: '={{ $json.phone }}',
			},
			inputs(3),
		);
		expect(result.error?.message).toBe('Book not found (error code 213)');
		expect(t.calls()).toHaveLength(1);
	});

	test('Add With Variables in bulk: each phone keeps its own variables', async () => {
		const result = await t.run(
			{
				resource: 'phoneNumber',
				operation: 'addWithVariables',
				addressBookId: 2,
				phones: '={{ $json.phone }}',
				variablesInput: 'json',
				variablesJson: '={{ { "Order": $json.order } }}',
				batching: { batchSize: 2500 },
			},
			inputs(5000, (index) => ({ order: index })),
		);
		const calls = t.calls();
		expect(calls).toHaveLength(2);
		const first = (calls[0].body as { phones: Record<string, unknown> }).phones;
		expect(Object.keys(first)).toHaveLength(2500);
		expect(first[phoneAt(7)]).toEqual([[{ name: 'Order', type: 'number', value: 7 }]]);
		expect(jsonOf(result).map((json) => json.counters)).toEqual([
			{ added: 2500, exceptions: 0, exists: 0 },
			{ added: 2500, exceptions: 0, exists: 0 },
		]);
	});

	test('Update Variables groups items by list and variables', async () => {
		await t.run(
			{ resource: 'phoneNumber', operation: 'add', addressBookId: 3, phones: '={{ $json.phone }}' },
			inputs(6),
		);
		t.sandbox.log.clear();
		const result = await t.run(
			{
				resource: 'phoneNumber',
				operation: 'updateVariables',
				addressBookId: 3,
				phones: '={{ $json.phone }}',
				variablesInput: 'fields',
				variablesUi: { variable: [{ name: 'Tier', type: 'string', value: '={{ $json.tier }}' }] },
			},
			inputs(6, (index) => ({ tier: index % 2 ? 'gold' : 'silver' })),
		);
		expect(t.calls().map((call) => call.body)).toEqual([
			{
				addressBookId: 3,
				phones: [phoneAt(0), phoneAt(2), phoneAt(4)],
				variables: [{ name: 'Tier', type: 'string', value: 'silver' }],
			},
			{
				addressBookId: 3,
				phones: [phoneAt(1), phoneAt(3), phoneAt(5)],
				variables: [{ name: 'Tier', type: 'string', value: 'gold' }],
			},
		]);
		expect(jsonOf(result).map((json) => json.counters)).toEqual([{ updated: 3 }, { updated: 3 }]);
		expect(pairing(result)).toEqual([
			[0, 2, 4],
			[1, 3, 5],
		]);
	});
});
