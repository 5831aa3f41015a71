import type { INodeParameters, INodeType } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea } from '../../sandbox/email';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { runNode } from '../harness/run-node';
import { probeArea } from './probe-area';
import { sendParameters } from '../harness/send-parameters';

/**
 * Answers that are not what they seem (issue 10): a 2xx that is not the service's JSON, a JSON answer without the
 * list a list operation reads, and redirects. Each is an error with the status, the content type and the first
 * bytes; never an empty list, never a success after a send. Real operations through n8n-core, real HTTP.
 */
const email = new MessagingEmail();
const sms = new MessagingSms();
const probe = new TransportProbe();
let sandbox: Sandbox;
let store: CredentialStore;

const LOGIN_PAGE =
	'<!DOCTYPE html>\n<html><head><title>Sign in - Corporate Proxy</title></head>\n<body>Please sign in</body></html>';

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [emailArea, smsArea, probeArea],
		settings: { rateLimitPerSecond: 0 },
	});
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
});

const run = async (node: INodeType, parameters: INodeParameters) =>
	await runNode({
		node,
		credentials: store,
		parameters: { requestOptions: { requestsPerSecond: 0 }, ...parameters },
	});

const calls = () =>
	sandbox.log.apiCalls().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

const html = (path: string, method?: string) =>
	sandbox.faults.add({
		method,
		path,
		status: 200,
		rawBody: LOGIN_PAGE,
		headers: { 'Content-Type': 'text/html; charset=utf-8' },
	});

