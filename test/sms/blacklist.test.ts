import { items, jsonOf, pairing, useSmsSandbox } from './setup';

const t = useSmsSandbox();

const blacklist = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'blacklist',
	operation,
	...extra,
});

describe('Blacklist', () => {
	test('Add: one request per description; counters', async () => {
		await t.run(blacklist('add', { phones: '380986235698', description: 'spam' }));
		t.sandbox.log.clear();
		const result = await t.run(
			blacklist('add', { phones: '={{ $json.p }}', description: '={{ $json.why }}' }),
			items(
				{ p: '+380 98 623 56 98', why: 'spam' },
				{ p: '380631234567', why: 'spam' },
				{ p: '79217451232', why: 'asked' },
			),
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/sms/black_list',
				query: {},
				rawQuery: '',
				body: { phones: ['380986235698', '380631234567'], description: 'spam' },
			},
			{
				method: 'POST',
				path: '/sms/black_list',
				query: {},
				rawQuery: '',
				body: { phones: ['79217451232'], description: 'asked' },
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ result: true, counters: { added: 1, exists: 1 }, phones: ['380986235698', '380631234567'] },
			{ result: true, counters: { added: 1, exists: 0 }, phones: ['79217451232'] },
		]);
		expect(pairing(result)).toEqual([[0, 1], [2]]);
	});

	test('Add: a description is required before sending', async () => {
		const result = await t.run(
			blacklist('add', { phones: '380986235698', description: '={{ "" }}' }),
		);
		expect(result.error?.message).toBe('Description: the service requires a description [item 0]');
		expect(t.calls()).toEqual([]);
	});

	test('Get Many: entries with phones as strings; Limit', async () => {
		await t.run(
			blacklist('add', { phones: '380986235698, 380631234567, 79217451232', description: 'spam' }),
		);
		t.sandbox.log.clear();
		// The service's times are wall-clock times in the account's zone (the credential's Account Time Zone, here
		// +05:30, no DST), whatever the workflow's zone.
		const all = await t.run(blacklist('getAll', { returnAll: true }), undefined, {
			timezone: 'America/New_York',
			accountTimeZone: 'Asia/Kolkata',
		});
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/sms/black_list', query: {}, rawQuery: '', body: undefined },
		]);
		const added = String(jsonOf(all)[0].add_date);
		expect(added).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		const addDateIso = new Date(`${added.replace(' ', 'T')}+05:30`).toISOString();
		expect(jsonOf(all)).toEqual([
			{ phone: '380986235698', description: 'spam', add_date: added, addDateIso },
			{ phone: '380631234567', description: 'spam', add_date: added, addDateIso },
			{ phone: '79217451232', description: 'spam', add_date: added, addDateIso },
		]);
		const two = await t.run(blacklist('getAll', { returnAll: false, limit: 2 }));
		expect(jsonOf(two).map((json) => json.phone)).toEqual(['380986235698', '380631234567']);
	});

	test('Check Numbers: one output per phone, paired to its item', async () => {
		await t.run(blacklist('add', { phones: '380631234567', description: 'asked' }));
		t.sandbox.log.clear();
		const result = await t.run(
			blacklist('check', { phones: '={{ $json.p }}' }),
			items({ p: '380986235698' }, { p: '+380 63 123 45 67' }),
		);
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/sms/black_list/by_numbers',
				query: { phones: ['380986235698', '380631234567'] },
				rawQuery: `phones=${encodeURIComponent('["380986235698","380631234567"]')}`,
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ phone: '380986235698', blacklisted: false },
			{
				phone: '380631234567',
				blacklisted: true,
				description: 'asked',
				add_date: expect.any(String),
				addDateIso: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
			},
		]);
		expect(pairing(result)).toEqual([[0], [1]]);
	});

	test('Check Numbers: at most 250 phones per URL', async () => {
		const phones = Array.from({ length: 600 }, (_, index) => String(380500000000 + index));
		const result = await t.run(
			blacklist('check', { phones: '={{ $json.p }}' }),
			phones.map((p) => ({ json: { p } })),
		);
		expect(t.calls().map((call) => (call.query.phones as string[]).length)).toEqual([
			250, 250, 100,
		]);
		expect(result.items).toHaveLength(600);
		expect(pairing(result)[599]).toEqual([599]);
	});

	test('Remove: DELETE with a JSON body; removed counter', async () => {
		await t.run(blacklist('add', { phones: '380986235698', description: 'spam' }));
		t.sandbox.log.clear();
		const result = await t.run(blacklist('remove', { phones: '380986235698, 380631234567' }));
		expect(t.calls()).toEqual([
			{
				method: 'DELETE',
				path: '/sms/black_list',
				query: {},
				rawQuery: '',
				body: { phones: ['380986235698', '380631234567'] },
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ result: true, counters: { removed: 1 }, phones: ['380986235698', '380631234567'] },
		]);
	});
});
