import type { INodeParameters } from 'n8n-workflow';

import { jsonOf } from '../harness/run-node';
import { useSendOnceSandbox } from './setup';

const t = useSendOnceSandbox();

// n8n's clock (Date only; timers run for real) set per test: the window is read against it.
const setClock = (iso: string) =>
	jest.useFakeTimers({
		now: new Date(iso),
		doNotFake: [
			'nextTick',
			'setImmediate',
			'clearImmediate',
			'setTimeout',
			'clearTimeout',
			'setInterval',
			'clearInterval',
			'queueMicrotask',
			'hrtime',
			'performance',
		],
	});
afterEach(() => jest.useRealTimers());

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'];
const EVERY_DAY = [...WEEKDAYS, 'sat', 'sun'];

const send = (window: Record<string, unknown>, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'campaign',
	operation: 'sendToNumbers',
	sender: 'Sandbox',
	phones: '380986235601',
	body: 'Hello',
	...extra,
	options: {
		...(extra.options as object),
		sendWindow: { window: { from: '09:00', until: '20:00', days: WEEKDAYS, ...window } },
	},
});

/** The `date` the service received (undefined: none, sent now) and the output's window fields. */
const outcome = async (parameters: INodeParameters, accountTimeZone = 'Europe/Kyiv') => {
	const result = await t.sms(parameters, undefined, { accountTimeZone });
	expect(result.error).toBeUndefined();
	const posts = t.calls().filter((call) => call.method === 'POST');
	expect(posts).toHaveLength(1);
	const { outsideSendWindow, scheduledFor, scheduledForIso } = jsonOf(result)[0];
	return {
		date: (posts[0].body as { date?: string }).date,
		output: { outsideSendWindow, scheduledFor, scheduledForIso },
	};
};