describe('list operations: an unreadable answer is an error, never an empty list', () => {
	test('Email → Get Many answered by an HTML login page', async () => {
		html('/smtp/emails');
		const result = await run(email, { resource: 'email', operation: 'getAll', returnAll: true });
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, text/html; charset=utf-8): "<!DOCTYPE html> <html><head><title>Sign in - Corporate Proxy</title></head> <body>Please sign in</body></html>"`,
		);
		expect(result.error?.description).toBe(
			'Something other than the service may be answering (a proxy, a login page): check the Base URL of the credential',
		);
		expect(result.error?.httpCode).toBe('200');
		// Not repeated: the same page would come back.
		expect(calls()).toEqual(['GET /smtp/emails 200']);
	});

	test('Unsubscribe → Get Many answered by truncated JSON', async () => {
		sandbox.faults.add({
			path: '/smtp/unsubscribe',
			status: 200,
			rawBody: '[{"email":"ann@example.com","unsubscribe_by_link":1},{"email":"bo',
			headers: { 'Content-Type': 'application/json' },
		});
		const result = await run(email, { resource: 'unsubscribe', operation: 'getAll', limit: 10 });
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, application/json): "[{\\"email\\":\\"ann@example.com\\",\\"unsubscribe_by_link\\":1},{\\"email\\":\\"bo"`,
		);
		expect(result.items).toEqual([]);
	});

	test('Bounce → Get Many answered by JSON that holds no list (the extractor says "not a list")', async () => {
		sandbox.faults.add({
			path: '/smtp/bounces/day',
			status: 200,
			body: { total: 3, request_limit: 100 },
		});
		const result = await run(email, { resource: 'bounce', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(
			'The answer to GET /smtp/bounces/day holds no list of records: "{\\"total\\":3,\\"request_limit\\":100}"',
		);
		expect(result.items).toEqual([]);
		expect(calls()).toEqual(['GET /smtp/bounces/day 200']);
	});

	test('Return All: a page of another shape is an error, not the end of the list', async () => {
		sandbox.faults.add({ path: '/probe/records', status: 200, body: { records: [] } });
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: {
				method: 'GET',
				path: '/probe/records',
				paginate: { returnAll: true, pageSize: 100 },
			} as never,
		});
		expect(result.error?.message).toBe(
			'The answer to GET /probe/records holds no list of records: "{\\"records\\":[]}"',
		);
	});

	test('SMS Sender ID → Get Many (not paginated) answered by plain text', async () => {
		sandbox.faults.add({
			path: '/sms/senders',
			status: 200,
			rawBody: 'Service Temporarily Unavailable',
		});
		const result = await run(sms, { resource: 'senderId', operation: 'getAll' });
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, text/plain): "Service Temporarily Unavailable"`,
		);
		expect(result.items).toEqual([]);
	});

	test.each([
		[
			{ resource: 'sendingIp', operation: 'getAll' },
			'/smtp/ips',
			{ result: true },
			'The answer to GET /smtp/ips holds no list of records: "{\\"result\\":true}"',
		],
		[
			{ resource: 'senderAddress', operation: 'getAll' },
			'/smtp/senders',
			{ senders: 'none' },
			'The answer to GET /smtp/senders holds no list of records: "{\\"senders\\":\\"none\\"}"',
		],
		[
			// The service answers a bare array of records; Get Many reads it as the polling trigger does.
			{ resource: 'unsubscribe', operation: 'getAll', limit: 10 },
			'/smtp/unsubscribe',
			['ann@example.com'],
			'The answer to GET /smtp/unsubscribe holds no list of records: "[\\"ann@example.com\\"]"',
		],
		[
			{ resource: 'sendingDomain', operation: 'getAll' },
			'/v2/email-service/smtp/sender_domains',
			{ data: { result: true } },
			'The answer to GET /v2/email-service/smtp/sender_domains holds no list of records: "{\\"data\\":{\\"result\\":true}}"',
		],
	])(
		'%j answered by JSON without its list: an error, not an empty list',
		async (operation, path, body, message) => {
			sandbox.faults.add({ path, status: 200, body });
			const result = await run(email, operation);
			expect(result.error?.message).toBe(message);
			expect(result.items).toEqual([]);
		},
	);

	test.each([
		[
			{ resource: 'campaign', operation: 'getAll', returnAll: true },
			'/sms/campaigns/list',
			{ result: true, data: null },
			'The answer to GET /sms/campaigns/list holds no list of records: "{\\"result\\":true,\\"data\\":null}"',
		],
		[
			{ resource: 'senderId', operation: 'getAll' },
			'/sms/senders',
			{ result: true, data: ['MyShop'] },
			'The answer to GET /sms/senders holds no list of records: "{\\"result\\":true,\\"data\\":[\\"MyShop\\"]}"',
		],
		[
			{ resource: 'blacklist', operation: 'getAll', returnAll: true },
			'/sms/black_list',
			{ result: true },
			'The answer to GET /sms/black_list holds no list of records: "{\\"result\\":true}"',
		],
		[
			// Read as "none found", this answer would report a blacklisted number as not blacklisted.
			{ resource: 'blacklist', operation: 'check', phones: '380931234567' },
			'/sms/black_list/by_numbers',
			{ result: true, data: 'unavailable' },
			'The answer to GET /sms/black_list/by_numbers holds no list of records: "{\\"result\\":true,\\"data\\":\\"unavailable\\"}"',
		],
	])(
		'SMS %j answered by JSON without its list: an error, not an empty list',
		async (operation, path, body, message) => {
			sandbox.faults.add({ path, status: 200, body });
			const result = await run(sms, operation);
			expect(result.error?.message).toBe(message);
			expect(result.items).toEqual([]);
		},
	);

	test.each([
		[
			'Email → Get Count',
			email,
			{ resource: 'email', operation: 'getCount' },
			'/smtp/emails/total',
			{ result: true },
			'The answer to GET /smtp/emails/total holds no count: "{\\"result\\":true}"',
		],
		[
			// A count of -1 or "n/a" would be output as a number a workflow compares with.
			'Bounce → Get Count',
			email,
			{ resource: 'bounce', operation: 'getCount' },
			'/smtp/bounces/day/total',
			{ total: 'n/a' },
			'The answer to GET /smtp/bounces/day/total holds no count: "{\\"total\\":\\"n/a\\"}"',
		],
		[
			// Read as false, this answer would report an unsubscribed address as subscribed.
			'Unsubscribe → Check',
			email,
			{ resource: 'unsubscribe', operation: 'check', email: 'a@example.com' },
			'/smtp/unsubscribe/search',
			{ found: 1 },
			'The answer to GET /smtp/unsubscribe/search holds no result (true or false): "{\\"found\\":1}"',
		],
		[
			'Campaign → Get Cost',
			sms,
			{
				resource: 'campaign',
				operation: 'getCost',
				sender: 'Sandbox',
				body: 'Hi',
				phones: '380986235698',
			},
			'/sms/campaigns/cost',
			{ result: true, data: { price: ' ', currency: 'USD' } },
			'The answer to GET /sms/campaigns/cost holds no price: "{\\"result\\":true,\\"data\\":{\\"price\\":\\" \\",\\"currency\\":\\"USD\\"}}"',
		],
		[
			// Read as an empty contact, this answer would look like a phone in the list with no data.
			'Phone Number → Get',
			sms,
			{ resource: 'phoneNumber', operation: 'get', addressBookId: '21', phone: '380986235698' },
			'/sms/numbers/info/21/380986235698',
			[{ result: true }],
			'The answer to GET /sms/numbers/info/21/380986235698 holds no contact: "{\\"result\\":true}"',
		],
		[
			// Read as a campaign without phones, this answer would hide every delivery status.
			'Campaign → Get',
			sms,
			{ resource: 'campaign', operation: 'get', campaignId: '77' },
			'/sms/campaigns/info/77',
			[{ result: true, data: { id: 77 } }],
			'The answer to GET /sms/campaigns/info/77 holds no campaign with its phones: "{\\"result\\":true,\\"data\\":{\\"id\\":77}}"',
		],
	])(
		'%s: a count, price, yes/no, contact or campaign missing from the answer is an error, never NaN or a default',
		async (_label, node, operation, path, body, message) => {
			sandbox.faults.add({ path, status: 200, body });
			const result = await run(node, operation);
			expect(result.error?.message).toBe(message);
			expect(result.items).toEqual([]);
			expect(calls()).toEqual([`GET ${path} 200`]);
		},
	);

	test('numbers the service sends as text are read as numbers, the same way in every output', async () => {
		sandbox.faults.add({ path: '/smtp/emails/total', status: 200, body: { total: ' 42 ' } });
		sandbox.faults.add({
			path: '/sms/campaigns/cost',
			status: 200,
			body: { result: true, data: { price: '0.35', currency: 'EUR' } },
		});
		const count = await run(email, { resource: 'email', operation: 'getCount' });
		const cost = await run(sms, {
			resource: 'campaign',
			operation: 'getCost',
			sender: 'Sandbox',
			body: 'Hi',
			addressBookId: '21',
		});
		expect(count.items.map((item) => item.json)).toEqual([{ total: 42 }]);
		expect(cost.items.map((item) => item.json)).toEqual([
			{ price: 0.35, currency: 'EUR', addressBookId: '21' },
		]);
	});

	test('an empty 200 body is unreadable too', async () => {
		sandbox.faults.add({ path: '/smtp/emails', status: 200, rawBody: '' });
		const result = await run(email, { resource: 'email', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, text/plain): (empty body)`,
		);
	});
});

