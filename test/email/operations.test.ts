import type { INodeParameters } from 'n8n-workflow';

import { formatServiceDate } from '../../sandbox/core/clock';
import { listSearchContext } from '../harness/list-search';
import { jsonOf, useEmailSandbox } from './setup';
import { omit } from '../../sandbox/core/records';

const t = useEmailSandbox();
const HOUR = 3_600_000;
/** The ISO twin of a service time read in UTC (the workflow's time zone in these tests). */
const iso = (serviceTime: string) => `${serviceTime.replace(' ', 'T')}.000Z`;

/** The record Get / Get Many output for seeded email n (text "Body n", subject "Seed n"), normalised. */
function expectedRecord(id: string, n: number, extra: Record<string, unknown> = {}) {
	const stored = t.state().emails.find((email) => email.id === id)!;
	return {
		id,
		sender: 'sender@sandbox.test',
		total_size: 300 + `Seed ${n}`.length + `Body ${n}`.length,
		sender_ip: '127.0.0.1',
		smtp_answer_code: 250,
		smtp_answer_subcode: '2.0.0',
		smtp_answer_data: 'OK: queued',
		used_ip: '192.0.2.10',
		recipient: `user${n}@example.com`,
		subject: `Seed ${n}`,
		send_date: stored.send_date,
		sendDateIso: iso(stored.send_date),
		tracking: { click: 0, open: 0, link: [], client_info: [] },
		...extra,
	};
}

describe('Email → Get', () => {
	test('numbers sent as strings come out as numbers; tracking set through the control API', async () => {
		const [id] = await t.seedEmails(1);
		await t.control('POST', '/email/tracking', {
			id,
			opens: [
				{
					browser: 'Firefox',
					os: 'Android',
					ip: '203.0.113.5',
					country: 'UA',
					action_date: '2026-01-02 03:04:05',
				},
			],
			clicks: [{ url: 'https://example.com/a', action_date: '2026-01-02 03:05:00' }],
		});
		const result = await t.run({ resource: 'email', operation: 'get', emailId: id });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: `/smtp/emails/${id}`, rawQuery: '', body: undefined },
		]);
		// The service's own answer carries the strings.
		expect(t.sandbox.log.all()[0].responseBody).toMatchObject({
			total_size: '312',
			smtp_answer_code: '250',
		});
		expect(jsonOf(result)).toEqual([
			expectedRecord(id, 0, {
				tracking: {
					click: 1,
					open: 1,
					client_info: [
						{
							browser: 'Firefox',
							os: 'Android',
							ip: '203.0.113.5',
							country: 'UA',
							action_date: '2026-01-02 03:04:05',
							actionDateIso: '2026-01-02T03:04:05.000Z',
						},
					],
					link: [
						{
							url: 'https://example.com/a',
							browser: 'Chrome',
							os: 'Linux',
							ip: '198.51.100.7',
							country: 'US',
							action_date: '2026-01-02 03:05:00',
							actionDateIso: '2026-01-02T03:05:00.000Z',
							screen_resolution: '1920x1080',
						},
					],
				},
			}),
		]);
	});

	test('an unknown id is the service error; with Continue On Fail an error item', async () => {
		const failed = await t.run({ resource: 'email', operation: 'get', emailId: 'nope-nope-00' });
		expect(failed.error?.message).toBe('No such email (error code 14)');
		const tolerated = await t.run(
			{ resource: 'email', operation: 'get', emailId: 'nope-nope-00' },
			undefined,
			{ continueOnFail: true },
		);
		expect(jsonOf(tolerated)).toEqual([
			{ error: 'No such email (error code 14)', httpCode: '400', errorCode: 14 },
		]);
	});
});

