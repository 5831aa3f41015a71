import { jsonOf, pairing, useSmsSandbox } from './setup';

const t = useSmsSandbox();

const A = '380500000001';
const B = '380500000002';
const C = '380500000003';
const D = '380500000004';

// Five items; A comes from items 0, 1 and 3, C from items 2 and 4. Two phones per request.
const mixed = [A, `${B}, ${A}`, C, `+${A}`, `${D};${C}`].map((phone) => ({ json: { phone } }));
const addMixed = {
	resource: 'phoneNumber',
	operation: 'add',
	addressBookId: 1,
	phones: '={{ $json.phone }}',
	batching: { batchSize: 2 },
};

describe('bulk: a phone given by several items', () => {
	test('is sent once, in the place it was first seen, and paired to every item that gave it', async () => {
		const result = await t.run(addMixed, mixed);
		expect(result.error).toBeUndefined();
		expect(t.calls().map((call) => call.body)).toEqual([
			{ addressBookId: 1, phones: [A, B] },
			{ addressBookId: 1, phones: [C, D] },
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '1',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 0 },
				phones: [A, B],
			},
			{
				addressBookId: '1',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 0 },
				phones: [C, D],
			},
		]);
		expect(pairing(result)).toEqual([
			[0, 1, 3],
			[2, 4],
		]);
	});

	test("a failed request gives each of its items an error item with that item's own phones", async () => {
		t.sandbox.faults.add({
			method: 'POST',
			path: '/sms/numbers',
			status: 400,
			body: { message: 'Book is locked', error_code: 213 },
		});
		const result = await t.run(addMixed, mixed, { continueOnFail: true });
		expect(t.calls().map((call) => (call.body as { phones: string[] }).phones)).toEqual([
			[A, B],
			[C, D],
		]);
		const failure = { error: 'Book is locked (error code 213)', httpCode: '400', errorCode: 213 };
		expect(jsonOf(result)).toEqual([
			{ ...failure, phones: [A] },
			{ ...failure, phones: [A, B] },
			{
				addressBookId: '1',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 0 },
				phones: [C, D],
			},
			{ ...failure, phones: [A] },
		]);
		expect(pairing(result)).toEqual([[0], [1], [2, 4], [3]]);
	});

	test('30,000 items of the same phone: one request, one output item paired to all of them in order', async () => {
		const count = 30_000;
		const result = await t.run(
			{ resource: 'phoneNumber', operation: 'add', addressBookId: 1, phones: '={{ $json.phone }}' },
			Array.from({ length: count }, () => ({ json: { phone: A } })),
		);
		expect(t.calls().map((call) => call.body)).toEqual([{ addressBookId: 1, phones: [A] }]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '1',
				result: true,
				counters: { added: 1, exceptions: 0, exists: 0 },
				phones: [A],
			},
		]);
		expect(pairing(result)).toEqual([Array.from({ length: count }, (_, index) => index)]);
	});
});
