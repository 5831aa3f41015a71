/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';
import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';

import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials';
import { REUSE_FOR_MS, forgetIssuedTokens } from '../../nodes/shared/transport/token';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, runCredentialTest, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode, type InputItem } from '../harness/run-node';
import { probeArea } from './probe-area';

/**
 * The token exchange (POST /oauth/access_token) as a transport step: a dropped connection or a 5xx there is a
 * network/server failure (retried; nothing was sent), not "the service rejected the credential"; concurrent
 * requests that find no token share one exchange, and later ones still holding no token or the replaced one
 * get the new token (one exchange per process per expiry); and the credential test judges exactly the values
 * typed.
 */
const probe = new TransportProbe();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [probeArea, smsArea],
		settings: { rateLimitPerSecond: 0 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
	forgetIssuedTokens();
});

const freshStore = () => new CredentialStore(sandboxCredentials(sandbox));
const log = () => sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
const exchanges = () => sandbox.log.all().filter((entry) => entry.path === '/oauth/access_token');

const probeRun = async (
	store: CredentialStore,
	parameters: Record<string, unknown>,
	items?: InputItem[],
) => await runNode({ node: probe, credentials: store, parameters: parameters as never, items });

const READ = { method: 'GET', path: '/probe/records', query: { limit: 1 } };
const SEND = { method: 'POST', path: '/probe/send', body: { text: 'hi' } };

describe('a token endpoint that fails is a network or server failure, not a refusal', () => {
	test('dropped once before a read: retried, then the read goes through', async () => {
		sandbox.faults.add({ path: '/oauth/access_token', drop: true });
		const result = await probeRun(freshStore(), READ);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ response: [{ id: '1' }] as never }]);
		expect(log()).toEqual([
			'POST /oauth/access_token 0',
			'POST /oauth/access_token 200',
			'GET /probe/records 200',
		]);
	});

	test('dropped every time: a network error after 3 attempts, with no word of a rejected credential', async () => {
		sandbox.faults.add({ path: '/oauth/access_token', drop: true, times: 10 });
		const result = await probeRun(freshStore(), READ);
		// n8n's own wording for a connection reset (it rewords any message naming the code); ours says where.
		expect(result.error?.message).toBe(
			'The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
		);
		expect(result.error?.message).not.toMatch(/reject|credential/i);
		expect(result.error?.description).toBe(
			'Nothing was sent: GET /probe/records waits for the token exchange, which failed (3 attempts)',
		);
		expect(result.error?.httpCode).toBe('ECONNRESET');
		expect(log()).toEqual(Array(3).fill('POST /oauth/access_token 0'));
	});

	test('502 before a send: nothing was sent, so the send may go once the exchange works', async () => {
		sandbox.faults.add({
			path: '/oauth/access_token',
			status: 502,
			rawBody: '<html><body><h1>502 Bad Gateway</h1></body></html>',
			headers: { 'Content-Type': 'text/html' },
		});
		const result = await probeRun(freshStore(), SEND);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-hi' } }]);
		expect(log()).toEqual([
			'POST /oauth/access_token 502',
			'POST /oauth/access_token 200',
			'POST /probe/send 200',
		]);
	});

	test('502 every time before a send: says nothing was sent, never "may have processed it"', async () => {
		sandbox.faults.add({
			path: '/oauth/access_token',
			status: 502,
			body: { message: 'Bad gateway', error_code: 502 },
			times: 10,
		});
		const result = await probeRun(freshStore(), SEND);
		expect(result.error?.message).toBe('Token exchange failed: Bad gateway (error code 502)');
		expect(result.error?.description).toBe(
			'Nothing was sent: POST /probe/send waits for the token exchange, which failed (3 attempts)',
		);
		expect(result.error?.description).not.toMatch(/may have processed/);
		expect(log()).toEqual(Array(3).fill('POST /oauth/access_token 502'));
	});

	test('a token endpoint answering HTML with 200: named as such, not a refusal', async () => {
		sandbox.faults.add({
			path: '/oauth/access_token',
			status: 200,
			rawBody: '<html>Login</html>',
			headers: { 'Content-Type': 'text/html' },
		});
		const result = await probeRun(freshStore(), READ);
		expect(result.error?.message).toBe(
			'Token exchange failed: the answer is not JSON (HTTP 200, text/html): "<html>Login</html>"',
		);
		expect(result.error?.description).toBe(
			'Nothing was sent: GET /probe/records waits for the token exchange, which failed',
		);
	});

	test('a real refusal (wrong secret) is still one request and says so', async () => {
		const store = new CredentialStore({ ...sandboxCredentials(sandbox), clientSecret: 'wrong' });
		const result = await probeRun(store, SEND);
		expect(result.error?.message).toBe(
			'Token exchange failed: Client authentication failed. (error code 1)',
		);
		expect(result.error?.description).toBe(
			'The service refused the credential: open the Messaging credential and copy Client ID and Client Secret again from SendPulse (Account Settings → API), or switch Authentication to API Key and paste a key created there',
		);
		expect(log()).toEqual(['POST /oauth/access_token 401']);
	});
});