describe('Email → Get Many / Get Count', () => {
	test('filters from date pickers (workflow time zone) become service dates; one item per record', async () => {
		const start = t.sandbox.clock.now();
		await t.seedEmails(1, () => 'early@example.com');
		t.sandbox.clock.advance(2 * HOUR);
		const middle = await t.seedEmails(2, (n) =>
			n === 0 ? 'mid@example.com' : 'other@example.com',
		);
		t.sandbox.clock.advance(2 * HOUR);
		await t.seedEmails(1, () => 'late@example.com');

		// Berlin is UTC+1 or +2; the sandbox account's zone is UTC, so a Berlin wall-clock value passes through as typed.
		const after = formatServiceDate(new Date(start.getTime() + HOUR));
		const before = formatServiceDate(new Date(start.getTime() + 3 * HOUR));
		const result = await t.run(
			{
				resource: 'email',
				operation: 'getAll',
				returnAll: true,
				filters: {
					from: new Date(start.getTime() + HOUR).toISOString(),
					to: before.replace(' ', 'T'),
					sender: 'sender@sandbox.test',
					recipient: 'mid@example.com',
					skipCountry: true,
				},
			},
			undefined,
			{ timezone: 'UTC' },
		);
		expect(result.error).toBeUndefined();
		const [call] = t.calls();
		expect(call.method).toBe('GET');
		expect(call.path).toBe('/smtp/emails');
		expect(Object.fromEntries(new URLSearchParams(call.rawQuery))).toEqual({
			from: after,
			to: before,
			sender: 'sender@sandbox.test',
			recipient: 'mid@example.com',
			country: 'off',
			limit: '100',
			offset: '0',
		});
		const mid = t.state().emails.find((email) => email.recipient === 'mid@example.com')!;
		expect(middle).toContain(mid.id);
		const raw = omit(mid, 'content');
		expect(jsonOf(result)).toEqual([
			{ ...raw, smtp_answer_code_explain: 'Delivered', sendDateIso: iso(raw.send_date) },
		]);
	});

	test("Bounce Get Many: Day is the account's day as picked, times read in the account's zone", async () => {
		t.sandbox.faults.add({
			path: '/smtp/bounces/day',
			status: 200,
			body: {
				total: 1,
				emails: [
					{
						email_to: 'tz@example.com',
						sender: 's@x.io',
						send_date: '2026-01-01 09:00:00',
						subject: '',
						smtp_answer_code: 550,
						smtp_answer_subcode: '5.1.1',
						smtp_answer_data: 'User unknown',
					},
				],
				request_limit: 100,
				found: 1,
			},
		});
		const result = await t.run(
			{
				resource: 'bounce',
				operation: 'getAll',
				returnAll: false,
				limit: 10,
				filters: { date: '2026-01-01T00:00:00' },
			},
			undefined,
			{ timezone: 'Europe/Berlin', accountTimeZone: 'Asia/Tokyo' },
		);
		// Midnight in Berlin is the previous day in UTC: a day alone stays the day picked.
		expect(t.calls()[0].rawQuery).toBe('date=2026-01-01&limit=10&offset=0');
		expect(jsonOf(result)[0]).toMatchObject({
			eventTime: '2026-01-01 09:00:00',
			eventTimeIso: '2026-01-01T00:00:00.000Z',
		});
	});

	test("a zoned date value is converted to the account's time zone (the credential's)", async () => {
		await t.run(
			{
				resource: 'email',
				operation: 'getAll',
				returnAll: false,
				limit: 5,
				filters: { from: '2026-03-01T12:00:00Z' },
			},
			undefined,
			{ timezone: 'Europe/Berlin', accountTimeZone: 'Asia/Tokyo' },
		);
		expect(t.calls()[0].rawQuery).toBe('from=2026-03-01%2021%3A00%3A00&limit=5&offset=0');
	});

	test("a wall-clock picker value is a time in the workflow's zone, sent in the account's", async () => {
		await t.run(
			{
				resource: 'email',
				operation: 'getAll',
				returnAll: false,
				limit: 5,
				filters: { from: '2026-03-01T12:00:00' },
			},
			undefined,
			{ timezone: 'Europe/Berlin', accountTimeZone: 'Asia/Tokyo' },
		);
		// 12:00 in Berlin (UTC+1) is 11:00 UTC, 20:00 in Tokyo.
		expect(t.calls()[0].rawQuery).toBe('from=2026-03-01%2020%3A00%3A00&limit=5&offset=0');
	});

	test('Limit pages with limit/offset and stops at the limit', async () => {
		const ids = await t.seedEmails(7);
		const result = await t.run({
			resource: 'email',
			operation: 'getAll',
			returnAll: false,
			limit: 3,
		});
		expect(t.calls().map((call) => call.rawQuery)).toEqual(['limit=3&offset=0']);
		expect(jsonOf(result).map((record) => record.id)).toEqual(
			t
				.state()
				.emails.slice(0, 3)
				.map((email) => email.id),
		);
		expect(ids).toHaveLength(7);
	});

	test('Get Count', async () => {
		await t.seedEmails(4);
		const result = await t.run({ resource: 'email', operation: 'getCount' });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/emails/total', rawQuery: '', body: undefined },
		]);
		expect(jsonOf(result)).toEqual([{ total: 4 }]);
	});
});