describe('SMS send window (account zone Europe/Kyiv, window Mon–Fri 09:00–20:00)', () => {
	test('before the opening: scheduled for 09:00 the same day', async () => {
		setClock('2027-03-01T04:00:00Z'); // Monday 06:00 in Kyiv (UTC+2)
		expect(await outcome(send({}))).toEqual({
			date: '2027-03-01 09:00:00',
			output: {
				outsideSendWindow: true,
				scheduledFor: '2027-03-01 09:00:00',
				scheduledForIso: '2027-03-01T07:00:00.000Z',
			},
		});
	});

	test('inside: sent now, no date; the whole request as without the option', async () => {
		setClock('2027-03-01T10:00:00Z'); // Monday 12:00
		expect(await outcome(send({}))).toEqual({
			date: undefined,
			output: { outsideSendWindow: false, scheduledFor: undefined, scheduledForIso: undefined },
		});
		expect(t.calls()[0].body).toEqual({
			sender: 'Sandbox',
			phones: ['380986235601'],
			body: 'Hello',
			transliterate: 0,
		});
	});

	test('after the closing (20:00 is closed): the next day at 09:00', async () => {
		setClock('2027-03-01T18:00:00Z'); // Monday 20:00
		expect((await outcome(send({}))).date).toBe('2027-03-02 09:00:00');
	});

	test('Friday evening: Monday 09:00, over the weekend', async () => {
		setClock('2027-03-05T19:30:00Z'); // Friday 21:30
		expect((await outcome(send({}))).date).toBe('2027-03-08 09:00:00');
	});

	test('a daylight-saving day: 09:00 on 28 March 2027 in Kyiv is 06:00 UTC (it was 07:00 the day before)', async () => {
		setClock('2027-03-27T19:00:00Z'); // Saturday 21:00 in Kyiv
		expect(await outcome(send({ days: EVERY_DAY, timeZone: 'Europe/Kyiv' }), 'UTC')).toEqual({
			date: '2027-03-28 06:00:00',
			output: {
				outsideSendWindow: true,
				scheduledFor: '2027-03-28 06:00:00',
				scheduledForIso: '2027-03-28T06:00:00.000Z',
			},
		});
	});

	test("two zones: hours read in New York, the date given in the account's zone (Kyiv)", async () => {
		setClock('2027-03-01T12:00:00Z'); // 07:00 in New York, 14:00 in Kyiv
		expect(await outcome(send({ timeZone: 'America/New_York' }))).toEqual({
			date: '2027-03-01 16:00:00',
			output: {
				outsideSendWindow: true,
				scheduledFor: '2027-03-01 16:00:00',
				scheduledForIso: '2027-03-01T14:00:00.000Z',
			},
		});
	});

	// Send At is given in the workflow's zone (UTC here): 08:30 UTC is 10:30 in Kyiv.
	test('a Send At inside the window is sent as given', async () => {
		setClock('2027-03-01T04:00:00Z');
		const { date, output } = await outcome(
			send({}, { options: { sendDate: '2027-03-02T08:30:00' } }),
		);
		expect(date).toBe('2027-03-02 10:30:00');
		expect(output.outsideSendWindow).toBe(false);
	});

	test('a Send At outside the window is refused naming Send At; nothing is sent', async () => {
		setClock('2027-03-01T04:00:00Z');
		const result = await t.sms(
			send({}, { options: { sendDate: '2027-03-06T08:30:00' } }),
			undefined,
			{
				accountTimeZone: 'Europe/Kyiv',
			},
		);
		expect(result.error?.message).toBe(
			'Send At: 2027-03-06 10:30:00 (2027-03-06 10:30 Saturday in Europe/Kyiv) is outside the Send Window Mon, Tue, Wed, Thu, Fri 09:00–20:00 (Europe/Kyiv) [item 0]',
		);
		expect(t.calls().filter((call) => call.method === 'POST')).toEqual([]);
	});

	test('Create for List: the campaign is created with the next opening', async () => {
		await t.sms({
			resource: 'phoneNumber',
			operation: 'add',
			addressBookId: 11,
			phones: '380986235601',
		});
		t.sandbox.log.clear();
		setClock('2027-03-06T08:00:00Z'); // Saturday
		const result = await t.sms(
			{
				resource: 'campaign',
				operation: 'createForList',
				sender: 'Sandbox',
				addressBookId: 11,
				body: 'Hello',
				options: { sendWindow: { window: { from: '10:00', until: '18:00', days: WEEKDAYS } } },
			},
			undefined,
			{ accountTimeZone: 'Europe/Kyiv' },
		);
		expect(t.calls().filter((call) => call.method === 'POST')).toEqual([
			{
				method: 'POST',
				path: '/sms/campaigns',
				body: {
					sender: 'Sandbox',
					addressBookId: 11,
					body: 'Hello',
					transliterate: 0,
					date: '2027-03-08 10:00:00',
				},
			},
		]);
		expect(jsonOf(result)[0]).toMatchObject({
			outsideSendWindow: true,
			scheduledFor: '2027-03-08 10:00:00',
		});
	});

	test.each([
		[
			{ from: '20:00', until: '09:00' },
			'Send Window: Until (09:00) must be later than From (20:00) [item 0]',
		],
		[
			{ from: '9am' },
			'Send Window: From must be a time like 09:00, but the value is text ("9am") [item 0]',
		],
		[
			{ days: [] },
			'Send Window: Days must name at least one day of the week, but the value is a list ([]) [item 0]',
		],
		[
			{ timeZone: 'Mars/Olympus' },
			'Send Window: Time Zone "Mars/Olympus" is not a time zone name [item 0]',
		],
	])('bad window %j refused, nothing sent', async (window, message) => {
		const result = await t.sms(send(window), undefined, { accountTimeZone: 'Europe/Kyiv' });
		expect(result.error?.message).toBe(message);
		expect(t.calls().filter((call) => call.method === 'POST')).toEqual([]);
	});

	test('with Send Once per Key (Key empty): a re-run later is the same message, though the window moved its date', async () => {
		const parameters = send({}, { options: { sendOnce: { settings: {} } } });
		setClock('2027-03-01T04:00:00Z'); // Monday 06:00: scheduled for 09:00
		expect((await outcome(parameters)).date).toBe('2027-03-01 09:00:00');
		t.sandbox.log.clear();
		setClock('2027-03-01T10:00:00Z'); // Monday 12:00, inside
		const rerun = await t.sms(parameters, undefined, { accountTimeZone: 'Europe/Kyiv' });
		expect(t.calls().filter((call) => call.method === 'POST')).toEqual([]);
		expect(jsonOf(rerun)[0]).toMatchObject({ alreadySent: true });
	});
});
