import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { startSandbox, type Sandbox } from '../../sandbox';
import type { FaultRule } from '../../sandbox/core/faults';
import { logger, PollHarness, type PersistenceMode } from '../harness/poll-harness';

export const trigger = new MessagingTrigger();

const ONLY_DATE = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/**
 * One clock for n8n and the service: only `Date` is faked (timers stay real), so the node's Date.now() and the
 * sandbox clock (Date.now() + its own offset, 0 unless a test adds skew) move together when a test jumps days.
 */
export function useSharedClock(startIso: string) {
	jest.useFakeTimers({ doNotFake: [...ONLY_DATE], now: new Date(startIso), advanceTimers: true });
}

export function restoreClock() {
	jest.useRealTimers();
}

export function setNow(iso: string) {
	const target = new Date(iso).getTime();
	if (target < Date.now()) throw new Error(`setNow(${iso}) would move the clock back`);
	jest.setSystemTime(target);
}

export function advance(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}

export const HOUR = 3_600_000;

export async function newSandbox(): Promise<Sandbox> {
	return await startSandbox({ settings: { rateLimitPerSecond: 0 } });
}

/**
 * The setup every trigger test shares: before each test, one clock for n8n and the sandbox starting at `startIso`,
 * a fresh sandbox (no rate limit) handed to `use`, n8n's logger emptied; after it, the sandbox closed and real time
 * back. Call it at the top of a file or a describe; a describe's own beforeEach (seeding) runs after it.
 */
export function useTriggerSandbox(startIso: string, use: (sandbox: Sandbox) => void) {
	let current: Sandbox | undefined;
	beforeEach(async () => {
		useSharedClock(startIso);
		current = await newSandbox();
		use(current);
		logger.clear();
	});
	afterEach(async () => {
		await current?.close();
		current = undefined;
		restoreClock();
	});
}