describe('Email → Get Many by ID', () => {
	test('IDs from all items in one request; records paired to the items that asked', async () => {
		const ids = await t.seedEmails(3);
		const result = await t.run(
			{ resource: 'email', operation: 'getManyById', emailIds: '={{ $json.ids }}' },
			[{ json: { ids: `${ids[0]}, ${ids[1]}` } }, { json: { ids: [ids[2], ids[0]] } }],
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/smtp/emails/info',
				rawQuery: '',
				body: { emails: [ids[0], ids[1], ids[2]] },
			},
		]);
		expect(jsonOf(result)).toEqual(
			[0, 1, 2].map((n) => ({
				...expectedRecord(ids[n], n),
				smtp_answer_code_explain: 'Delivered',
			})),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			[{ item: 0 }, { item: 1 }],
			{ item: 0 },
			{ item: 1 },
		]);
	});

	test('an item without IDs fails before any request', async () => {
		const result = await t.run(
			{ resource: 'email', operation: 'getManyById', emailIds: '={{ $json.ids }}' },
			[{ json: { ids: 'abc' } }, { json: { ids: ' , ' } }],
		);
		expect(result.error?.message).toBe('Email IDs: is empty [item 1]');
		expect(t.calls()).toEqual([]);
	});
});

describe('Bounce', () => {
	test('Get Many: the last 24 hours, oldest first, normalised; Get Count', async () => {
		await t.control('POST', '/email/bounces', {
			bounces: [
				{
					email_to: 'old@example.com',
					send_date: formatServiceDate(new Date(t.sandbox.clock.nowMs() - 25 * HOUR)),
				},
				{
					email_to: 'full@example.com',
					sender: 'news@sandbox.test',
					subject: 'Digest',
					smtp_answer_code: 552,
					smtp_answer_subcode: '5.2.2',
					smtp_answer_data: 'Mailbox full',
					send_date: formatServiceDate(new Date(t.sandbox.clock.nowMs() - 2 * HOUR)),
				},
			],
		});
		await t.api('POST', '/smtp/emails', {
			email: {
				text: 'x',
				subject: 'Ping',
				from: { email: 'sender@sandbox.test' },
				to: [{ email: 'ghost@bounce.test' }],
			},
		});
		t.sandbox.log.clear();
		// A live service sends the code as a string sometimes; the node outputs numbers either way.
		t.sandbox.faults.add({
			path: '/smtp/bounces/day',
			status: 200,
			body: {
				total: 1,
				emails: [
					{
						email_to: 'str@example.com',
						sender: 's@x.io',
						send_date: '2026-01-01 00:00:00',
						subject: '',
						smtp_answer_code: '550',
						smtp_answer_subcode: '5.1.1',
						smtp_answer_data: 'User unknown',
					},
				],
				request_limit: 100,
				found: 1,
			},
		});
		const stringCode = await t.run({
			resource: 'bounce',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
		});
		expect(jsonOf(stringCode)).toEqual([
			{
				event: 'bounce',
				email: 'str@example.com',
				eventTime: '2026-01-01 00:00:00',
				eventTimeIso: '2026-01-01T00:00:00.000Z',
				sender: 's@x.io',
				subject: '',
				smtpCode: 550,
				smtpSubcode: '5.1.1',
				smtpMessage: 'User unknown',
				bounceType: 'hard',
				raw: {
					email_to: 'str@example.com',
					sender: 's@x.io',
					send_date: '2026-01-01 00:00:00',
					subject: '',
					smtp_answer_code: '550',
					smtp_answer_subcode: '5.1.1',
					smtp_answer_data: 'User unknown',
				},
			},
		]);

		t.sandbox.log.clear();
		const result = await t.run({ resource: 'bounce', operation: 'getAll', returnAll: true });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/bounces/day', rawQuery: 'limit=100&offset=0', body: undefined },
		]);
		const sent = t.state().emails[0];
		const fullRecord = {
			email_to: 'full@example.com',
			sender: 'news@sandbox.test',
			subject: 'Digest',
			smtp_answer_code: 552,
			smtp_answer_subcode: '5.2.2',
			smtp_answer_data: 'Mailbox full',
			send_date: t.state().bounces.find((bounce) => bounce.email_to === 'full@example.com')!
				.send_date,
		};
		const ghostRecord = {
			email_to: 'ghost@bounce.test',
			sender: 'sender@sandbox.test',
			subject: 'Ping',
			smtp_answer_code: 550,
			smtp_answer_subcode: '5.1.1',
			smtp_answer_data: 'User unknown',
			send_date: sent.send_date,
		};
		// The package's one bounce shape (as the triggers emit it); the sandbox's zone is UTC.
		expect(jsonOf(result)).toEqual([
			{
				event: 'bounce',
				email: 'full@example.com',
				eventTime: fullRecord.send_date,
				eventTimeIso: `${fullRecord.send_date.replace(' ', 'T')}.000Z`,
				sender: 'news@sandbox.test',
				subject: 'Digest',
				smtpCode: 552,
				smtpSubcode: '5.2.2',
				smtpMessage: 'Mailbox full',
				bounceType: 'hard',
				raw: fullRecord,
			},
			{
				event: 'bounce',
				email: 'ghost@bounce.test',
				eventTime: sent.send_date,
				eventTimeIso: `${sent.send_date.replace(' ', 'T')}.000Z`,
				sender: 'sender@sandbox.test',
				subject: 'Ping',
				smtpCode: 550,
				smtpSubcode: '5.1.1',
				smtpMessage: 'User unknown',
				bounceType: 'hard',
				raw: ghostRecord,
			},
		]);

		t.sandbox.log.clear();
		const count = await t.run({ resource: 'bounce', operation: 'getCount' });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/bounces/day/total', rawQuery: '', body: undefined },
		]);
		expect(jsonOf(count)).toEqual([{ total: 2 }]);

		// 24 hours later of the sandbox clock, they are gone.
		t.sandbox.clock.advance(24 * HOUR);
		expect(
			jsonOf(await t.run({ resource: 'bounce', operation: 'getAll', returnAll: true })),
		).toEqual([]);
		expect(jsonOf(await t.run({ resource: 'bounce', operation: 'getCount' }))).toEqual([
			{ total: 0 },
		]);
	});

	test('the Day filter is sent as YYYY-MM-DD', async () => {
		await t.run({
			resource: 'bounce',
			operation: 'getAll',
			returnAll: false,
			limit: 20,
			filters: { date: '2026-05-04T23:30:00' },
		});
		expect(t.calls()[0].rawQuery).toBe('date=2026-05-04&limit=20&offset=0');
	});
});