describe('sends: an unreadable answer may mean "sent", so it is an error that says so, never repeated', () => {
	test('Email → Send answered by truncated JSON', async () => {
		sandbox.faults.add({
			method: 'POST',
			path: '/smtp/emails',
			status: 200,
			rawBody: '{"result":true,"id":"00ab',
			headers: { 'Content-Type': 'application/json' },
		});
		const result = await run(email, sendParameters());
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, application/json): "{\\"result\\":true,\\"id\\":\\"00ab"`,
		);
		expect(result.error?.description).toBe(
			'POST /smtp/emails may have been processed (the message may have been sent), but its answer cannot be read. Do not repeat it blindly: check what was sent first',
		);
		expect(calls().filter((call) => call.startsWith('POST'))).toEqual(['POST /smtp/emails 200']);
	});

	test('SMS Campaign → Send to Numbers answered by an HTML page: no output made of characters', async () => {
		html('/sms/send', 'POST');
		const result = await run(sms, {
			resource: 'campaign',
			operation: 'sendToNumbers',
			sender: 'Sandbox',
			body: 'Hello',
			phones: '380931234567',
		});
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(
			/^The answer is not the service's JSON \(HTTP 200, text\/html; charset=utf-8\): "<!DOCTYPE html>/,
		);
		expect(result.error?.description).toMatch(
			/^POST \/sms\/send may have been processed \(the message may have been sent\).*Do not repeat it blindly/,
		);
		expect(calls()).toEqual(['POST /sms/send 200']);
	});

	test('credentials echoed by a proxy page are masked in the error', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 200,
			rawBody: `<pre>Authorization: Bearer ${sandbox.account.apiKey}\nkey=${sandbox.account.apiKey}</pre>`,
			headers: { 'Content-Type': 'text/html' },
		});
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: { method: 'POST', path: '/probe/send', body: { text: 'x' } } as never,
		});
		expect(result.error?.message).toBe(
			`The answer is not the service's JSON (HTTP 200, text/html): "<pre>Authorization: Bearer *** key=***</pre>"`,
		);
		expect(JSON.stringify(result.run) + String(result.error?.stack)).not.toContain(
			sandbox.account.apiKey.slice(10),
		);
	});
});

describe('redirects: the service never sends one, so one is a clear error and is not followed', () => {
	test('a GET redirected elsewhere: error naming the target (without its query), target not requested', async () => {
		sandbox.faults.add({
			path: '/smtp/emails',
			status: 302,
			headers: { Location: `${sandbox.url}/probe/records?session=abc123` },
			body: {},
		});
		const result = await run(email, { resource: 'email', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(
			`The service answered with a redirect (HTTP 302 to ${sandbox.url}/probe/records), which it never does`,
		);
		expect(result.error?.description).toMatch(/^Redirects are not followed\. Check the Base URL/);
		expect(calls()).toEqual(['GET /smtp/emails 302']);
	});

	test('a send answered 307: not followed, not repeated', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 307,
			headers: { Location: `${sandbox.url}/probe/send` },
			body: {},
		});
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: { method: 'POST', path: '/probe/send', body: { text: 'x' } } as never,
		});
		expect(result.error?.message).toBe(
			`The service answered with a redirect (HTTP 307 to ${sandbox.url}/probe/send), which it never does`,
		);
		expect(calls()).toEqual(['POST /probe/send 307']);
	});
});