/** The sandbox's control API, over HTTP like any client would use it. */
export async function control(
	sandbox: Sandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<IDataObject> {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const json = (await response.json()) as IDataObject;
	if (!response.ok)
		throw new Error(`control ${method} ${path} failed: ${response.status} ${JSON.stringify(json)}`);
	return json;
}

export interface BounceSeed {
	email_to: string;
	send_date: string;
	sender?: string;
	subject?: string;
	smtp_answer_code?: number;
	smtp_answer_subcode?: string;
	smtp_answer_data?: string;
}

export interface UnsubscribeSeed {
	email: string;
	/** Defaults to the sandbox clock's now. */
	date?: string;
	unsubscribe_by_link?: number;
	unsubscribe_by_user?: number;
	spam_complaint?: number;
}

export async function addBounces(sandbox: Sandbox, bounces: BounceSeed[]) {
	for (let index = 0; index < bounces.length; index += 2000) {
		await control(sandbox, 'POST', '/email/bounces', {
			bounces: bounces.slice(index, index + 2000),
		});
	}
}

export async function addUnsubscribes(sandbox: Sandbox, unsubscribes: UnsubscribeSeed[]) {
	for (let index = 0; index < unsubscribes.length; index += 2000) {
		await control(sandbox, 'POST', '/email/unsubscribes', {
			unsubscribes: unsubscribes.slice(index, index + 2000),
		});
	}
}

export function parameters(events: string[], options: IDataObject = {}): INodeParameters {
	return { events, options, requestOptions: { requestsPerSecond: 0 } } as INodeParameters;
}

export function harness(
	sandbox: Sandbox,
	params: INodeParameters,
	persistence: PersistenceMode = 'legacy',
	/** The credential's Account Time Zone (absent: a credential saved before the field, read as UTC). */
	timeZone?: string,
) {
	return new PollHarness({
		nodeType: trigger,
		parameters: params,
		// The static API key never expires, so days of simulated time add no token exchanges to the request log.
		credentials: new CredentialStore({
			...sandboxCredentials(sandbox, 'apiKey'),
			...(timeZone === undefined ? {} : { timeZone }),
		}),
		persistence,
	});
}

/** A stable identity for an emitted event, to count emissions. */
export function identity(json: IDataObject): string {
	return [json.event, json.email, json.eventTime, json.subject ?? '', json.smtpCode ?? ''].join(
		'|',
	);
}

/** The API requests (method, path, query) the sandbox received since `since`. */
export function requestsSince(sandbox: Sandbox, since: number) {
	return sandbox.log
		.since(since)
		.filter((entry) => entry.path !== '/oauth/access_token')
		.map((entry) => ({
			method: entry.method,
			path: entry.path,
			query: entry.query,
			status: entry.status,
		}));
}

/** The API requests as `METHOD path?rawQuery status` lines, since log sequence `since`. */
export function callsSince(sandbox: Sandbox, since: number): string[] {
	return sandbox.log
		.since(since)
		.filter((entry) => entry.path !== '/oauth/access_token')
		.map((entry) => `${entry.method} ${entry.path}?${entry.rawQuery} ${entry.status}`);
}

export const bouncePage = (offset: number, status = 200, limit = 100) =>
	`GET /smtp/bounces/day?limit=${limit}&offset=${offset} ${status}`;
export const unsubscribePage = (day: string, offset = 0, status = 200, limit = 100) =>
	`GET /smtp/unsubscribe?date=${day}&limit=${limit}&offset=${offset} ${status}`;
/** The count of the bounce window, then its first record (where the window starts): an idle poll's bounce part. */
export const bounceCount = (status = 200) => `GET /smtp/bounces/day/total? ${status}`;
export const bounceCheck = [bounceCount(), bouncePage(0, 200, 1)];
/** One probe of a day's unsubscribes already read: from the last entry held (`entries` of them) on. */
export const unsubscribeProbe = (day: string, entries: number, status = 200) =>
	entries === 0 ? unsubscribePage(day, 0, status, 1) : unsubscribePage(day, entries - 1, status, 2);

/**
 * Makes the n-th (1-based) request to `path` from now on fail with `rule` (status/body/headers/drop), through the
 * sandbox's own fault injector, so a fault lands in the middle of a poll's paging.
 */
export function failNth(
	sandbox: Sandbox,
	path: string,
	plan: Record<number, Omit<FaultRule, 'path'>>,
) {
	const faults = sandbox.faults;
	const original = faults.take.bind(faults);
	let count = 0;
	faults.take = (method: string, requestPath: string) => {
		if (requestPath === path) {
			count++;
			const rule = plan[count];
			if (rule) return { ...rule, path };
		}
		return original(method, requestPath);
	};
	return () => {
		faults.take = original;
	};
}

/** The service's record behind an expected flat bounce output (the `raw` key of every bounce the package emits). */
export function withRawBounce<T extends IDataObject>(flat: T): T & { raw: IDataObject } {
	return {
		...flat,
		raw: {
			email_to: flat.email,
			sender: flat.sender,
			subject: flat.subject,
			smtp_answer_code: flat.smtpCode,
			smtp_answer_subcode: flat.smtpSubcode,
			smtp_answer_data: flat.smtpMessage,
			send_date: flat.eventTime,
		},
	};
}

/** The service's record behind an expected flat unsubscribe output. */
export function withRawUnsubscribe<T extends IDataObject>(flat: T): T & { raw: IDataObject } {
	return {
		...flat,
		raw: {
			email: flat.email,
			date: flat.eventTime,
			unsubscribe_by_link: flat.byLink ? 1 : 0,
			unsubscribe_by_user: flat.byUser ? 1 : 0,
			spam_complaint: flat.spamComplaint ? 1 : 0,
		},
	};
}

/**
 * The trigger's item for a hard bounce (550 5.1.1 User unknown) of an email from the sandbox's sender, its
 * `eventTime` in the service's form and taken as UTC; `extra` replaces any of its fields.
 */
export const bounceItem = (email: string, eventTime: string, extra: IDataObject = {}) =>
	withRawBounce({
		event: 'bounce',
		email,
		eventTime,
		eventTimeIso: `${eventTime.replace(' ', 'T')}.000Z`,
		sender: 'sender@sandbox.test',
		subject: '',
		smtpCode: 550,
		smtpSubcode: '5.1.1',
		smtpMessage: 'User unknown',
		bounceType: 'hard',
		...extra,
	});

/** The trigger's item for an unsubscribe at `eventTime` (the service's form, taken as UTC), no flag set unless given. */
export const unsubscribeItem = (
	email: string,
	eventTime: string,
	flags: Partial<Record<'byLink' | 'byUser' | 'spamComplaint', boolean>> = {},
) =>
	withRawUnsubscribe({
		event: 'unsubscribe',
		email,
		eventTime,
		eventTimeIso: `${eventTime.replace(' ', 'T')}.000Z`,
		byLink: false,
		byUser: false,
		spamComplaint: false,
		...flags,
	});