describe('Unsubscribe', () => {
	test('Add: addresses and comments of all items in one request; one output per address, paired', async () => {
		const result = await t.run(
			{
				resource: 'unsubscribe',
				operation: 'add',
				emails: '={{ $json.emails }}',
				comment: '={{ $json.comment }}',
			},
			[
				{ json: { emails: 'ann@example.com, Bob <bob@example.com>', comment: 'asked by phone' } },
				{ json: { emails: ['cid@example.com'], comment: '' } },
			],
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/smtp/unsubscribe',
				rawQuery: '',
				body: {
					emails: [
						{ email: 'ann@example.com', comment: 'asked by phone' },
						{ email: 'bob@example.com', comment: 'asked by phone' },
						{ email: 'cid@example.com' },
					],
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ email: 'ann@example.com', comment: 'asked by phone', result: true },
			{ email: 'bob@example.com', comment: 'asked by phone', result: true },
			{ email: 'cid@example.com', result: true },
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
		]);
		expect(
			t
				.state()
				.unsubscribes.map((entry) => [entry.email, entry.unsubscribe_by_user, entry.comment]),
		).toEqual([
			['ann@example.com', 1, 'asked by phone'],
			['bob@example.com', 1, 'asked by phone'],
			['cid@example.com', 1, undefined],
		]);
	});

	test('Add: an invalid address fails before any request', async () => {
		const result = await t.run(
			{ resource: 'unsubscribe', operation: 'add', emails: '={{ $json.e }}' },
			[{ json: { e: 'ok@example.com' } }, { json: { e: 'ok2@example.com, broken@' } }],
		);
		expect(result.error?.message).toBe(
			'Email Addresses: "broken@" is not a valid email address [item 1]',
		);
		expect(t.calls()).toEqual([]);
	});

	test('Remove: a JSON body on DELETE; one output per address', async () => {
		await t.control('POST', '/email/unsubscribes', {
			unsubscribes: [{ email: 'ann@example.com' }, { email: 'bob@example.com' }],
		});
		const result = await t.run(
			{ resource: 'unsubscribe', operation: 'remove', emails: '={{ $json.e }}' },
			[{ json: { e: 'ann@example.com' } }, { json: { e: 'bob@example.com' } }],
		);
		expect(t.calls()).toEqual([
			{
				method: 'DELETE',
				path: '/smtp/unsubscribe',
				rawQuery: '',
				body: { emails: ['ann@example.com', 'bob@example.com'] },
			},
		]);
		expect(jsonOf(result)).toEqual([
			{ email: 'ann@example.com', result: true },
			{ email: 'bob@example.com', result: true },
		]);
		expect(t.state().unsubscribes).toEqual([]);
	});

	test('Get Many: oldest first, in the email-event shape; the Day filter covers one day', async () => {
		await t.control('POST', '/email/unsubscribes', {
			unsubscribes: [
				{ email: 'late@example.com', unsubscribe_by_link: 1, date: '2026-04-02 08:00:00' },
				{ email: 'spam@example.com', spam_complaint: 1, date: '2026-04-01 23:59:59' },
				{ email: 'early@example.com', unsubscribe_by_user: 1, date: '2026-04-01 00:00:00' },
			],
		});
		const all = await t.run({ resource: 'unsubscribe', operation: 'getAll', returnAll: true });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/unsubscribe', rawQuery: 'limit=100&offset=0', body: undefined },
		]);
		// The one email-event shape (as Bounce → Get Many and the triggers), the service's record under raw.
		const unsubscribe = (
			email: string,
			eventTime: string,
			flags: { byLink: boolean; byUser: boolean; spamComplaint: boolean },
		) => ({
			event: 'unsubscribe',
			email,
			eventTime,
			eventTimeIso: `${eventTime.replace(' ', 'T')}.000Z`,
			...flags,
			raw: {
				email,
				unsubscribe_by_link: flags.byLink ? 1 : 0,
				unsubscribe_by_user: flags.byUser ? 1 : 0,
				spam_complaint: flags.spamComplaint ? 1 : 0,
				date: eventTime,
			},
		});
		expect(jsonOf(all)).toEqual([
			unsubscribe('early@example.com', '2026-04-01 00:00:00', {
				byLink: false,
				byUser: true,
				spamComplaint: false,
			}),
			unsubscribe('spam@example.com', '2026-04-01 23:59:59', {
				byLink: false,
				byUser: false,
				spamComplaint: true,
			}),
			unsubscribe('late@example.com', '2026-04-02 08:00:00', {
				byLink: true,
				byUser: false,
				spamComplaint: false,
			}),
		]);
		t.sandbox.log.clear();
		const day = await t.run({
			resource: 'unsubscribe',
			operation: 'getAll',
			returnAll: false,
			limit: 10,
			filters: { date: '2026-04-01T12:00:00' },
		});
		expect(t.calls()[0].rawQuery).toBe('date=2026-04-01&limit=10&offset=0');
		expect(jsonOf(day).map((entry) => entry.email)).toEqual([
			'early@example.com',
			'spam@example.com',
		]);
	});

	test('Check: false is an answer, not an error', async () => {
		await t.control('POST', '/email/unsubscribes', {
			unsubscribes: [{ email: 'gone@example.com' }],
		});
		const result = await t.run(
			{ resource: 'unsubscribe', operation: 'check', email: '={{ $json.e }}' },
			[{ json: { e: 'gone@example.com' } }, { json: { e: 'here@example.com' } }],
		);
		expect(result.error).toBeUndefined();
		expect(t.calls().map(({ method, path, rawQuery }) => [method, path, rawQuery])).toEqual([
			['GET', '/smtp/unsubscribe/search', 'email=gone%40example.com'],
			['GET', '/smtp/unsubscribe/search', 'email=here%40example.com'],
		]);
		expect(t.sandbox.log.all().map((entry) => entry.responseBody)).toEqual([
			{ result: true },
			{ result: false },
		]);
		expect(jsonOf(result)).toEqual([
			{ email: 'gone@example.com', unsubscribed: true },
			{ email: 'here@example.com', unsubscribed: false },
		]);
	});
});

