import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode } from '../harness/run-node';
import { probeArea } from './probe-area';
import { PACING } from '../../nodes/shared/transport/pacer';
import { describeThrown, toNodeApiError } from '../../nodes/shared/transport/errors';

const probe = new TransportProbe();
let sandbox: Sandbox;
let store: CredentialStore;

beforeAll(async () => {
	sandbox = await startSandbox({ areas: [probeArea], settings: { rateLimitPerSecond: 0 } });
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
	sandbox.account.settings.rateLimitPerSecond = 0;
});

const probeRun = (
	parameters: Record<string, unknown>,
	extra: { items?: Array<{ json: object }>; continueOnFail?: boolean } = {},
) =>
	runNode({
		node: probe,
		credentials: store,
		parameters: parameters as never,
		...(extra as object),
	});

const calls = () =>
	sandbox.log.apiCalls().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

describe('rate limits', () => {
	test('429 with Retry-After: waits that long and repeats, even a send', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { message: 'Too many requests', error_code: 429 },
		});
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'a' } });
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-a' } }]);
		expect(calls()).toEqual(['POST /probe/send 429', 'POST /probe/send 200']);
		const [first, second] = sandbox.log.apiCalls();
		expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(950);
	});

	test("rate-limit code 2020202020 sent with HTTP 200 and no Retry-After: repeated at the pacer's next start, not after a sleep of its own", async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 200,
			times: 2,
			body: { is_error: true, message: 'More than 10 requests per second', error_code: 2020202020 },
		});
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'b' } });
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-b' } }]);
		expect(calls()).toEqual([
			'POST /probe/send 200',
			'POST /probe/send 200',
			'POST /probe/send 200',
		]);
		const [first, second, third] = sandbox.log.apiCalls();
		// The pacer's spacing (1.02 s / 10); the old client slept 0.5–1 s, then 1–2 s, in the request's own lane.
		expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(80);
		expect(third.receivedAt - second.receivedAt).toBeGreaterThanOrEqual(80);
	});

	test('rate-limit answers do not count against the budget while the pacer can still slow down: 13 in a row, delivered at the 14th', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 429,
			times: 13,
			body: { message: 'More than 10 requests per second', error_code: 2020202020 },
		});
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'c' } });
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-c' } }]);
		expect(calls()).toEqual([...Array(13).fill('POST /probe/send 429'), 'POST /probe/send 200']);
		const times = sandbox.log.apiCalls().map((entry) => entry.receivedAt);
		const gaps = times.slice(1).map((time, index) => time - times[index]);
		// Each answer cuts the pacer's credit by a fifth: above one start per window the spacing stays 1.02 s / 10,
		// below it the spacing is window / credit (the last three: ~1.2 s, ~1.5 s, ~1.9 s).
		expect(gaps.slice(0, 10).every((gap) => gap >= 80 && gap < 900)).toBe(true);
		expect(gaps[10]).toBeGreaterThanOrEqual(1100);
		expect(gaps[12]).toBeGreaterThan(gaps[10]);
		expect(gaps[12]).toBeGreaterThanOrEqual(1750);
	});

	test('once the pacer can go no slower, each rate-limit answer counts: the request fails after 12 of them', async () => {
		// The slowest pace made fast for the test (one start per 200 ms: a credit of 5.1 per 1.02 s window), so the
		// pacer gets there after four cuts (10 → 8 → 6.4 → 5.12 → 5.1) instead of about a minute.
		const slowest = PACING.slowestSpacingMs;
		PACING.slowestSpacingMs = 200;
		try {
			sandbox.faults.add({
				path: '/probe/send',
				status: 429,
				times: 20,
				body: { message: 'More than 10 requests per second', error_code: 2020202020 },
			});
			const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'e' } });
			expect(result.error?.message).toBe(
				'More than 10 requests per second (error code 2020202020)',
			);
			expect(result.error?.description).toBe('Still rate-limited after 16 attempts');
			expect(calls()).toEqual(Array(16).fill('POST /probe/send 429'));
		} finally {
			PACING.slowestSpacingMs = slowest;
		}
	});

	test('without pacing (0 requests per second) a rate-limited request backs off on its own and repeats', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 200,
			times: 2,
			body: { is_error: true, message: 'More than 10 requests per second', error_code: 2020202020 },
		});
		const result = await probeRun({
			method: 'POST',
			path: '/probe/send',
			body: { text: 'd' },
			requestOptions: { requestsPerSecond: 0 },
		});
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-d' } }]);
		expect(calls()).toHaveLength(3);
		const [first, second, third] = sandbox.log.apiCalls();
		// Backoff: the first wait is 0.5–1 s, the second 1–2 s.
		expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(450);
		expect(third.receivedAt - second.receivedAt).toBeGreaterThanOrEqual(950);
	});

	test('answers with Retry-After count: gives up after bounded attempts with a clear error', async () => {
		sandbox.faults.add({
			path: '/probe/records',
			status: 429,
			times: 20,
			headers: { 'Retry-After': '0' },
			body: { message: 'More than 10 requests per second', error_code: 2020202020 },
		});
		const result = await probeRun({ method: 'GET', path: '/probe/records' });
		expect(result.error?.message).toBe('More than 10 requests per second (error code 2020202020)');
		expect(result.error?.description).toBe('Still rate-limited after 12 attempts');
		expect(calls()).toHaveLength(12);
	});

	test("against the sandbox's 10/s limit, 30 paced items are each delivered exactly once", async () => {
		sandbox.account.settings.rateLimitPerSecond = 10;
		const items = Array.from({ length: 30 }, (_, index) => ({ json: { text: `m${index}` } }));
		const result = await probeRun(
			{ method: 'POST', path: '/probe/send', body: '={{ { "text": $json.text } }}' },
			{ items },
		);
		expect(jsonOf(result).map((json) => (json.response as { id: string }).id)).toEqual(
			items.map((item) => `sent-${item.json.text}`),
		);
		const delivered = sandbox.log.apiCalls().filter((entry) => entry.status === 200);
		expect(delivered.map((entry) => (entry.body as { text: string }).text).sort()).toEqual(
			items.map((item) => item.json.text).sort(),
		);
	});
});

