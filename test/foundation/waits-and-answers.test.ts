import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea } from '../../sandbox/email';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode } from '../harness/run-node';
import { probeArea } from './probe-area';

/**
 * Waits and answers, second hardening pass: a wait the service asks for (Retry-After) is waited with pacing off
 * too, and a list page that holds more than asked is cut to what was asked, without spreading it into a call (a
 * page of 135,000 records overflowed the stack). Real HTTP through the sandbox.
 */
const probe = new TransportProbe();
const email = new MessagingEmail();
let sandbox: Sandbox;
let store: CredentialStore;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [emailArea, probeArea],
		settings: { rateLimitPerSecond: 0 },
	});
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
});

const calls = () =>
	sandbox.log.apiCalls().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);

describe('Retry-After is waited with Max Requests per Second 0 (pacing off)', () => {
	test('told to wait 1 s twice: the repeats come 1 s apart, and the send goes through', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 429,
			times: 2,
			headers: { 'Retry-After': '1' },
			body: { message: 'Too many requests', error_code: 429 },
		});
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: {
				method: 'POST',
				path: '/probe/send',
				body: { text: 'a' },
				requestOptions: { requestsPerSecond: 0 },
			} as never,
		});
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-a' } }]);
		expect(calls()).toEqual([
			'POST /probe/send 429',
			'POST /probe/send 429',
			'POST /probe/send 200',
		]);
		const times = sandbox.log.apiCalls().map((entry) => entry.receivedAt);
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
		expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
	});

	test('the wait holds every item of the execution, not only the one told', async () => {
		sandbox.faults.add({
			path: '/probe/send',
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { message: 'Too many requests', error_code: 429 },
		});
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: {
				method: 'POST',
				path: '/probe/send',
				body: '={{ JSON.stringify({ text: $json.t }) }}',
				requestOptions: { requestsPerSecond: 0, maxConcurrency: 1 },
			} as never,
			items: [{ json: { t: 'a' } }, { json: { t: 'b' } }],
		});
		expect(result.error).toBeUndefined();
		const times = sandbox.log.apiCalls().map((entry) => entry.receivedAt);
		expect(calls()).toEqual([
			'POST /probe/send 429',
			'POST /probe/send 200',
			'POST /probe/send 200',
		]);
		expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
	});
});

describe('Email → Get Many: a page that holds more than asked', () => {
	const records = (count: number) =>
		Array.from({ length: count }, (_, index) => ({
			id: `id-${index}`,
			sender: 'sender@sandbox.test',
			total_size: 100,
		}));
	const getMany = async (parameters: Record<string, unknown>) =>
		await runNode({
			node: email,
			credentials: store,
			parameters: {
				resource: 'email',
				operation: 'getAll',
				requestOptions: { requestsPerSecond: 0 },
				...parameters,
			} as never,
		});

	test('Limit 10, the service answers 500 records: 10 items, one request', async () => {
		sandbox.faults.add({ path: '/smtp/emails', status: 200, body: records(500) });
		const result = await getMany({ returnAll: false, limit: 10 });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => item.id)).toEqual(records(10).map((record) => record.id));
		expect(sandbox.log.apiCalls().map((entry) => entry.rawQuery)).toEqual(['limit=10&offset=0']);
	});

	test('a page of 135,000 records: no stack overflow, Limit applied', async () => {
		sandbox.faults.add({ path: '/smtp/emails', status: 200, body: records(135_000) });
		const result = await getMany({ returnAll: false, limit: 50 });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((item) => item.id)).toEqual(records(50).map((record) => record.id));
	});

	test('Return All: each page keeps what was asked of it (100), the offsets follow', async () => {
		sandbox.faults.add({ path: '/smtp/emails', status: 200, body: records(135_000) });
		sandbox.faults.add({ path: '/smtp/emails', status: 200, body: records(30) });
		const result = await getMany({ returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(130);
		expect(sandbox.log.apiCalls().map((entry) => entry.rawQuery)).toEqual([
			'limit=100&offset=0',
			'limit=100&offset=100',
		]);
	});
});