describe('Resubscribe → Send Request', () => {
	test('five per 24 hours; the sixth is a clear error; with Continue On Fail an error item', async () => {
		const items = Array.from({ length: 6 }, (_, n) => ({ json: { e: `back${n}@example.com` } }));
		const result = await t.run(
			{
				resource: 'resubscribe',
				operation: 'sendRequest',
				email: '={{ $json.e }}',
				sender: 'sender@sandbox.test',
				options: { lang: 'en' },
			},
			items,
			{ continueOnFail: true },
		);
		const calls = t.calls();
		expect(calls).toHaveLength(6);
		expect(calls[0]).toEqual({
			method: 'POST',
			path: '/smtp/resubscribe',
			rawQuery: '',
			body: { email: 'back0@example.com', sender: 'sender@sandbox.test', lang: 'en' },
		});
		const output = jsonOf(result);
		const sentIds = new Map(t.state().emails.map((email) => [email.recipient, email.id]));
		const successes = output.filter((json) => json.result === true);
		expect(successes).toHaveLength(5);
		for (const success of successes) {
			expect(success).toEqual({
				id: sentIds.get(success.email as string),
				result: true,
				email: success.email,
				sender: 'sender@sandbox.test',
			});
		}
		const failures = output.filter((json) => json.error !== undefined);
		expect(failures).toEqual([
			{
				error: 'Resubscription request limit exceeded: 5 per 24 hours (error code 422)',
				description:
					'The service sends at most 5 resubscription requests per account in 24 hours. Try again later; requests already sent still count.',
				httpCode: '422',
				errorCode: 422,
			},
		]);

		t.sandbox.clock.advance(24 * HOUR + 1000);
		t.sandbox.log.clear();
		const later = await t.run({
			resource: 'resubscribe',
			operation: 'sendRequest',
			email: 'later@example.com',
			sender: 'sender@sandbox.test',
		});
		expect(t.calls()[0].body).toEqual({
			email: 'later@example.com',
			sender: 'sender@sandbox.test',
		});
		expect(jsonOf(later)[0].result).toBe(true);
	});
});

