import { formatServiceDate } from '../../sandbox/core/clock';
import { listSearchContext } from '../harness/list-search';
import { items, jsonOf, pairing, useSmsSandbox } from './setup';

const t = useSmsSandbox();

const campaign = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'campaign',
	operation,
	...extra,
});
const send = (extra: Record<string, unknown> = {}) =>
	campaign('sendToNumbers', { sender: 'Sandbox', body: 'Hello', ...extra });
const addToList = (addressBookId: number, phones: string) =>
	t.run({ resource: 'phoneNumber', operation: 'add', addressBookId, phones });
/** The campaign's dates as the sandbox recorded them (the clock runs in real time, so tests read them back). */
const datesOf = async (id: number) => {
	const state = await t.control('GET', '/sms/state');
	const found = (
		state.campaigns as Array<{ id: number; date_created: string; send_date: string }>
	).find((entry) => entry.id === id)!;
	return { date_created: found.date_created, send_date: found.send_date };
};
const plus = (date: string, ms: number) =>
	formatServiceDate(new Date(Date.parse(`${date.replace(' ', 'T')}Z`) + ms));

describe('Campaign: create and send', () => {
	test("Create for List: sender, body, transliterate, route pairs, a zoned send date in the account's time zone", async () => {
		await addToList(11, '380986235698, 12025550143');
		t.sandbox.log.clear();
		const result = await t.run(
			campaign('createForList', {
				sender: 'Sandbox',
				addressBookId: 11,
				body: 'Привіт',
				options: {
					transliterate: true,
					route: {
						pairs: [
							{ country: 'ua', route: 'international' },
							{ country: 'US', route: 'national' },
						],
					},
					sendDate: '2031-01-02T10:00:00.000Z',
				},
			}),
			undefined,
			{ timezone: 'America/New_York', accountTimeZone: 'Europe/Kyiv' },
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/sms/campaigns',
				query: {},
				rawQuery: '',
				body: {
					sender: 'Sandbox',
					addressBookId: 11,
					body: 'Привіт',
					transliterate: 1,
					route: { UA: 'international', US: 'national' },
					date: '2031-01-02 12:00:00',
				},
			},
		]);
		expect(jsonOf(result)).toEqual([{ result: true, campaign_id: '1001' }]);
	});

	test.each([
		['UTC', undefined, '2031-11-25 14:00:00'],
		['Europe/Berlin', 'Europe/Berlin', '2031-11-25 15:00:00'],
		['America/New_York', 'America/New_York', '2031-11-25 09:00:00'],
	])(
		"Send At from the picker (09:00 in a New York workflow) is sent as the account's wall-clock time: account %s",
		async (_, accountTimeZone, sent) => {
			await addToList(11, '380986235698');
			t.sandbox.log.clear();
			const result = await t.run(
				campaign('createForList', {
					sender: 'Sandbox',
					addressBookId: 11,
					body: 'Hi',
					options: { sendDate: '2031-11-25T09:00:00' },
				}),
				undefined,
				{ timezone: 'America/New_York', accountTimeZone },
			);
			expect(result.error).toBeUndefined();
			expect(t.calls().map((call) => (call.body as { date?: string }).date)).toEqual([sent]);
		},
	);

	test("Send At that has passed in the account's zone is refused, naming the zone", async () => {
		const now = new Date();
		// One hour ago in UTC, written as UTC wall-clock time by a UTC workflow; the account is in UTC too.
		const hourAgo = new Date(now.getTime() - 3_600_000).toISOString().slice(0, 19);
		const result = await t.run(
			campaign('createForList', {
				sender: 'Sandbox',
				addressBookId: 11,
				body: 'Hi',
				options: { sendDate: hourAgo },
			}),
			undefined,
			{ accountTimeZone: 'Asia/Tokyo', timezone: 'Asia/Tokyo' },
		);
		expect(result.error?.message).toMatch(
			/^Send At: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} has passed \(it is now \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} in Asia\/Tokyo, the account's time zone\) \[item 0\]$/,
		);
		expect(t.calls()).toEqual([]);
	});

	test('Create for List: a wall-clock send date is sent as it is; no options → transliterate 0 only', async () => {
		await addToList(11, '380986235698');
		t.sandbox.log.clear();
		await t.run(
			campaign('createForList', {
				sender: 'Sandbox',
				addressBookId: 11,
				body: 'Hi',
				options: { sendDate: '2031-05-06T07:08:09' },
			}),
		);
		await t.run(campaign('createForList', { sender: 'Sandbox', addressBookId: 11, body: 'Hi' }));
		expect(t.calls().map((call) => call.body)).toEqual([
			{
				sender: 'Sandbox',
				addressBookId: 11,
				body: 'Hi',
				transliterate: 0,
				date: '2031-05-06 07:08:09',
			},
			{ sender: 'Sandbox', addressBookId: 11, body: 'Hi', transliterate: 0 },
		]);
	});

	test('Send to Numbers: one campaign for all items; blacklisted numbers skipped by the service', async () => {
		await t.run({
			resource: 'blacklist',
			operation: 'add',
			phones: '380631234567',
			description: 'asked',
		});
		t.sandbox.log.clear();
		const result = await t.run(
			send({ phones: '={{ $json.phone }}' }),
			items({ phone: '+380 98 623 56 98' }, { phone: '380631234567' }, { phone: '1 202 555 0143' }),
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/sms/send',
				query: {},
				rawQuery: '',
				body: {
					sender: 'Sandbox',
					phones: ['380986235698', '380631234567', '12025550143'],
					body: 'Hello',
					transliterate: 0,
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				result: true,
				campaign_id: '1001',
				counters: { exceptions: 1, sends: 2 },
				phones: ['380986235698', '380631234567', '12025550143'],
			},
		]);
		expect(pairing(result)).toEqual([[0, 1, 2]]);
	});

	test('Send to Numbers: different messages are different campaigns', async () => {
		const result = await t.run(
			send({ phones: '={{ $json.phone }}', body: '={{ $json.text }}' }),
			items(
				{ phone: '380986235691', text: 'A' },
				{ phone: '380986235692', text: 'B' },
				{ phone: '380986235693', text: 'A' },
			),
		);
		expect(t.calls().map((call) => call.body)).toEqual([
			{ sender: 'Sandbox', phones: ['380986235691', '380986235693'], body: 'A', transliterate: 0 },
			{ sender: 'Sandbox', phones: ['380986235692'], body: 'B', transliterate: 0 },
		]);
		expect(pairing(result)).toEqual([[0, 2], [1]]);
	});

	test('Dry Run: emulate=1, campaign id 0, not listed', async () => {
		const result = await t.run(send({ phones: '380986235698', options: { dryRun: true } }));
		expect(t.calls()[0].body).toEqual({
			sender: 'Sandbox',
			phones: ['380986235698'],
			body: 'Hello',
			transliterate: 0,
			emulate: 1,
		});
		expect(jsonOf(result)).toEqual([
			{
				result: true,
				campaign_id: '0',
				counters: { exceptions: 0, sends: 1 },
				phones: ['380986235698'],
				dryRun: true,
			},
		]);
		const listed = await t.run(campaign('getAll', { returnAll: true }));
		expect(jsonOf(listed)).toEqual([]);
	});

	test.each([
		[
			'ABCDEFGHIJKL',
			'Sender: "ABCDEFGHIJKL" is not valid: a sender is letters and digits only (no spaces or symbols), at most 11 characters [item 0]',
		],
		[
			'My-Shop',
			'Sender: "My-Shop" is not valid: a sender is letters and digits only (no spaces or symbols), at most 11 characters [item 0]',
		],
	])('sender %p is refused before sending', async (sender, message) => {
		for (const parameters of [
			send({ sender, phones: '380986235698' }),
			campaign('createForList', { sender, addressBookId: 1, body: 'x' }),
		]) {
			const result = await t.run(parameters);
			expect(result.error?.message).toBe(message);
		}
		expect(t.calls()).toEqual([]);
	});

	test.each([
		[send({ phones: '380986235698', body: '={{ "  " }}' }), 'Message: is empty [item 0]'],
		[
			send({
				phones: '380986235698',
				options: { route: { pairs: [{ country: 'Ukraine', route: 'national' }] } },
			}),
			'Route: "Ukraine" is not a two-letter country code [item 0]',
		],
		[
			send({ phones: '380986235698', options: { sendDate: '={{ "next tuesday" }}' } }),
			'Send At: "next tuesday" is not a date: write it as YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with a zone (2027-01-06T09:00:00+01:00) [item 0]',
		],
		[send({ phones: '380986235698, 12' }), 'Phones: not a valid phone number: "12" [item 0]'],
	])('bad campaign input → clear error, zero requests (%#)', async (parameters, message) => {
		const result = await t.run(parameters);
		expect(result.error?.message).toBe(message);
		expect(t.calls()).toEqual([]);
	});

	test("a rejected sender: the service's refusal", async () => {
		await t.control('POST', '/sms/senders', { sender: 'Banned', status: 2 });
		const result = await t.run(send({ sender: 'Banned', phones: '380986235698' }));
		expect(result.error?.message).toBe('Sender Banned was rejected by moderation (error code 422)');
	});
});