describe('server errors and network failures', () => {
	test('a GET is retried after a 5xx and after a dropped connection', async () => {
		sandbox.faults.add({
			path: '/probe/records',
			status: 503,
			body: { message: 'Service unavailable', error_code: 503 },
		});
		sandbox.faults.add({ path: '/probe/records', drop: true });
		const result = await probeRun({ method: 'GET', path: '/probe/records', query: { limit: 2 } });
		expect(jsonOf(result)).toEqual([{ response: [{ id: '1' }, { id: '2' }] as never }]);
		expect(calls()).toEqual([
			'GET /probe/records 503',
			'GET /probe/records 0',
			'GET /probe/records 200',
		]);
	});

	test('a POST send is never repeated after a 5xx: that could deliver twice', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 502,
			body: { message: 'Bad gateway', error_code: 502 },
		});
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'once' } });
		expect(result.error?.message).toBe('Bad gateway (error code 502)');
		expect(result.error?.description).toMatch(
			/^POST \/probe\/send was not retried: the service may have processed it/,
		);
		expect(calls()).toEqual(['POST /probe/send 502']);
	});

	test('a POST send is never repeated after a dropped connection', async () => {
		sandbox.faults.add({ path: '/probe/send', drop: true });
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'once' } });
		// n8n's own wording for a connection reset; ours explains why it was not repeated.
		expect(result.error?.message).toBe(
			'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
		);
		expect(result.error?.description).toMatch(
			/^POST \/probe\/send was not retried: the service may have processed it/,
		);
		expect(calls()).toEqual(['POST /probe/send 0']);
	});
});

describe('service errors', () => {
	test.each([
		[
			{ is_error: true, message: 'Sender is not valid', error_code: 422 },
			'Sender is not valid (error code 422)',
		],
		[
			{ result: false, message: 'Campaign not found', error_code: 404 },
			'Campaign not found (error code 404)',
		],
		[{ success: false, message: 'Not allowed', error_code: 403 }, 'Not allowed (error code 403)'],
		[{ data: { result: false, error: 'domain exists' } }, 'domain exists'],
		[
			[{ result: false, message: 'Wrapped failure', error_code: 7 }],
			'Wrapped failure (error code 7)',
		],
	])('a failure sent with HTTP 200 is an error: %j', async (body, message) => {
		sandbox.faults.add({ path: '/probe/records', status: 200, body });
		const result = await probeRun({ method: 'GET', path: '/probe/records' });
		expect(result.error?.message).toBe(message);
		expect(calls()).toEqual(['GET /probe/records 200']);
	});

	test('`result:false` is data where the operation says so', async () => {
		sandbox.faults.add({ path: '/probe/records', status: 200, body: { result: false } });
		const result = await probeRun({
			method: 'GET',
			path: '/probe/records',
			resultFalseIsAnswer: true,
		});
		expect(jsonOf(result)).toEqual([{ response: { result: false } }]);
	});

	test('a 4xx carries the service message, its code, the HTTP status and the item', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 422,
			body: { message: 'Argument subject missing', error_code: 12 },
		});
		const result = await probeRun({ method: 'POST', path: '/probe/send', body: { text: 'x' } });
		expect(result.error?.message).toBe('Argument subject missing (error code 12)');
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.context).toMatchObject({ itemIndex: 0, serviceErrorCode: 12 });
	});

	test('with Continue On Fail, a failed item becomes an error item and the others go on', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 422,
			body: { message: 'Message size limit exceeded', error_code: 422 },
		});
		const result = await probeRun(
			{
				method: 'POST',
				path: '/probe/send',
				body: '={{ { "text": $json.text } }}',
				requestOptions: { maxConcurrency: 1 },
			},
			{ items: [{ json: { text: 'a' } }, { json: { text: 'b' } }], continueOnFail: true },
		);
		expect(result.items.map((item) => [item.json, item.pairedItem])).toEqual([
			[
				{ error: 'Message size limit exceeded (error code 422)', httpCode: '422', errorCode: 422 },
				{ item: 0 },
			],
			[{ response: { result: true, id: 'sent-b' } }, { item: 1 }],
		]);
	});
});

