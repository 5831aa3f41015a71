/**
 * The sandbox's email area over HTTP: the contract other helpers build on (control routes, 24-hour bounce window,
 * unsubscribe day filter, limits) and the service's validation answers.
 */
import { formatServiceDate } from '../../sandbox/core/clock';
import { b64, useEmailSandbox } from './setup';

const t = useEmailSandbox();
const HOUR = 3_600_000;

async function call(method: string, path: string, body?: unknown) {
	const response = await fetch(`${t.sandbox.url}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${t.sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as unknown };
}

const validEmail = () => ({
	html: b64('<p>Hi</p>'),
	text: 'Hi',
	subject: 'Hi',
	from: { name: 'S', email: 'sender@sandbox.test' },
	to: [{ name: 'A', email: 'a@example.com' }],
});
const at = (offsetMs: number) => formatServiceDate(new Date(t.sandbox.clock.nowMs() + offsetMs));

describe('POST /smtp/emails validation (messages and codes of docs/service-notes.md, Errors)', () => {
	const cases: Array<[string, (email: Record<string, unknown>) => void, number, string, number]> = [
		['subject missing', (email) => delete email.subject, 422, 'Argument subject missing', 12],
		[
			'from.email missing',
			(email) => (email.from = { name: 'x' }),
			422,
			'Argument from.email missing',
			10,
		],
		[
			'to invalid',
			(email) => (email.to = [{ email: 'nope' }]),
			422,
			'Argument email.to is invalid',
			11,
		],
		['to empty', (email) => (email.to = []), 422, 'Argument email.to is invalid', 11],
		['no body', (email) => (delete email.html, delete email.text), 422, 'Missed email body', 13],
		[
			'html not Base64',
			(email) => (email.html = '<p>raw</p>'),
			422,
			'Argument html is invalid',
			13,
		],
		[
			'unknown sender',
			(email) => (email.from = { email: 'x@example.com' }),
			422,
			'Sender is not valid',
			422,
		],
		[
			'empty attachments',
			(email) => (email.attachments = {}),
			422,
			'Argument attachments is invalid',
			422,
		],
		[
			'empty template',
			(email) => (delete email.html, delete email.text, (email.template = {})),
			422,
			'Argument template is invalid',
			422,
		],
		[
			'template not found',
			(email) => (
				delete email.html,
				delete email.text,
				(email.template = { id: 5, variables: {} })
			),
			422,
			'Template not found',
			31,
		],
		[
			'variables in the wrong format',
			(email) => (
				delete email.html,
				delete email.text,
				(email.template = { id: 101, variables: [['name', 'x']] })
			),
			422,
			'Variables list passed in wrong format',
			731,
		],
		[
			'an unknown key',
			(email) => (email.reply_to = 'x'),
			422,
			'Unknown argument email.reply_to',
			422,
		],
	];
	test.each(cases)('%s', async (_name, change, status, message, code) => {
		const email = validEmail() as Record<string, unknown>;
		change(email);
		expect(await call('POST', '/smtp/emails', { email })).toEqual({
			status,
			body: { message, error_code: code },
		});
		expect(t.state().emails).toEqual([]);
	});

	test('a valid email gets an id; GET /smtp/emails/{id} sends numbers as strings', async () => {
		const sent = await call('POST', '/smtp/emails', { email: validEmail() });
		expect(sent).toEqual({
			status: 200,
			body: { result: true, id: expect.stringMatching(/^[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{2}$/) },
		});
		const id = (sent.body as { id: string }).id;
		const record = await call('GET', `/smtp/emails/${id}`);
		expect(record.body).toMatchObject({
			id,
			total_size: String(300 + 2 + 9 + 2),
			smtp_answer_code: '250',
			recipient: 'a@example.com',
		});
		expect(await call('GET', '/smtp/emails/unknown')).toEqual({
			status: 400,
			body: { message: 'No such email', error_code: 14 },
		});
	});

	test('POST /smtp/emails/info takes at most 500 ids', async () => {
		const ids = Array.from({ length: 501 }, (_, index) => `id-${index}`);
		expect(await call('POST', '/smtp/emails/info', { emails: ids })).toEqual({
			status: 400,
			body: { message: 'Argument emails has more than 500 items', error_code: 400 },
		});
		expect(await call('POST', '/smtp/emails/info', { emails: ids.slice(0, 500) })).toEqual({
			status: 200,
			body: [],
		});
	});

	test('the email area not activated: every email route fails like the live service; control routes still work', async () => {
		t.sandbox.account.settings.emailActivated = false;
		const notActivated = {
			status: 422,
			body: {
				message: 'No such SMTP user, you need to create SMTP account first',
				error_code: 400,
			},
		};
		expect(await call('POST', '/smtp/emails', { email: validEmail() })).toEqual(notActivated);
		expect(await call('GET', '/smtp/bounces/day')).toEqual(notActivated);
		expect(await call('GET', '/v2/email-service/smtp/sender_domains')).toEqual(notActivated);
		expect(
			await t.control('POST', '/email/senders', { email: 'x@example.com', name: 'X' }),
		).toEqual({ result: true });
	});
});

describe('bounces (contract)', () => {
	test('POST /__sandbox/email/bounces; the 24-hour window of the sandbox clock; ordering; date; limit; total', async () => {
		const threeHoursAgo = at(-3 * HOUR);
		const added = await t.control('POST', '/email/bounces', {
			bounces: [
				{ email_to: 'c@example.com', send_date: at(-1 * HOUR) },
				{ email_to: 'old@example.com', send_date: at(-24 * HOUR - 1000) },
				{
					email_to: 'a@example.com',
					send_date: threeHoursAgo,
					subject: 'S',
					smtp_answer_code: 554,
					smtp_answer_data: 'Rejected',
				},
				{ email_to: 'b@example.com', send_date: threeHoursAgo },
				{ email_to: 'future@example.com', send_date: at(2 * HOUR) },
				{ email_to: 'now@example.com' },
			],
		});
		expect(added).toEqual({ result: true, added: 6 });
		const page = await call('GET', '/smtp/bounces/day?limit=2&offset=1');
		expect(page).toEqual({
			status: 200,
			body: {
				total: 4,
				emails: [
					{
						email_to: 'b@example.com',
						sender: 'sender@sandbox.test',
						send_date: threeHoursAgo,
						subject: '',
						smtp_answer_code: 550,
						smtp_answer_subcode: '5.1.1',
						smtp_answer_data: 'User unknown',
					},
					expect.objectContaining({ email_to: 'c@example.com' }),
				],
				request_limit: 100,
				found: 2,
			},
		});
		const first = (await call('GET', '/smtp/bounces/day')).body as {
			emails: Array<Record<string, unknown>>;
		};
		expect(first.emails.map((bounce) => bounce.email_to)).toEqual([
			'a@example.com',
			'b@example.com',
			'c@example.com',
			'now@example.com',
		]);
		expect(first.emails[0]).toMatchObject({
			subject: 'S',
			smtp_answer_code: 554,
			smtp_answer_data: 'Rejected',
		});
		expect(await call('GET', '/smtp/bounces/day/total')).toEqual({
			status: 200,
			body: { total: 4 },
		});

		const today = at(0).slice(0, 10);
		const onDay = (await call('GET', `/smtp/bounces/day?date=${today}`)).body as {
			total: number;
			emails: Array<{ send_date: string }>;
		};
		expect(onDay.emails.every((bounce) => bounce.send_date.startsWith(today))).toBe(true);
		expect(onDay.total).toBe(onDay.emails.length);

		expect((await call('GET', '/smtp/bounces/day?limit=101')).status).toBe(400);
		expect((await call('GET', '/smtp/bounces/day?date=2026-1-1')).status).toBe(400);

		t.sandbox.clock.advance(3 * HOUR);
		const later = (await call('GET', '/smtp/bounces/day')).body as {
			emails: Array<Record<string, unknown>>;
		};
		expect(later.emails.map((bounce) => bounce.email_to)).toEqual([
			'a@example.com',
			'b@example.com',
			'c@example.com',
			'now@example.com',
			'future@example.com',
		]);
		t.sandbox.clock.advance(22 * HOUR);
		expect(await call('GET', '/smtp/bounces/day/total')).toEqual({
			status: 200,
			body: { total: 1 },
		});
	});

	test('sending to bounce.test records a hard bounce', async () => {
		const email = {
			...validEmail(),
			to: [{ email: 'x@bounce.test' }],
			cc: [{ email: 'ok@example.com' }],
			bcc: [{ email: 'y@bounce.test' }],
		};
		await call('POST', '/smtp/emails', { email });
		const answer = (await call('GET', '/smtp/bounces/day')).body as {
			emails: Array<Record<string, unknown>>;
		};
		expect(
			answer.emails.map((bounce) => [
				bounce.email_to,
				bounce.smtp_answer_code,
				bounce.smtp_answer_subcode,
				bounce.smtp_answer_data,
			]),
		).toEqual([
			['x@bounce.test', 550, '5.1.1', 'User unknown'],
			['y@bounce.test', 550, '5.1.1', 'User unknown'],
		]);
	});
});

describe('unsubscribes (contract)', () => {
	test('control add, ordering by date then insertion, the date filter covers one day, limit/offset', async () => {
		expect(
			await t.control('POST', '/email/unsubscribes', {
				unsubscribes: [
					{ email: 'x@example.com', date: '2026-03-02 00:00:00', spam_complaint: 1 },
					{ email: 'y@example.com', date: '2026-03-01 10:00:00', unsubscribe_by_link: 1 },
					{ email: 'z@example.com', date: '2026-03-01 10:00:00' },
				],
			}),
		).toEqual({ result: true, added: 3 });
		expect((await call('GET', '/smtp/unsubscribe')).body).toEqual([
			{
				email: 'y@example.com',
				unsubscribe_by_link: 1,
				unsubscribe_by_user: 0,
				spam_complaint: 0,
				date: '2026-03-01 10:00:00',
			},
			{
				email: 'z@example.com',
				unsubscribe_by_link: 0,
				unsubscribe_by_user: 0,
				spam_complaint: 0,
				date: '2026-03-01 10:00:00',
			},
			{
				email: 'x@example.com',
				unsubscribe_by_link: 0,
				unsubscribe_by_user: 0,
				spam_complaint: 1,
				date: '2026-03-02 00:00:00',
			},
		]);
		expect(
			((await call('GET', '/smtp/unsubscribe?date=2026-03-01')).body as unknown[]).length,
		).toBe(2);
		expect(
			(
				(await call('GET', '/smtp/unsubscribe?limit=1&offset=2')).body as Array<{ email: string }>
			)[0].email,
		).toBe('x@example.com');
		expect((await call('GET', '/smtp/unsubscribe?limit=101')).status).toBe(400);
	});

	test('the API marks unsubscribe_by_user with the sandbox now; limits; Empty emails; DELETE by body or query', async () => {
		const before = at(0);
		expect(
			await call('POST', '/smtp/unsubscribe', {
				emails: [{ email: 'u@example.com', comment: 'c' }],
			}),
		).toEqual({
			status: 200,
			body: { result: true },
		});
		const after = at(0);
		const [entry] = (await call('GET', '/smtp/unsubscribe')).body as Array<{ date: string }>;
		expect(entry).toEqual({
			email: 'u@example.com',
			unsubscribe_by_link: 0,
			unsubscribe_by_user: 1,
			spam_complaint: 0,
			date: entry.date,
		});
		expect(entry.date >= before && entry.date <= after).toBe(true);
		expect(await call('GET', '/smtp/unsubscribe/search?email=u%40example.com')).toEqual({
			status: 200,
			body: { result: true },
		});
		expect(await call('POST', '/smtp/unsubscribe', { emails: [] })).toEqual({
			status: 400,
			body: { message: 'Empty emails', error_code: 14 },
		});
		const tooMany = Array.from({ length: 501 }, (_, index) => ({ email: `m${index}@example.com` }));
		expect((await call('POST', '/smtp/unsubscribe', { emails: tooMany })).status).toBe(400);
		expect(await call('DELETE', '/smtp/unsubscribe', { emails: [] })).toEqual({
			status: 400,
			body: { message: 'Empty emails', error_code: 14 },
		});
		expect(
			(await call('DELETE', `/smtp/unsubscribe?emails=${encodeURIComponent('["u@example.com"]')}`))
				.status,
		).toBe(200);
		expect(await call('GET', '/smtp/unsubscribe/search?email=u%40example.com')).toEqual({
			status: 200,
			body: { result: false },
		});
	});
});

describe('senders, tracking, resubscribe, domains', () => {
	test('one sender at start; control and API add senders; an unknown sender cannot send', async () => {
		expect((await call('GET', '/smtp/senders')).body).toEqual(['sender@sandbox.test']);
		await t.control('POST', '/email/senders', { email: 'c@example.com', name: 'C' });
		await call('POST', '/senders', { email: 'd@example.com', name: 'D' });
		expect((await call('GET', '/smtp/senders')).body).toEqual([
			'sender@sandbox.test',
			'c@example.com',
			'd@example.com',
		]);
		expect(
			(
				await call('POST', '/smtp/emails', {
					email: { ...validEmail(), from: { email: 'd@example.com' } },
				})
			).status,
		).toBe(200);
	});

	test('tracking for an unknown id is refused', async () => {
		await expect(t.control('POST', '/email/tracking', { id: 'nope', opens: [{}] })).rejects.toThrow(
			'404',
		);
	});

	test('resubscribe needs an approved sender and allows 5 per 24 hours', async () => {
		expect(
			await call('POST', '/smtp/resubscribe', { email: 'a@example.com', sender: 'x@example.com' }),
		).toEqual({
			status: 422,
			body: { message: 'Sender is not valid', error_code: 422 },
		});
		for (let n = 0; n < 5; n++) {
			expect(
				(
					await call('POST', '/smtp/resubscribe', {
						email: `a${n}@example.com`,
						sender: 'sender@sandbox.test',
					})
				).status,
			).toBe(200);
		}
		expect(
			(
				await call('POST', '/smtp/resubscribe', {
					email: 'z@example.com',
					sender: 'sender@sandbox.test',
				})
			).status,
		).toBe(422);
	});

	test('domain add answers in the v2 shapes', async () => {
		expect(await call('POST', '/v2/email-service/smtp/sender_domains/new.example.com')).toEqual({
			status: 200,
			body: { data: { result: true, error: null } },
		});
		expect(await call('POST', '/v2/email-service/smtp/sender_domains/new.example.com')).toEqual({
			status: 200,
			body: { data: { result: false, error: 'domain exists' } },
		});
		const list = (await call('GET', '/v2/email-service/smtp/sender_domains')).body as {
			data: { result: boolean; data: unknown[] };
		};
		expect(list.data.result).toBe(true);
		expect(list.data.data).toHaveLength(2);
	});
});