describe('one token exchange per credential, however many requests start at once', () => {
	test('5 items of one execution on a cold credential: exactly 1 exchange', async () => {
		// A slow token endpoint, so every item's request starts while the first exchange is in flight.
		sandbox.faults.add({ path: '/oauth/access_token', delayMs: 600, times: 10 });
		const store = freshStore();
		const items = ['a', 'b', 'c', 'd', 'e'].map((text) => ({ json: { text } }));
		const result = await probeRun(
			store,
			{ ...SEND, body: '={{ { "text": $json.text } }}', requestOptions: { requestsPerSecond: 0 } },
			items,
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((json) => (json.response as { id: string }).id)).toEqual([
			'sent-a',
			'sent-b',
			'sent-c',
			'sent-d',
			'sent-e',
		]);
		expect(exchanges()).toHaveLength(1);
		const sends = sandbox.log.all().filter((entry) => entry.path === '/probe/send');
		expect(sends.map((entry) => [entry.status, entry.auth])).toEqual(Array(5).fill([200, 'token']));
		// Every send carried the one token issued.
		expect(sandbox.account.tokensIssued).toBeGreaterThan(0);
	});

	test("3 callers of the credential's preAuthentication at once (as from concurrent executions): 1 exchange, 1 token", async () => {
		// The harness runs executions one at a time, so this calls the credential as n8n's credentials helper does,
		// with n8n's own outbound HTTP client as the helper.
		sandbox.faults.add({ path: '/oauth/access_token', delayMs: 300, times: 10 });
		const helper = {
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) =>
					await Container.get(OutboundHttp).requests().request(options),
			},
		} as unknown as IHttpRequestHelper;
		const credential = new MessagingServiceApi();
		const tokens = await Promise.all(
			[1, 2, 3].map(
				async () =>
					(await credential.preAuthentication.call(helper, sandboxCredentials(sandbox))) as {
						accessToken: string;
					},
			),
		);
		expect(new Set(tokens.map((token) => token.accessToken)).size).toBe(1);
		expect(exchanges()).toHaveLength(1);
		const [issued] = tokens.map((token) => token.accessToken);
		// Later, an execution that loaded the credential before n8n stored the token (it holds none): the same
		// token, no exchange.
		const late = (await credential.preAuthentication.call(helper, sandboxCredentials(sandbox))) as {
			accessToken: string;
		};
		expect(late.accessToken).toBe(issued);
		expect(exchanges()).toHaveLength(1);
		// The issued token is rejected (expired): whoever holds it gets a new one, by one exchange for all.
		const refreshed = (await Promise.all(
			[1, 2].map(
				async () =>
					await credential.preAuthentication.call(helper, {
						...sandboxCredentials(sandbox),
						accessToken: issued,
					}),
			),
		)) as Array<{ accessToken: string }>;
		expect(new Set(refreshed.map((token) => token.accessToken)).size).toBe(1);
		expect(refreshed[0].accessToken).not.toBe(issued);
		expect(exchanges()).toHaveLength(2);
		// An execution still holding the expired token after the refresh settled: the new token, no exchange.
		const stale = (await credential.preAuthentication.call(helper, {
			...sandboxCredentials(sandbox),
			accessToken: issued,
		})) as { accessToken: string };
		expect(stale.accessToken).toBe(refreshed[0].accessToken);
		expect(exchanges()).toHaveLength(2);
		// A token this process never had (another worker's, stored meanwhile) is rejected: one exchange; then an
		// execution still holding this process's previous token gets the new one too (both are older).
		const foreign = (await credential.preAuthentication.call(helper, {
			...sandboxCredentials(sandbox),
			accessToken: 'another-workers-token',
		})) as { accessToken: string };
		expect(exchanges()).toHaveLength(3);
		for (const older of [refreshed[0].accessToken, issued, 'another-workers-token', '']) {
			const given = (await credential.preAuthentication.call(helper, {
				...sandboxCredentials(sandbox),
				accessToken: older,
			})) as { accessToken: string };
			expect([older, given.accessToken]).toEqual([older, foreign.accessToken]);
		}
		expect(exchanges()).toHaveLength(3);
		// After the reuse window (tokens live an hour), a cold start exchanges again.
		const realNow = Date.now;
		try {
			Date.now = () => realNow() + REUSE_FOR_MS;
			await credential.preAuthentication.call(helper, {
				...sandboxCredentials(sandbox),
				accessToken: issued,
			});
		} finally {
			Date.now = realNow;
		}
		expect(exchanges()).toHaveLength(4);
	});

	test('a different secret never joins an exchange in flight', async () => {
		sandbox.faults.add({ path: '/oauth/access_token', delayMs: 300, times: 10 });
		const helper = {
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) =>
					await Container.get(OutboundHttp).requests().request(options),
			},
		} as unknown as IHttpRequestHelper;
		const credential = new MessagingServiceApi();
		const [good, bad] = await Promise.allSettled([
			credential.preAuthentication.call(helper, sandboxCredentials(sandbox)),
			credential.preAuthentication.call(helper, {
				...sandboxCredentials(sandbox),
				clientSecret: 'other',
			}),
		]);
		expect(good.status).toBe('fulfilled');
		expect(bad).toMatchObject({
			status: 'rejected',
			reason: { message: 'Token exchange failed: Client authentication failed.' },
		});
		expect(
			exchanges()
				.map((entry) => entry.status)
				.sort(),
		).toEqual([200, 401]);
	});
});

