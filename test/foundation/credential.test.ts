/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { CredentialStore, runCredentialTest, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode } from '../harness/run-node';
import { probeArea } from './probe-area';

const probe = new TransportProbe();
let sandbox: Sandbox;

beforeAll(async () => {
	// Executions run back to back here; each paces itself, but together they would exceed the account limit.
	sandbox = await startSandbox({ areas: [probeArea], settings: { rateLimitPerSecond: 0 } });
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.log.clear());

const send = (store: CredentialStore, parameters = {}) =>
	runNode({
		node: probe,
		credentials: store,
		parameters: { method: 'POST', path: '/probe/send', body: { text: 'hi' }, ...parameters },
	});

describe('credential: client id and secret', () => {
	test('one token exchange serves many executions', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		for (let run = 0; run < 20; run++) {
			const result = await send(store);
			expect(result.error).toBeUndefined();
			expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-hi' } }]);
		}
		const log = sandbox.log.all();
		expect(log.filter((entry) => entry.path === '/oauth/access_token')).toHaveLength(1);
		expect(log.filter((entry) => entry.path === '/probe/send').map((entry) => entry.auth)).toEqual(
			Array(20).fill('token'),
		);
		expect(log[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: sandbox.account.clientId,
			client_secret: sandbox.account.clientSecret,
		});
		expect(store.updates).toBe(1);
		expect(store.get().accessToken).toMatch(/^[0-9a-f]{48}$/);
	});

	test('an expired token is refreshed once and the request repeated once', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		await send(store);
		sandbox.clock.advance(3601 * 1000);
		sandbox.log.clear();
		const result = await send(store);
		expect(result.error).toBeUndefined();
		expect(sandbox.log.all().map((entry) => [entry.path, entry.status])).toEqual([
			['/probe/send', 401],
			['/oauth/access_token', 200],
			['/probe/send', 200],
		]);
		expect(store.updates).toBe(2);
	});

	test('a token that keeps being refused is not refreshed in a loop', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		await send(store);
		sandbox.log.clear();
		sandbox.faults.add({
			path: '/probe/send',
			status: 401,
			body: { message: 'Unauthorized!', error_code: 401 },
			times: 5,
		});
		const result = await send(store);
		expect(result.error?.message).toBe('Unauthorized! (error code 401)');
		expect(sandbox.log.all().map((entry) => entry.path)).toEqual([
			'/probe/send',
			'/oauth/access_token',
			'/probe/send',
		]);
		sandbox.faults.clear();
	});

	test("bad credentials fail with the service's message, and the secret appears nowhere", async () => {
		const store = new CredentialStore({
			...sandboxCredentials(sandbox),
			clientSecret: 'wrong-secret-value',
		});
		const result = await send(store);
		expect(result.error?.message).toBe(
			'Token exchange failed: Client authentication failed. (error code 1)',
		);
		expect(result.error?.description).toBe(
			'The service refused the credential: open the Messaging credential and copy Client ID and Client Secret again from SendPulse (Account Settings → API), or switch Authentication to API Key and paste a key created there',
		);
		expect(sandbox.log.all().map((entry) => [entry.path, entry.status])).toEqual([
			['/oauth/access_token', 401],
		]);
		const serialized =
			JSON.stringify(result.run) + JSON.stringify(result.error) + String(result.error?.stack);
		expect(serialized).not.toContain('wrong-secret-value');
	});
});

describe('credential: API key', () => {
	test('sends the key as a Bearer token and never asks for a token', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
		const result = await send(store);
		expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-hi' } }]);
		expect(sandbox.log.all().map((entry) => [entry.path, entry.auth])).toEqual([
			['/probe/send', 'apiKey'],
		]);
		expect(store.updates).toBe(0);
	});

	test('a wrong key fails with the service message and is not echoed', async () => {
		const store = new CredentialStore({
			...sandboxCredentials(sandbox, 'apiKey'),
			apiKey: 'sp_apikey_not-valid-123',
		});
		const result = await send(store);
		expect(result.error?.message).toBe('Unauthorized! (error code 401)');
		expect(JSON.stringify(result.run) + String(result.error?.stack)).not.toContain(
			'sp_apikey_not-valid-123',
		);
	});
});

describe('the credential as people paste it', () => {
	test('an API key with a space before and a newline after is the same key', async () => {
		const store = new CredentialStore({
			...sandboxCredentials(sandbox, 'apiKey'),
			apiKey: ` ${sandbox.account.apiKey}\n`,
		});
		const result = await send(store);
		expect(result.error).toBeUndefined();
		expect(sandbox.log.all().map((entry) => [entry.path, entry.auth])).toEqual([
			['/probe/send', 'apiKey'],
		]);
	});

	test('a Client ID and Secret pasted with spaces and a trailing newline are exchanged as typed without them', async () => {
		const store = new CredentialStore({
			...sandboxCredentials(sandbox),
			clientId: `  ${sandbox.account.clientId} `,
			clientSecret: `${sandbox.account.clientSecret}\r\n`,
		});
		const result = await send(store);
		expect(result.error).toBeUndefined();
		expect(sandbox.log.all()[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: sandbox.account.clientId,
			client_secret: sandbox.account.clientSecret,
		});
		expect(sandbox.log.all().map((entry) => entry.auth)).toEqual(['none', 'token']);
	});

	test.each([
		[
			'api.sendpulse.com',
			'Base URL: "api.sendpulse.com" is not a web address: write it with https:// (https://api.sendpulse.com)',
		],
		[
			'ftp://api.sendpulse.com',
			'Base URL: "ftp://api.sendpulse.com" starts with ftp: but must start with https:// (or http:// for a local sandbox or proxy)',
		],
		['   ', 'Base URL: is empty'],
	])(
		'Base URL %p: refused naming Base URL, nothing sent, never "may have processed it"',
		async (baseUrl, message) => {
			for (const authType of ['apiKey', 'clientCredentials'] as const) {
				const store = new CredentialStore({ ...sandboxCredentials(sandbox, authType), baseUrl });
				const result = await send(store);
				expect(result.error?.message).toBe(message);
				expect(result.error?.description).toMatch(/Nothing was sent/);
				expect(sandbox.log.all()).toEqual([]);
				expect(
					await runCredentialTest({ ...sandboxCredentials(sandbox, authType), baseUrl }),
				).toEqual({
					status: 'Error',
					message,
				});
			}
		},
	);

	test('a Base URL with spaces around it works', async () => {
		const store = new CredentialStore({
			...sandboxCredentials(sandbox, 'apiKey'),
			baseUrl: ` ${sandbox.url}/ \n`,
		});
		expect((await send(store)).error).toBeUndefined();
		expect(sandbox.log.all().map((entry) => entry.path)).toEqual(['/probe/send']);
	});

	test('a port nobody listens on: the send says nothing was sent (the connection never opened)', async () => {
		const closed = await startSandbox({ areas: [probeArea] });
		const url = closed.url;
		await closed.close();
		const store = new CredentialStore({ ...sandboxCredentials(sandbox, 'apiKey'), baseUrl: url });
		const result = await send(store);
		expect(result.error?.description).toMatch(
			/^Nothing was sent: POST \/probe\/send found no connection to the service/,
		);
		expect(result.error?.description).not.toMatch(/may have processed/);
	});
});