describe('Sender Address and Sending IP', () => {
	test('Sender Address → Add, then Sender Address → Get Many and Sending IP → Get Many', async () => {
		const added = await t.run({
			resource: 'senderAddress',
			operation: 'add',
			email: 'news@example.com',
			name: 'News Desk',
		});
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/senders',
				rawQuery: '',
				body: { email: 'news@example.com', name: 'News Desk' },
			},
		]);
		expect(jsonOf(added)).toEqual([{ result: true, email: 'news@example.com', name: 'News Desk' }]);

		t.sandbox.log.clear();
		const addresses = await t.run({ resource: 'senderAddress', operation: 'getAll' });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/senders', rawQuery: '', body: undefined },
		]);
		expect(jsonOf(addresses)).toEqual([
			{ email: 'sender@sandbox.test' },
			{ email: 'news@example.com' },
		]);

		t.sandbox.log.clear();
		const ips = await t.run({ resource: 'sendingIp', operation: 'getAll' });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/ips', rawQuery: '', body: undefined },
		]);
		expect(jsonOf(ips)).toEqual([{ ip: '192.0.2.10' }]);
	});

	test('the From list shows the approved senders, filtered (methods.listSearch)', async () => {
		const { searchSenders } = await import('../../nodes/MessagingEmail/methods/listSearch');
		const context = listSearchContext(t.sandbox, {
			nodeType: 'n8n-nodes-messaging.messagingEmail',
		});
		await t.control('POST', '/email/senders', { email: 'team@example.com', name: 'Team' });
		const options = await searchSenders.call(context as never);
		expect(options.results).toEqual([
			{ name: 'sender@sandbox.test', value: 'sender@sandbox.test' },
			{ name: 'team@example.com', value: 'team@example.com' },
		]);
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/smtp/senders', rawQuery: '', body: undefined },
		]);
		expect((await searchSenders.call(context as never, 'TEAM')).results).toEqual([
			{ name: 'team@example.com', value: 'team@example.com' },
		]);
	});
});

