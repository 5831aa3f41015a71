/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as vendorClient from 'sendpulse-api';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { parsePhpSerialized } from '../../sandbox/core/php-serialized';
import type { LoggedRequest } from '../../sandbox/core/request-log';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea, emailStateOf } from '../../sandbox/email';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { runNode } from '../harness/run-node';

/**
 * The service's official Node.js client (`sendpulse-api` 1.1.7) against the sandbox: every one of its SMTP and SMS
 * calls, and its token exchange. The client hard-codes https://api.sendpulse.com:443; its `https.request` calls
 * are redirected here to the sandbox over plain HTTP on 127.0.0.1 (nothing else of the request changes), and any
 * other destination fails the test. Each call is paired with the request in the reference's form (the form the
 * nodes send) made to a twin sandbox set up the same way: the two must get the same answer and leave the same
 * state, while the request log keeps what the client really sent (sandbox/README.md, "What the vendor's own
 * client sends"). A few calls are also compared with the nodes themselves, run through n8n-core. The tests run in
 * order and share the client's token (module state of the client) and the sandboxes' state.
 */

type Client = Record<string, (callback: (answer: unknown) => void, ...args: unknown[]) => unknown>;
const client = vendorClient as unknown as Client;

let vendor: Sandbox;
let twin: Sandbox;
let storage: string;
const driven = new Set<string>();
const redirected: string[] = [];
/** Requests this test made to the vendor sandbox itself, not through the client. */
let direct = 0;

const LIST = 7;
const SENDER = 'Sandbox';
const FROM = 'shop@example.com';

async function control(sandbox: Sandbox, method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`control ${method} ${path}: ${await response.text()}`);
	return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
	[vendor, twin] = await Promise.all(
		[0, 1].map(
			async () =>
				await startSandbox({ areas: [emailArea, smsArea], settings: { rateLimitPerSecond: 0 } }),
		),
	);
	for (const sandbox of [vendor, twin]) {
		await control(sandbox, 'POST', '/sms/addressbooks', { id: LIST, name: 'Customers' });
		await control(sandbox, 'POST', '/email/senders', { email: FROM, name: 'Shop' });
	}
	storage = mkdtempSync(join(tmpdir(), 'vendor-client-'));
	jest.spyOn(https, 'request').mockImplementation(((
		options: https.RequestOptions,
		callback: (response: http.IncomingMessage) => void,
	) => {
		if (options.hostname !== 'api.sendpulse.com' || options.port !== 443)
			throw new Error(`unexpected destination ${String(options.hostname)}:${String(options.port)}`);
		const { port } = new URL(vendor.url);
		redirected.push(`${String(options.method)} ${String(options.path)}`);
		return http.request({ ...options, hostname: '127.0.0.1', port: Number(port) }, callback);
	}) as unknown as typeof https.request);
});

afterAll(async () => {
	jest.restoreAllMocks();
	rmSync(storage, { recursive: true, force: true });
	await Promise.all([vendor.close(), twin.close()]);
});

/** Calls a client method; resolves with what it hands its callback. */
async function callClient(name: string, ...args: unknown[]): Promise<unknown> {
	driven.add(name);
	return await new Promise((resolve) => client[name](resolve, ...args));
}

/** The reference's form of a request, sent to the twin sandbox with its API key. */
interface ReferenceRequest {
	method: string;
	path: string;
	query?: Record<string, string>;
	body?: unknown;
}

