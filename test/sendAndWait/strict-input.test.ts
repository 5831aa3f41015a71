import type { INodeParameters } from 'n8n-workflow';

import { useEmailSandbox } from '../email/setup';
import { useSmsSandbox } from '../sms/setup';

/**
 * Send and Wait for Response reads its input as strictly as Send: the same From, To and Subject readers (one-line
 * headers), a wait limit that is a real date, and a bounded message. Every refusal names the parameter and item
 * and sends nothing.
 */

const email = useEmailSandbox();
const sms = useSmsSandbox();

const emailParameters = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: 'sender@sandbox.test',
	to: 'ann@example.com',
	subject: 'Refund for order 1042',
	message: 'Refund 120 EUR?',
	...overrides,
});

const smsParameters = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'campaign',
	operation: 'sendAndWait',
	sender: { __rl: true, mode: 'name', value: 'Sandbox' },
	phone: '+380 98 623 5698',
	message: 'Refund 120 EUR for order 1042?',
	...overrides,
});

const limitAt = (maxDateAndTime: string) => ({
	options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime } } },
});
const limitAfter = (resumeAmount: number, resumeUnit: string) => ({
	options: {
		limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount, resumeUnit } },
	},
});

const ONE_LINE =
	'must be one line, but it holds a line break (CR or LF) or a NUL character, which would start another mail header';

describe('Email → Send and Wait: refused before anything is sent', () => {
	test.each([
		[
			'a Subject with CR LF',
			{ subject: 'Hello\r\nBcc: spy@example.com' },
			`Subject: ${ONE_LINE} [item 0]`,
		],
		[
			'a Subject with LF',
			{ subject: '=Hello{{ "\\n" }}Bcc: spy@example.com' },
			`Subject: ${ONE_LINE} [item 0]`,
		],
		['a Subject with NUL', { subject: 'Hello\u0000there' }, `Subject: ${ONE_LINE} [item 0]`],
		[
			'a From Name with CR',
			{ fromName: 'Shop\rBcc: spy@example.com' },
			`From Name: ${ONE_LINE} [item 0]`,
		],
		[
			'a recipient name with LF',
			{ to: '"Ann\nBcc: x" <ann@example.com>' },
			'To: the name of ann@example.com must be one line',
		],
		['no recipient', { to: '={{ "" }}' }, 'To: is empty [item 0]'],
		[
			'1e9 days',
			limitAfter(1e9, 'days'),
			'Limit Wait Time: 1000000000 days from now is after the year 9999, later than n8n can wait [item 0]',
		],
		[
			'a millisecond timestamp typed as minutes',
			limitAfter(1_790_000_000_000, 'minutes'),
			'Limit Wait Time: 1790000000000 minutes from now is after the year 9999',
		],
		[
			'30 February',
			limitAt('2027-02-30T10:00:00'),
			'Limit Wait Time: "2027-02-30T10:00:00" is not a real date',
		],
		[
			'13th month',
			limitAt('2027-13-01T10:00:00'),
			'Limit Wait Time: "2027-13-01T10:00:00" is not a real date',
		],
		[
			'not a date',
			limitAt('next tuesday'),
			'Limit Wait Time: "next tuesday" is not a date: write it as YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with a zone (2027-01-06T09:00:00+01:00) [item 0]',
		],
		[
			'a message over 10 MB',
			{ message: '={{ "x".repeat(5 * 1024 * 1024) }}' },
			// The message goes in both parts: 5 MB of text is 6.7 MB as Base64 HTML plus 5 MB of text.
			'Message: the email would be 11.7 MB (Base64 HTML and text), over the 10.0 MB an email may have [item 0]',
		],
	])('%s', async (_case, overrides, message) => {
		const result = await email.run(emailParameters(overrides as INodeParameters));
		expect(result.error?.message).toContain(message);
		expect(result.run.status).toBe('error');
		expect(email.calls()).toEqual([]);
	});

	test('an unknown sender names the operation that lists the approved ones', async () => {
		const result = await email.run(emailParameters({ fromEmail: 'stranger@example.com' }));
		const error = result.error as { description?: string } | undefined;
		expect(error?.description).toBe(
			'Approved senders: sender@sandbox.test. Add the address with Sender Address → Add, or choose one from the list.',
		);
		expect(email.calls().map((call) => `${call.method} ${call.path}`)).toEqual([
			'GET /smtp/senders',
		]);
	});

	test('From Name and the recipients as Send reads them', async () => {
		const result = await email.run(
			emailParameters({ fromName: ' Shop ', to: 'Ann <ann@example.com>; bob@example.com' }),
		);
		expect(result.error).toBeUndefined();
		const sent = email
			.calls()
			.filter((call) => call.method === 'POST')
			.map((call) => (call.body as { email: Record<string, unknown> }).email);
		expect(sent.map((one) => [one.from, one.to])).toEqual([
			[{ name: 'Shop', email: 'sender@sandbox.test' }, [{ name: 'Ann', email: 'ann@example.com' }]],
			[{ name: 'Shop', email: 'sender@sandbox.test' }, [{ email: 'bob@example.com' }]],
		]);
	});

	test('"at a specified time" is a wall-clock time in the workflow\'s zone, as Send At reads it', async () => {
		const result = await email.run(emailParameters(limitAt('2099-03-01T10:00:00')), undefined, {
			timezone: 'America/New_York',
		});
		expect(result.error).toBeUndefined();
		// 10:00 in New York on 1 March (EST, UTC-5) is 15:00 UTC.
		expect(result.run.waitTill).toEqual(new Date('2099-03-01T15:00:00.000Z'));
	});

	test('an instant with its zone is taken as given', async () => {
		const result = await email.run(
			emailParameters(limitAt('2099-03-01T10:00:00+02:00')),
			undefined,
			{
				timezone: 'America/New_York',
			},
		);
		expect(result.run.waitTill).toEqual(new Date('2099-03-01T08:00:00.000Z'));
	});

	test('a message that keeps the email under 10 MB goes out (4 MB: 5.3 MB HTML + 4 MB text)', async () => {
		const result = await email.run(
			emailParameters({ message: '={{ "x".repeat(4 * 1024 * 1024) }}' }),
		);
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
	});
});

describe('SMS → Send and Wait: bounded', () => {
	test('more than 6 parts is refused, nothing sent', async () => {
		const result = await sms.run(smsParameters({ message: '={{ "a".repeat(1_000_000) }}' }));
		expect(result.error?.message).toMatch(
			/^Message: the SMS with its link is 10001\d\d GSM-7 characters: 65\d\d parts, more than the 6 a Send and Wait SMS may take \[item 0\]$/,
		);
		expect(sms.calls()).toEqual([]);
	});

	test('6 parts go out (with the parts warning)', async () => {
		// 918 GSM-7 characters fill 6 parts; the link takes about 170 here.
		const result = await sms.run(smsParameters({ message: '={{ "a".repeat(700) }}' }));
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		expect(sms.calls().filter((call) => call.method === 'POST')).toHaveLength(1);
	});

	test('1e9 days is refused for the SMS too', async () => {
		const result = await sms.run(smsParameters(limitAfter(1e9, 'days')));
		expect(result.error?.message).toContain(
			'Limit Wait Time: 1000000000 days from now is after the year 9999',
		);
		expect(sms.calls()).toEqual([]);
	});
});