describe('Campaign: lifecycle over the sandbox clock', () => {
	test('create → moderation → sent → delivered / not delivered, read through Get', async () => {
		const created = await t.run(send({ phones: '380986235698, 380986235690, 12025550143' }));
		expect(jsonOf(created)[0].campaign_id).toBe('1001');
		const { date_created: createdAt } = await datesOf(1001);
		const get = async () => {
			t.sandbox.log.clear();
			// The editor's resource locator shape (By ID mode).
			const result = await t.run(
				campaign('get', { campaignId: { __rl: true, mode: 'id', value: '1001' } }),
			);
			expect(t.calls()).toEqual([
				{
					method: 'GET',
					path: '/sms/campaigns/info/1001',
					query: {},
					rawQuery: '',
					body: undefined,
				},
			]);
			return jsonOf(result)[0];
		};
		const phonesAt = (statuses: number[], names: string[], spent: number[]) =>
			['380986235698', '380986235690', '12025550143'].map((phone, index) => ({
				phone,
				status: statuses[index],
				status_explain: names[index],
				statusName: names[index],
				country_code: index < 2 ? 'UA' : 'US',
				money_spent: spent[index],
			}));
		const header = {
			id: '1001',
			address_book_id: '0',
			currency: 'USD',
			company_price: 0.07,
			send_date: plus(createdAt, 120_000),
			date_created: createdAt,
			sender_name: 'Sandbox',
			// The ISO twins the package adds (the workflow's time zone is UTC here).
			sendDateIso: `${plus(createdAt, 120_000).replace(' ', 'T')}.000Z`,
			dateCreatedIso: `${createdAt.replace(' ', 'T')}.000Z`,
		};

		expect(await get()).toEqual({
			...header,
			task_phones_info: phonesAt([0, 0, 0], Array(3).fill('Ready to send'), [0, 0, 0]),
		});
		t.sandbox.clock.advance(121_000);
		expect(await get()).toEqual({
			...header,
			task_phones_info: phonesAt([1, 1, 1], Array(3).fill('Sent'), [0.03, 0.03, 0.01]),
		});
		t.sandbox.clock.advance(60_000);
		expect(await get()).toEqual({
			...header,
			task_phones_info: phonesAt(
				[2, 12, 2],
				['Delivered', 'Not delivered', 'Delivered'],
				[0.03, 0.03, 0.01],
			),
		});
	});

	test('Cancel before sending starts; after it starts → the refusal (code 602) as a clear error', async () => {
		await t.run(send({ phones: '380986235698' }));
		await t.run(send({ phones: '380986235698', body: 'Second' }));
		t.sandbox.log.clear();
		const cancelled = await t.run(campaign('cancel', { campaignId: '1001' }));
		expect(t.calls()).toEqual([
			{
				method: 'PUT',
				path: '/sms/campaigns/cancel/1001',
				query: {},
				rawQuery: '',
				body: undefined,
			},
		]);
		expect(jsonOf(cancelled)).toEqual([{ result: true, campaign_id: '1001' }]);

		t.sandbox.clock.advance(130_000);
		const late = await t.run(campaign('cancel', { campaignId: '1002' }));
		expect(late.error?.message).toBe(
			'Campaign sending has already started: it can no longer be cancelled (error code 602)',
		);
		expect(late.error?.description).toBe(
			'Campaign 1002 can no longer be cancelled: the service has started sending it. A campaign can be cancelled only before sending starts (while it is in moderation or scheduled).',
		);
		const cancelledDetail = jsonOf(await t.run(campaign('get', { campaignId: '1001' })))[0];
		expect(cancelledDetail.task_phones_info).toEqual([
			{
				phone: '380986235698',
				status: 0,
				status_explain: 'Cancelled',
				statusName: 'Ready to send',
				country_code: 'UA',
				money_spent: 0,
			},
		]);
	});

	test('use_dynamic_list: a scheduled list campaign includes phones added before the send time', async () => {
		await addToList(12, '380986235691');
		await addToList(13, '380986235691');
		const at = new Date(t.sandbox.clock.nowMs() + 3_600_000).toISOString();
		await t.run(
			campaign('createForList', {
				sender: 'Sandbox',
				addressBookId: 12,
				body: 'Hi',
				options: { sendDate: at, useDynamicList: true },
			}),
		);
		await t.run(
			campaign('createForList', {
				sender: 'Sandbox',
				addressBookId: 13,
				body: 'Hi',
				options: { sendDate: at },
			}),
		);
		expect(
			t
				.calls()
				.filter((call) => call.path === '/sms/campaigns')
				.map((call) => call.body),
		).toEqual([
			{
				sender: 'Sandbox',
				addressBookId: 12,
				body: 'Hi',
				transliterate: 0,
				date: formatServiceDate(new Date(at)),
				use_dynamic_list: true,
			},
			{
				sender: 'Sandbox',
				addressBookId: 13,
				body: 'Hi',
				transliterate: 0,
				date: formatServiceDate(new Date(at)),
			},
		]);
		t.sandbox.clock.advance(1_800_000);
		await addToList(12, '380986235692');
		await addToList(13, '380986235692');
		t.sandbox.clock.advance(1_900_000);
		await addToList(12, '380986235693'); // after the send time: not included
		const phones = async (id: string) =>
			(
				(jsonOf(await t.run(campaign('get', { campaignId: id })))[0].task_phones_info as Array<{
					phone: string;
				}>) ?? []
			).map((p) => p.phone);
		expect(await phones('1001')).toEqual(['380986235691', '380986235692']);
		expect(await phones('1002')).toEqual(['380986235691']);
	});

	test('Delete: DELETE with a JSON body; the campaign is gone', async () => {
		await t.run(send({ phones: '380986235698' }));
		t.sandbox.log.clear();
		const result = await t.run(campaign('delete', { campaignId: '1001' }));
		expect(t.calls()).toEqual([
			{ method: 'DELETE', path: '/sms/campaigns', query: {}, rawQuery: '', body: { id: 1001 } },
		]);
		expect(jsonOf(result)).toEqual([{ result: true, campaign_id: '1001' }]);
		const again = await t.run(campaign('get', { campaignId: '1001' }));
		expect(again.error?.message).toBe('Campaign not found (error code 404)');
	});

	test.each([['abc'], ['0'], ['-3']])(
		'Campaign ID %p → clear error, no request',
		async (campaignId) => {
			const result = await t.run(campaign('get', { campaignId }));
			expect(result.error?.message).toBe(
				`Campaign: must be a positive whole number (got "${campaignId}") [item 0]`,
			);
			expect(t.calls()).toEqual([]);
		},
	);

	test('Campaign picked from the list (locator in list mode): the same request as by ID', async () => {
		await t.run(send({ phones: '380986235698' }));
		t.sandbox.log.clear();
		const result = await t.run(
			campaign('cancel', { campaignId: { __rl: true, mode: 'list', value: '1001' } }),
		);
		expect(t.calls()).toEqual([
			{
				method: 'PUT',
				path: '/sms/campaigns/cancel/1001',
				query: {},
				rawQuery: '',
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual([{ result: true, campaign_id: '1001' }]);
	});

	test('the Campaign list (methods.listSearch): newest first, filtered by ID, sender or date', async () => {
		await t.run(send({ phones: '380986235698' }));
		t.sandbox.clock.advance(60_000);
		await t.run(send({ phones: '380986235698', body: 'Later' }));
		const first = await datesOf(1001);
		const second = await datesOf(1002);
		const { searchCampaigns } = await import('../../nodes/MessagingSms/methods/listSearch');
		const context = listSearchContext(t.sandbox);
		t.sandbox.log.clear();
		const all = await searchCampaigns.call(context as never);
		expect(all.results.map((entry) => entry.value)).toEqual(['1002', '1001']);
		expect(all.results[1].name).toMatch(
			new RegExp(`^#1001 · Sandbox · ${first.date_created} · [0-9.]+ [A-Z]+$`),
		);
		expect(t.calls().map((call) => [call.method, call.path])).toEqual([
			['GET', '/sms/campaigns/list'],
		]);
		const filtered = await searchCampaigns.call(context as never, second.date_created);
		expect(filtered.results.map((entry) => entry.value)).toEqual(['1002']);
		expect((await searchCampaigns.call(context as never, '1001')).results).toHaveLength(1);
	});
});

describe('Campaign: Get Many and Get Cost', () => {
	test('Get Many by date range in the service format', async () => {
		const start = t.sandbox.clock.nowMs();
		await t.run(send({ phones: '380986235698' }));
		t.sandbox.clock.advance(3_600_000);
		await t.run(send({ phones: '380986235698', body: 'Later' }));
		const second = await datesOf(1002);
		expect(second.send_date).toBe(plus(second.date_created, 120_000));
		t.sandbox.log.clear();
		const from = new Date(start + 1_800_000);
		const result = await t.run(
			campaign('getAll', {
				returnAll: true,
				filters: { dateFrom: from.toISOString(), dateTo: '2099-01-01T00:00:00' },
			}),
		);
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/sms/campaigns/list',
				query: { dateFrom: formatServiceDate(from), dateTo: '2099-01-01 00:00:00' },
				rawQuery: `dateFrom=${encodeURIComponent(formatServiceDate(from))}&dateTo=${encodeURIComponent('2099-01-01 00:00:00')}`,
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				id: '1002',
				address_book_id: '0',
				company_price: 0.03,
				company_currency: 'USD',
				...second,
				sender_name: 'Sandbox',
				sender_mail_address: '',
				sender_mail_name: '',
				external_stat: 0,
				sendDateIso: `${second.send_date.replace(' ', 'T')}.000Z`,
				dateCreatedIso: `${second.date_created.replace(' ', 'T')}.000Z`,
			},
		]);
		const all = await t.run(campaign('getAll', { returnAll: false, limit: 1 }));
		expect(jsonOf(all).map((json) => json.id)).toEqual(['1001']);
	});

	test('Get Cost with a mailing list', async () => {
		await addToList(21, '380986235698, 380986235699, 12025550143');
		t.sandbox.log.clear();
		const result = await t.run(
			campaign('getCost', { sender: 'Sandbox', body: 'Hello', addressBookId: '21' }),
		);
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/sms/campaigns/cost',
				query: { addressBookId: '21', sender: 'Sandbox', body: 'Hello' },
				rawQuery: 'addressBookId=21&sender=Sandbox&body=Hello',
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual([{ price: 0.07, currency: 'USD', addressBookId: '21' }]);
	});

	test('Get Cost with phones (and a route), from the price table', async () => {
		await t.control('PUT', '/sms/prices', {
			prices: { UA: 0.02, GB: 0.05, default: 0.2 },
			currency: 'EUR',
		});
		const result = await t.run(
			campaign('getCost', {
				sender: 'Sandbox',
				body: 'Hello',
				phones: '380986235698, 44 20 7946 0958, 5511912345678',
				options: { route: { pairs: [{ country: 'UA', route: 'national' }] } },
			}),
		);
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/sms/campaigns/cost',
				query: {
					phones: ['380986235698', '442079460958', '5511912345678'],
					sender: 'Sandbox',
					body: 'Hello',
					route: { UA: 'national' },
				},
				rawQuery:
					`phones=${encodeURIComponent('["380986235698","442079460958","5511912345678"]')}` +
					`&sender=Sandbox&body=Hello&route=${encodeURIComponent('{"UA":"national"}')}`,
				body: undefined,
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ price: 0.27, currency: 'EUR', phones: ['380986235698', '442079460958', '5511912345678'] },
		]);
	});

	test.each([
		[
			{ addressBookId: '21', phones: '380986235698' },
			'Mailing List: give either a Mailing List or Phones, not both [item 0]',
		],
		[{}, 'Mailing List: give either a Mailing List or Phones to price the campaign for [item 0]'],
		[
			{ addressBookId: 'list-21' },
			'Mailing List: must be a positive whole number (got "list-21") [item 0]',
		],
	])('Get Cost with %p → clear error, zero requests', async (extra, message) => {
		const result = await t.run(campaign('getCost', { sender: 'Sandbox', body: 'Hello', ...extra }));
		expect(result.error?.message).toBe(message);
		expect(t.calls()).toEqual([]);
	});
});
