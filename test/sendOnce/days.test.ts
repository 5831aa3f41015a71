import type { INodeParameters } from 'n8n-workflow';

import { sendParameters } from '../harness/send-parameters';
import { jsonOf } from '../harness/run-node';
import { useSendOnceSandbox } from './setup';

const t = useSendOnceSandbox();

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** n8n's clock (Date.now, which the node and n8n-core read) set to `at`, running on in real time from there. */
let clockOffset = 0;
const realNow = Date.now.bind(Date);
beforeAll(() => jest.spyOn(Date, 'now').mockImplementation(() => realNow() + clockOffset));
afterAll(() => jest.restoreAllMocks());
const setClock = (at: number) => {
	clockOffset = at - realNow();
};

const remember = (days: number): INodeParameters =>
	sendParameters({
		subject: 'Your receipt',
		options: { sendOnce: { settings: { key: 'receipt-1', days } } },
	});

/** Runs the node once at `at`; true when it sent the email. */
const sendsAt = async (days: number, at: number) => {
	setClock(at);
	const result = await t.email(remember(days));
	expect(result.error).toBeUndefined();
	return jsonOf(result)[0].alreadySent === false;
};

// A day that starts a period of 2 days and of 7 days alike: the UTC day 20,188 (2025-04-10) is divisible by 14.
const periodStart = 20188 * DAY;

describe('Send Once per Key: Remember For (Days)', () => {
	test('2 days: remembered at least 2 days, forgotten once two periods have passed', async () => {
		expect(await sendsAt(2, periodStart + HOUR)).toBe(true);
		expect(await sendsAt(2, periodStart + DAY)).toBe(false);
		expect(await sendsAt(2, periodStart + 2 * DAY + 23 * HOUR)).toBe(false);
		expect(await sendsAt(2, periodStart + 4 * DAY - HOUR)).toBe(false);
		expect(await sendsAt(2, periodStart + 4 * DAY)).toBe(true);
		expect(t.outbox()).toHaveLength(2);
	});

	test('a send late in a period is still remembered N days later (the shortest memory is N days)', async () => {
		expect(await sendsAt(2, periodStart + 2 * DAY - HOUR)).toBe(true);
		expect(await sendsAt(2, periodStart + 4 * DAY - 2 * HOUR)).toBe(false);
		expect(await sendsAt(2, periodStart + 4 * DAY)).toBe(true);
	});

	test('being seen again does not make a key last longer', async () => {
		expect(await sendsAt(7, periodStart)).toBe(true);
		// Seen in the next period (found in the previous one): the value of this period is taken back.
		expect(await sendsAt(7, periodStart + 8 * DAY)).toBe(false);
		expect(await sendsAt(7, periodStart + 13 * DAY)).toBe(false);
		expect(await sendsAt(7, periodStart + 14 * DAY)).toBe(true);
	});

	test('0 days: remembered until forgotten', async () => {
		expect(await sendsAt(0, periodStart)).toBe(true);
		expect(await sendsAt(0, periodStart + 3650 * DAY)).toBe(false);
	});
});