describe('Sending Domain', () => {
	test('Add, then Get Many with checks; ids as strings, numbers as numbers', async () => {
		const added = await t.run({
			resource: 'sendingDomain',
			operation: 'add',
			domain: 'Mail.Example.com',
		});
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/v2/email-service/smtp/sender_domains/mail.example.com',
				rawQuery: '',
				body: undefined,
			},
		]);
		expect(jsonOf(added)).toEqual([{ result: true, domain: 'mail.example.com' }]);
		await t.control('POST', '/email/domains/mail.example.com/checks', { check_dkim: true });

		t.sandbox.log.clear();
		const list = await t.run({ resource: 'sendingDomain', operation: 'getAll' });
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/v2/email-service/smtp/sender_domains',
				rawQuery: '',
				body: undefined,
			},
		]);
		const common = {
			user_id: '7001',
			service_type: 3,
			expire_date: null,
			auto_free_prolong: 0,
			currency: 'USD',
			ssl_type: 0,
			ssl_expired: null,
			ssl_generated: null,
			// No time yet: the ISO twins are null too.
			expireDateIso: null,
			sslExpiredIso: null,
		};
		expect(jsonOf(list)).toEqual([
			{
				...common,
				id: '3001',
				service_value: 'sandbox.test',
				status: 1,
				is_default: true,
				checks: {
					check_dkim: true,
					check_spf: true,
					check_dmarc: true,
					all_checks: true,
					spf_txt_needed: '',
				},
			},
			{
				...common,
				id: '3002',
				service_value: 'mail.example.com',
				status: 0,
				is_default: false,
				checks: {
					check_dkim: true,
					check_spf: false,
					check_dmarc: false,
					all_checks: false,
					spf_txt_needed: 'v=spf1 include:mxsmtp.sandbox.test ~all',
				},
			},
		]);
	});

	test('a domain that exists: the 200-with-error answer is an error', async () => {
		const result = await t.run({
			resource: 'sendingDomain',
			operation: 'add',
			domain: 'sandbox.test',
		});
		expect(result.error?.message).toBe('domain exists');
		expect(t.sandbox.log.all()[0].responseBody).toEqual({
			data: { result: false, error: 'domain exists' },
		});
	});

	test('a malformed domain fails before any request', async () => {
		const result = await t.run({
			resource: 'sendingDomain',
			operation: 'add',
			domain: 'not a domain',
		});
		expect(result.error?.message).toBe('Domain: "not a domain" is not a domain name [item 0]');
		expect(t.calls()).toEqual([]);
	});
});

describe('every operation with the email area not activated', () => {
	const operations: Array<[string, Record<string, unknown>]> = [
		['email get', { resource: 'email', operation: 'get', emailId: 'x' }],
		['email getAll', { resource: 'email', operation: 'getAll' }],
		['email getCount', { resource: 'email', operation: 'getCount' }],
		['email getManyById', { resource: 'email', operation: 'getManyById', emailIds: 'a,b' }],
		['bounce getAll', { resource: 'bounce', operation: 'getAll' }],
		['bounce getCount', { resource: 'bounce', operation: 'getCount' }],
		['unsubscribe add', { resource: 'unsubscribe', operation: 'add', emails: 'a@example.com' }],
		[
			'unsubscribe remove',
			{ resource: 'unsubscribe', operation: 'remove', emails: 'a@example.com' },
		],
		['unsubscribe getAll', { resource: 'unsubscribe', operation: 'getAll' }],
		['unsubscribe check', { resource: 'unsubscribe', operation: 'check', email: 'a@example.com' }],
		[
			'resubscribe',
			{
				resource: 'resubscribe',
				operation: 'sendRequest',
				email: 'a@example.com',
				sender: 'sender@sandbox.test',
			},
		],
		['sender ips', { resource: 'sendingIp', operation: 'getAll' }],
		['sender addresses', { resource: 'senderAddress', operation: 'getAll' }],
		[
			'sender add',
			{ resource: 'senderAddress', operation: 'add', email: 'a@example.com', name: 'A' },
		],
		['domains', { resource: 'sendingDomain', operation: 'getAll' }],
		['domain add', { resource: 'sendingDomain', operation: 'add', domain: 'example.com' }],
	];
	test.each(operations)('%s', async (_name, parameters) => {
		t.sandbox.account.settings.emailActivated = false;
		const result = await t.run(parameters as INodeParameters, undefined, { continueOnFail: true });
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({
				error: "The account's email (SMTP) area is not activated",
				httpCode: '422',
				errorCode: 400,
			}),
		]);
		expect(t.calls()).toHaveLength(1);
		expect(t.sandbox.log.all()[0].responseBody).toEqual({
			message: 'No such SMTP user, you need to create SMTP account first',
			error_code: 400,
		});
	});
});