test('n8n 1.x: the error n8n throws keeps no cause, only the answer in context.data: the service message is read from there', () => {
	// What n8n 1.123.81 throws for a 422 (n8n-workflow's ExecutionBaseError re-declares `cause`, so the request's error
	// is gone; NodeApiError keeps the answer's JSON object in context.data).
	const thrownBy1x = Object.assign(new Error('Request failed with status code 422'), {
		httpCode: '422',
		context: { data: { message: 'Mailbox busy', error_code: 422 } },
	});
	const failure = describeThrown(thrownBy1x);
	expect(failure).toEqual({ status: 422, body: { message: 'Mailbox busy', error_code: 422 } });
	expect(
		toNodeApiError(
			{ id: 'p', name: 'Probe', type: 'probe', typeVersion: 1, position: [0, 0], parameters: {} },
			failure,
			{ secrets: [] },
		).message,
	).toBe('Mailbox busy (error code 422)');
	// Nothing kept: the status alone, as before.
	expect(describeThrown(Object.assign(new Error('x'), { httpCode: '502' }))).toEqual({
		status: 502,
	});
});

describe('shapes and encoding', () => {
	test('path segments are encoded: a + in a phone number survives', async () => {
		const result = await probeRun({ method: 'GET', path: '/probe/phones/%2B380%20(98)%2F1' });
		expect(sandbox.log.apiCalls()[0].path).toBe('/probe/phones/%2B380%20(98)%2F1');
		expect(jsonOf(result)).toEqual([
			{ response: { result: true, phone: '+380 (98)/1', query: {} } },
		]);
	});

	test('array and object query parameters go as JSON strings', async () => {
		await probeRun({
			method: 'GET',
			path: '/probe/phones/1',
			query: { phones: ['380931234567', '380931234568'], route: { UA: 'national' } },
		});
		const [call] = sandbox.log.apiCalls();
		expect(decodeURIComponent(call.rawQuery)).toBe(
			'phones=["380931234567","380931234568"]&route={"UA":"national"}',
		);
		expect(call.query).toEqual({
			phones: ['380931234567', '380931234568'],
			route: { UA: 'national' },
		});
	});

	test('one-element arrays are unwrapped only where asked', async () => {
		const unwrapped = await probeRun({ method: 'GET', path: '/probe/single', unwrapSingle: true });
		expect(jsonOf(unwrapped)).toEqual([{ response: { result: true, data: { id: 7 } } }]);
		const list = await probeRun({ method: 'GET', path: '/probe/list-of-one' });
		expect(jsonOf(list)).toEqual([{ response: [{ id: 'only' }] as never }]);
	});
});

describe('pagination', () => {
	test('Return All walks 1,234 records in pages and stops on the short page', async () => {
		const result = await probeRun({
			method: 'GET',
			path: '/probe/records',
			paginate: { returnAll: true, pageSize: 100 },
		});
		expect(jsonOf(result).map((json) => json.id)).toEqual(
			Array.from({ length: 1234 }, (_, index) => String(index + 1)),
		);
		const queries = sandbox.log.apiCalls().map((entry) => entry.rawQuery);
		expect(queries).toHaveLength(13);
		expect(queries[0]).toBe('limit=100&offset=0');
		expect(queries[12]).toBe('limit=100&offset=1200');
	});

	test('Limit asks only for what it needs', async () => {
		const result = await probeRun({
			method: 'GET',
			path: '/probe/records',
			paginate: { returnAll: false, limit: 150, pageSize: 100 },
		});
		expect(jsonOf(result)).toHaveLength(150);
		expect(sandbox.log.apiCalls().map((entry) => entry.rawQuery)).toEqual([
			'limit=100&offset=0',
			'limit=50&offset=100',
		]);
	});
});