async function callTwin({ method, path, query, body }: ReferenceRequest): Promise<unknown> {
	const search = query ? `?${new URLSearchParams(query).toString()}` : '';
	const response = await fetch(`${twin.url}${path}${search}`, {
		method,
		headers: {
			Authorization: `Bearer ${twin.account.apiKey}`,
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return await response.json();
}

/** Dates differ by the moment each sandbox handled its request; everything else must not. */
const DATE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/;
const withoutDates = (value: unknown): unknown =>
	JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
		typeof item === 'string' && DATE.test(item) ? '<date>' : item,
	);

async function stateOf(sandbox: Sandbox) {
	const email = emailStateOf(sandbox);
	return withoutDates({
		sms: await control(sandbox, 'GET', '/sms/state'),
		emails: email.emails,
		unsubscribes: email.unsubscribes,
		bounces: email.bounces,
	});
}

/**
 * Drives one client call and its reference form on the twin: same status, same answer, same state after.
 * Returns the client's answer and the one request it made, as the vendor sandbox logged it.
 */
async function same(name: string, args: unknown[], reference: ReferenceRequest, status = 200) {
	const seq = vendor.log.lastSeq();
	const twinSeq = twin.log.lastSeq();
	const answer = await callClient(name, ...args);
	const twinAnswer = await callTwin(reference);
	const received = vendor.log.since(seq).filter((entry) => entry.path !== '/oauth/access_token');
	expect(received).toHaveLength(1);
	expect({ status: received[0].status, answer: withoutDates(answer) }).toEqual({
		status,
		answer: withoutDates(twinAnswer),
	});
	expect(twin.log.since(twinSeq).map((entry) => entry.status)).toEqual([status]);
	expect(await stateOf(vendor)).toEqual(await stateOf(twin));
	return { answer: answer as Record<string, unknown>, received: received[0] };
}

const smsState = async () =>
	(await control(vendor, 'GET', '/sms/state')) as {
		lists: Array<{ id: number; phones: Record<string, { variables: Record<string, unknown> }> }>;
		blacklist: Array<{ phone: string; description: string }>;
		campaigns: Array<{
			id: number;
			sender_name: string;
			body: string;
			cancelled: boolean;
			phones: Array<{ phone: string }>;
		}>;
	};
const listPhones = async () =>
	(await smsState()).lists.find((list) => list.id === LIST)?.phones ?? {};

describe("the vendor's client: token exchange", () => {
	test('init exchanges the client id and secret for a token (JSON body) and uses it', async () => {
		const token = await new Promise((resolve) =>
			vendorClient.init(vendor.account.clientId, vendor.account.clientSecret, storage, resolve),
		);
		const [exchange] = vendor.log.all();
		expect(exchange).toMatchObject({
			method: 'POST',
			path: '/oauth/access_token',
			contentType: 'application/json',
			body: { grant_type: 'client_credentials', client_id: vendor.account.clientId },
			status: 200,
		});
		expect((exchange.responseBody as { access_token: string }).access_token).toBe(token);
		expect(vendor.account.tokensIssued).toBe(1);

		const { received } = await same('smsGetBlackList', [], {
			method: 'GET',
			path: '/sms/black_list',
		});
		expect(received.auth).toBe('token');
		expect(redirected).toEqual(['POST /oauth/access_token', 'GET /sms/black_list']);
	});

	test('a token the service no longer knows: one new exchange, the call repeated once', async () => {
		await control(vendor, 'POST', '/tokens/revoke');
		const seq = vendor.log.lastSeq();
		expect(await callClient('smtpListIP')).toEqual(
			await callTwin({ method: 'GET', path: '/smtp/ips' }),
		);
		expect(
			vendor.log.since(seq).map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
		).toEqual(['GET /smtp/ips 401', 'POST /oauth/access_token 200', 'GET /smtp/ips 200']);
		expect(vendor.account.tokensIssued).toBe(2);
	});
});

describe("the vendor's client: SMS calls", () => {
	test('smsAddPhones: phones as JSON text, the log keeps it as sent', async () => {
		const phones = ['380986235698', '380501234567'];
		const { answer, received } = await same('smsAddPhones', [LIST, phones], {
			method: 'POST',
			path: '/sms/numbers',
			body: { addressBookId: LIST, phones },
		});
		expect(answer).toEqual({ result: true, counters: { added: 2, exceptions: 0, exists: 0 } });
		expect(received.body).toEqual({ addressBookId: LIST, phones: JSON.stringify(phones) });
		expect(received.accepted).toEqual({ query: {}, body: { addressBookId: LIST, phones } });
		expect(Object.keys(await listPhones())).toEqual(phones);
	});

	test('smsAddPhonesWithVariables: the phones map as JSON text', async () => {
		const phones = { '380631112233': [[{ name: 'Name', type: 'string', value: 'Ann' }]] };
		await same('smsAddPhonesWithVariables', [LIST, phones], {
			method: 'POST',
			path: '/sms/numbers/variables',
			body: { addressBookId: LIST, phones },
		});
		expect((await listPhones())['380631112233'].variables).toEqual({
			Name: { type: 'string', value: 'Ann' },
		});
	});

	test('smsUpdatePhonesVariables: phones and variables as JSON text', async () => {
		const variables = [{ name: 'Name', type: 'string', value: 'Olena' }];
		await same('smsUpdatePhonesVariables', [LIST, ['380631112233'], variables], {
			method: 'PUT',
			path: '/sms/numbers',
			body: { addressBookId: LIST, phones: ['380631112233'], variables },
		});
		expect((await listPhones())['380631112233'].variables).toEqual({
			Name: { type: 'string', value: 'Olena' },
		});
	});

	test('smsGetPhoneInfo', async () => {
		const { answer } = await same('smsGetPhoneInfo', [LIST, '380631112233'], {
			method: 'GET',
			path: `/sms/numbers/info/${LIST}/380631112233`,
		});
		expect(answer).toMatchObject([{ result: true, data: { variables: { Name: 'Olena' } } }]);
	});

	test('smsRemovePhones: phones as JSON text', async () => {
		await same('smsRemovePhones', [LIST, ['380501234567']], {
			method: 'DELETE',
			path: '/sms/numbers',
			body: { addressBookId: LIST, phones: ['380501234567'] },
		});
		expect(Object.keys(await listPhones())).toEqual(['380986235698', '380631112233']);
	});

	test('smsAddPhonesToBlacklist, smsGetBlackList, smsGetPhonesInfoFromBlacklist (GET parameters in a body)', async () => {
		await same('smsAddPhonesToBlacklist', [['380671234567'], 'asked to stop'], {
			method: 'POST',
			path: '/sms/black_list',
			body: { phones: ['380671234567'], description: 'asked to stop' },
		});
		expect((await smsState()).blacklist).toMatchObject([
			{ phone: '380671234567', description: 'asked to stop' },
		]);
		await same('smsGetBlackList', [], { method: 'GET', path: '/sms/black_list' });
		const { answer, received } = await same(
			'smsGetPhonesInfoFromBlacklist',
			[['380671234567', '380986235698']],
			{
				method: 'GET',
				path: '/sms/black_list/by_numbers',
				query: { phones: JSON.stringify(['380671234567', '380986235698']) },
			},
		);
		expect(answer).toMatchObject({ result: true, data: [{ phone: '380671234567' }] });
		expect(received).toMatchObject({
			rawQuery: '',
			query: {},
			body: { phones: '["380671234567","380986235698"]' },
			accepted: { query: { phones: ['380671234567', '380986235698'] }, body: undefined },
		});
	});

	let listCampaign = 0;
	let scheduledCampaign = 0;
	test('smsAddCampaign: a campaign to the list', async () => {
		const { answer } = await same('smsAddCampaign', [SENDER, LIST, 'Sale today', undefined, 0], {
			method: 'POST',
			path: '/sms/campaigns',
			body: { sender: SENDER, addressBookId: LIST, body: 'Sale today', transliterate: 0 },
		});
		listCampaign = answer.campaign_id as number;
		const campaign = (await smsState()).campaigns.find((entry) => entry.id === listCampaign);
		expect(campaign?.phones.map((entry) => entry.phone)).toEqual(['380986235698', '380631112233']);
	});

	test('smsSend: phones as JSON text, a scheduled campaign to those phones (the blacklisted one left out)', async () => {
		const phones = ['380986235698', '380671234567'];
		const { answer } = await same(
			'smsSend',
			[SENDER, phones, 'Your code is 1234', '2031-01-01 10:00:00', 0],
			{
				method: 'POST',
				path: '/sms/send',
				body: {
					sender: SENDER,
					phones,
					body: 'Your code is 1234',
					date: '2031-01-01 10:00:00',
					transliterate: 0,
				},
			},
		);
		expect(answer).toMatchObject({ result: true, counters: { exceptions: 1, sends: 1 } });
		scheduledCampaign = answer.campaign_id as number;
		const campaign = (await smsState()).campaigns.find((entry) => entry.id === scheduledCampaign);
		expect(campaign).toMatchObject({ sender_name: SENDER, body: 'Your code is 1234' });
		expect(campaign?.phones.map((entry) => entry.phone)).toEqual(['380986235698']);
	});

	test('smsGetListCampaigns: dates as GET parameters in a body, or none', async () => {
		const { answer } = await same(
			'smsGetListCampaigns',
			['2000-01-01 00:00:00', '2100-01-01 00:00:00'],
			{
				method: 'GET',
				path: '/sms/campaigns/list',
				query: { dateFrom: '2000-01-01 00:00:00', dateTo: '2100-01-01 00:00:00' },
			},
		);
		expect((answer.data as unknown[]).length).toBe(2);
		await same('smsGetListCampaigns', [], { method: 'GET', path: '/sms/campaigns/list' });
	});

	test('smsGetCampaignInfo', async () => {
		await same('smsGetCampaignInfo', [listCampaign], {
			method: 'GET',
			path: `/sms/campaigns/info/${listCampaign}`,
		});
	});

	test("smsGetCampaignCost: GET parameters in a body, the list id null as in the client's own example", async () => {
		const { answer } = await same(
			'smsGetCampaignCost',
			[SENDER, 'Sale today', null, ['380986235698', '380631112233']],
			{
				method: 'GET',
				path: '/sms/campaigns/cost',
				query: {
					sender: SENDER,
					body: 'Sale today',
					phones: JSON.stringify(['380986235698', '380631112233']),
				},
			},
		);
		expect(answer).toMatchObject({ result: true, data: { currency: expect.any(String) } });
		expect((answer.data as { price: number }).price).toBeGreaterThan(0);
	});

	test('smsCancelCampaign, smsDeleteCampaign', async () => {
		await same('smsCancelCampaign', [scheduledCampaign], {
			method: 'PUT',
			path: `/sms/campaigns/cancel/${scheduledCampaign}`,
		});
		expect(
			(await smsState()).campaigns.find((entry) => entry.id === scheduledCampaign)?.cancelled,
		).toBe(true);
		await same('smsDeleteCampaign', [scheduledCampaign], {
			method: 'DELETE',
			path: '/sms/campaigns',
			body: { id: scheduledCampaign },
		});
		expect((await smsState()).campaigns.map((entry) => entry.id)).toEqual([listCampaign]);
	});

	test('smsDeletePhonesFromBlacklist: phones as JSON text', async () => {
		await same('smsDeletePhonesFromBlacklist', [['380671234567']], {
			method: 'DELETE',
			path: '/sms/black_list',
			body: { phones: ['380671234567'] },
		});
		expect((await smsState()).blacklist).toEqual([]);
	});
});

describe("the vendor's client: SMTP calls", () => {
	// Quotes and multi-byte text: PHP-serialized strings are cut by their UTF-8 byte length, not by quotes.
	const subject = 'Замовлення "№ 17" ✓; s:3:"x";';
	const html = '<h1>Привіт, "Ann"</h1>';
	let emailId = '';

	test('smtpSendMail: the email PHP-serialized (html Base64 first), one email in the outbox', async () => {
		const email = {
			html,
			text: 'Hi Ann',
			subject,
			from: { name: 'Shop', email: FROM },
			to: [{ name: 'Ann', email: 'ann@example.com' }],
			bcc: [{ email: 'audit@example.com' }],
			attachments: { 'note.txt': 'paid' },
		};
		const { answer, received } = await same('smtpSendMail', [{ ...email }], {
			method: 'POST',
			path: '/smtp/emails',
			body: { email: { ...email, html: Buffer.from(html).toString('base64') } },
		});
		emailId = answer.id as string;
		expect(answer).toEqual({ result: true, id: expect.any(String) });
		expect((received.body as { email: string }).email).toMatch(/^a:7:\{s:4:"html";s:\d+:"/);
		const [sent] = emailStateOf(vendor).emails;
		expect(sent).toMatchObject({
			id: emailId,
			subject,
			recipient: 'ann@example.com',
			sender: FROM,
		});
		expect(sent.content).toMatchObject({ html, attachments: { 'note.txt': 'paid' } });
		expect(sent.content.bcc).toEqual([{ email: 'audit@example.com' }]);
	});

	test("smtpListEmails: GET parameters in a body; the client's defaults for the ones not given", async () => {
		await same('smtpListEmails', [], { method: 'GET', path: '/smtp/emails' });
		const { answer, received } = await same(
			'smtpListEmails',
			[10, 0, undefined, undefined, FROM, 'ann@example.com'],
			{
				method: 'GET',
				path: '/smtp/emails',
				query: { limit: '10', offset: '0', sender: FROM, recipient: 'ann@example.com' },
			},
		);
		expect(answer).toMatchObject([{ id: emailId }]);
		expect(received.body).toEqual({
			limit: 10,
			offset: 0,
			from: '',
			to: '',
			sender: FROM,
			recipient: 'ann@example.com',
		});
	});

	test('smtpGetEmailInfoById', async () => {
		await same('smtpGetEmailInfoById', [emailId], {
			method: 'GET',
			path: `/smtp/emails/${emailId}`,
		});
	});

	test('smtpUnsubscribeEmails and smtpRemoveFromUnsubscribe: emails PHP-serialized', async () => {
		const entries = [{ email: 'ann@example.com', comment: 'no more "offers"' }];
		await same('smtpUnsubscribeEmails', [entries], {
			method: 'POST',
			path: '/smtp/unsubscribe',
			body: { emails: entries },
		});
		expect(emailStateOf(vendor).unsubscribes).toMatchObject([
			{ email: 'ann@example.com', comment: 'no more "offers"' },
		]);
		const { received } = await same('smtpRemoveFromUnsubscribe', [['ann@example.com']], {
			method: 'DELETE',
			path: '/smtp/unsubscribe',
			body: { emails: ['ann@example.com'] },
		});
		expect(received.body).toEqual({ emails: 'a:1:{i:0;s:15:"ann@example.com";}' });
		expect(emailStateOf(vendor).unsubscribes).toEqual([]);
	});

	test('smtpListIP', async () => {
		await same('smtpListIP', [], { method: 'GET', path: '/smtp/ips' });
	});

	test('smtpListAllowedDomains, smtpAddDomain, smtpVerifyDomain: the legacy /smtp/domains path is gone (404), as on the live service', async () => {
		await same('smtpListAllowedDomains', [], { method: 'GET', path: '/smtp/domains' }, 404);
		await same(
			'smtpAddDomain',
			['news@example.org'],
			{ method: 'POST', path: '/smtp/domains', body: { email: 'news@example.org' } },
			404,
		);
		await same(
			'smtpVerifyDomain',
			['news@example.org'],
			{ method: 'GET', path: '/smtp/domains/news@example.org' },
			404,
		);
	});
});

describe("forms that are not the vendor client's stay refused, and the nodes' forms are logged as before", () => {
	const api = async (method: string, path: string, body: unknown) => {
		const seq = vendor.log.lastSeq();
		direct++;
		await fetch(`${vendor.url}${path}`, {
			method,
			headers: {
				Authorization: `Bearer ${vendor.account.apiKey}`,
				'Content-Type': 'application/json',
			},
			body: JSON.stringify(body),
		});
		return vendor.log.since(seq)[0];
	};

	test.each([
		[
			'phones as JSON text that is not a list',
			'POST',
			'/sms/numbers',
			{ addressBookId: LIST, phones: '"380986235698"' },
		],
		[
			'phones as broken JSON text',
			'POST',
			'/sms/black_list',
			{ phones: '["380', description: 'x' },
		],
		[
			'an email PHP-serialized with a wrong length',
			'POST',
			'/smtp/emails',
			{ email: 'a:1:{s:9:"subject";s:2:"Hi";}' },
		],
		['PHP-serialized text with a rest', 'DELETE', '/smtp/unsubscribe', { emails: 'a:0:{}x' }],
	])('%s: refused as before, nothing accepted', async (_name, method, path, body) => {
		const entry: LoggedRequest = await api(method, path, body);
		expect(entry.status).toBeGreaterThanOrEqual(400);
		expect(entry.accepted).toBeUndefined();
	});

	test("a request in the reference's form has no accepted form in the log", async () => {
		const entry = await api('POST', '/sms/numbers', {
			addressBookId: LIST,
			phones: ['380986235698'],
		});
		expect(entry.status).toBe(200);
		expect(Object.keys(entry)).not.toContain('accepted');
	});
});

describe('PHP-serialized text', () => {
	test.each([
		['N;', null],
		['b:1;', true],
		['i:-12;', -12],
		['d:1.5;', 1.5],
		['s:4:"€";', undefined],
		['s:3:"€";', '€'],
		['a:2:{i:0;s:1:"a";i:1;s:1:"b";}', ['a', 'b']],
		['a:2:{i:1;s:1:"a";i:0;s:1:"b";}', { '1': 'a', '0': 'b' }],
		['a:1:{s:2:"to";a:1:{i:0;a:1:{s:5:"email";s:3:"a@b";}}}', { to: [{ email: 'a@b' }] }],
		['a:1:{i:0;s:1:"a";', undefined],
		['i:1;;', undefined],
		['x:1;', undefined],
	])('%s', (text, expected) => {
		expect(parsePhpSerialized(text)).toEqual(expected);
	});
});

describe("the same effect as the nodes' own requests (run through n8n-core)", () => {
	let nodeSide: Sandbox;
	beforeAll(async () => {
		nodeSide = await startSandbox({
			areas: [emailArea, smsArea],
			settings: { rateLimitPerSecond: 0 },
		});
		for (const sandbox of [vendor, nodeSide]) {
			await control(sandbox, 'POST', '/sms/reset');
			await control(sandbox, 'POST', '/email/reset');
			await control(sandbox, 'POST', '/sms/addressbooks', { id: LIST, name: 'Customers' });
		}
	});
	afterAll(async () => await nodeSide.close());

	const runOnNodeSide = async (
		node: MessagingSms | MessagingEmail,
		parameters: Record<string, unknown>,
	) => {
		const result = await runNode({
			node,
			credentials: new CredentialStore(sandboxCredentials(nodeSide, 'apiKey')),
			parameters: { requestOptions: { requestsPerSecond: 0 }, ...parameters },
		});
		expect(result.error).toBeUndefined();
	};
	/** What a call changes, without dates and the per-phone delivery statuses (they move with the clock). */
	const effects = async (sandbox: Sandbox) => {
		const state = (await stateOf(sandbox)) as {
			sms: { campaigns: Array<{ phones: Array<Record<string, unknown>> }> };
		};
		for (const campaign of state.sms.campaigns)
			for (const phone of campaign.phones) {
				delete phone.status;
				delete phone.status_explain;
			}
		return state;
	};

	test('Phone Number → Add, Blacklist → Add, Campaign → Send to Numbers, Email → Send, Unsubscribe → Add', async () => {
		const sms = new MessagingSms();
		const email = new MessagingEmail();
		const steps: Array<
			[string, unknown[], MessagingSms | MessagingEmail, Record<string, unknown>]
		> = [
			[
				'smsAddPhones',
				[LIST, ['380986235698', '12025550143']],
				sms,
				{
					resource: 'phoneNumber',
					operation: 'add',
					addressBookId: LIST,
					phones: '380986235698, 12025550143',
				},
			],
			[
				'smsAddPhonesToBlacklist',
				[['380631234567'], 'asked to stop'],
				sms,
				{
					resource: 'blacklist',
					operation: 'add',
					phones: '380631234567',
					description: 'asked to stop',
				},
			],
			[
				'smsSend',
				[SENDER, ['380986235698', '380631234567'], 'Hello', undefined, 0],
				sms,
				{
					resource: 'campaign',
					operation: 'sendToNumbers',
					sender: SENDER,
					body: 'Hello',
					phones: '380986235698, 380631234567',
				},
			],
			[
				'smtpSendMail',
				[
					{
						html: '<p>Привіт</p>',
						text: 'Hello',
						subject: 'Hello "Ann"',
						from: { name: 'Sandbox Sender', email: 'sender@sandbox.test' },
						to: [{ name: 'Ann', email: 'ann@example.com' }],
					},
				],
				email,
				{
					resource: 'email',
					operation: 'send',
					fromEmail: 'sender@sandbox.test',
					fromName: 'Sandbox Sender',
					to: 'Ann <ann@example.com>',
					subject: 'Hello "Ann"',
					content: 'htmlAndText',
					html: '<p>Привіт</p>',
					text: 'Hello',
				},
			],
			[
				'smtpUnsubscribeEmails',
				[[{ email: 'bob@example.com', comment: 'asked by phone' }]],
				email,
				{
					resource: 'unsubscribe',
					operation: 'add',
					emails: 'bob@example.com',
					comment: 'asked by phone',
				},
			],
		];
		for (const [name, args, node, parameters] of steps) {
			await callClient(name, ...args);
			expect(vendor.log.all().at(-1)).toMatchObject({ status: 200, accepted: expect.any(Object) });
			await runOnNodeSide(node, parameters);
			expect({ after: name, ...(await effects(vendor)) }).toEqual({
				after: name,
				...(await effects(nodeSide)),
			});
		}
		const final = (await effects(vendor)) as {
			sms: { campaigns: Array<{ phones: Array<{ phone: string }> }> };
			emails: unknown[];
			unsubscribes: unknown[];
		};
		expect(
			final.sms.campaigns.map((campaign) => campaign.phones.map((entry) => entry.phone)),
		).toEqual([['380986235698']]);
		expect(final.emails).toHaveLength(1);
		expect(final.unsubscribes).toHaveLength(1);
	});
});

test('every SMTP and SMS call of the client was driven, each request redirected to the sandbox', () => {
	const calls = Object.keys(vendorClient).filter((name) => /^(smtp|sms)[A-Z]/.test(name));
	expect(calls.length).toBe(25);
	expect([...driven].sort()).toEqual(calls.sort());
	expect(redirected.length).toBe(vendor.log.all().length - direct);
});

test('wrong client credentials: "Invalid credentials" from one exchange, no loop', async () => {
	const other = mkdtempSync(join(tmpdir(), 'vendor-client-'));
	try {
		// init keeps the token it already holds (module state), so the exchange is asked for explicitly.
		await new Promise((resolve) =>
			vendorClient.init(vendor.account.clientId, 'not-the-secret', other, resolve),
		);
		const seq = vendor.log.lastSeq();
		const answer = await new Promise((resolve) => vendorClient.getToken(resolve));
		expect(answer).toEqual({ is_error: 1, message: 'Invalid credentials' });
		expect(vendor.log.since(seq).map((entry) => `${entry.path} ${entry.status}`)).toEqual([
			'/oauth/access_token 401',
		]);
	} finally {
		rmSync(other, { recursive: true, force: true });
	}
});