describe('the credential test (methods.credentialTest of both action nodes) judges the values typed', () => {
	test('right pair passes, wrong secret fails with the service message, right again passes: each a fresh exchange', async () => {
		const right = sandboxCredentials(sandbox);
		const test = runCredentialTest;
		// A token stored from earlier values is never what is judged.
		const stale = { accessToken: 'a-token-obtained-with-the-old-secret' };
		expect(await test({ ...right, ...stale })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(await test({ ...right, ...stale, clientSecret: 'wrong-secret' })).toEqual({
			status: 'Error',
			message: 'Token exchange failed: Client authentication failed.',
		});
		expect(await test({ ...right, clientId: 'someone-else' })).toEqual({
			status: 'Error',
			message: 'Token exchange failed: Client authentication failed.',
		});
		expect(await test({ ...right, ...stale })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(log()).toEqual([
			'POST /oauth/access_token 200',
			'GET /sms/senders 200',
			'POST /oauth/access_token 401',
			'POST /oauth/access_token 401',
			'POST /oauth/access_token 200',
			'GET /sms/senders 200',
		]);
		expect(sandbox.log.all()[2].body).toEqual({
			grant_type: 'client_credentials',
			client_id: right.clientId,
			client_secret: 'wrong-secret',
		});
	});

	test('API key: right passes, wrong fails with the service message', async () => {
		const right = sandboxCredentials(sandbox, 'apiKey');
		const test = runCredentialTest;
		expect(await test(right)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await test({ ...right, apiKey: 'sp_apikey_wrong' })).toEqual({
			status: 'Error',
			message: 'Unauthorized! (error code 401)',
		});
		expect(log()).toEqual(['GET /sms/senders 200', 'GET /sms/senders 401']);
	});

	test('token endpoint unreachable: says so', async () => {
		sandbox.faults.add({ path: '/oauth/access_token', drop: true });
		const answer = await runCredentialTest(sandboxCredentials(sandbox));
		expect(answer).toEqual({
			status: 'Error',
			message: 'Token exchange failed: the service could not be reached (ECONNRESET)',
		});
	});
});
