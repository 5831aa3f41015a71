import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode } from '../harness/run-node';
import { probeArea } from './probe-area';

/**
 * Tokens the run obtains, through n8n-core's request helper and the credential's preAuthentication/authenticate,
 * against the sandbox over real HTTP:
 * - a token is bound to the values it was obtained with: after a changed secret, client id or Base URL is saved
 *   (n8n keeps the hidden token), the old token is never sent; the first execution uses the new values, and a
 *   wrong secret fails with the service's message;
 * - every token the run obtained is masked in its errors, whatever words the service quotes it in.
 */
const probe = new TransportProbe();
const OTHER = { clientId: 'other-client', clientSecret: 'other-client-secret' };
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [probeArea],
		settings: { rateLimitPerSecond: 0 },
		credentials: { additionalClients: [OTHER] },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
});

const WHOAMI = { method: 'GET', path: '/probe/whoami' };
const log = () =>
	sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.auth}`);
const run = async (store: CredentialStore, parameters: Record<string, unknown> = WHOAMI) =>
	await runNode({ node: probe, credentials: store, parameters: parameters as never });

/** What n8n does when a user edits the credential and saves: the typed values change, the hidden token stays. */
function saveEdited(store: CredentialStore, changes: Record<string, string>) {
	store.set({ ...store.get(), ...changes });
}

describe('a token is used only with the values it was obtained with', () => {
	test('a wrong secret saved over a working credential: the next run fails with the service message, the old token is not sent', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		expect(jsonOf(await run(store))).toEqual([
			{ response: { clientId: sandbox.account.clientId } },
		]);
		const oldToken = store.get().accessToken;
		expect(oldToken).toMatch(/^[0-9a-f]{48}$/);

		sandbox.log.clear();
		saveEdited(store, { clientSecret: 'a-wrong-secret' });
		const result = await run(store);
		expect(result.error?.message).toBe(
			'Token exchange failed: Client authentication failed. (error code 1)',
		);
		// One exchange with the new values; no request went out with the token of the old ones.
		expect(log()).toEqual(['POST /oauth/access_token 401 none']);
		expect(JSON.stringify(result.error)).not.toContain('a-wrong-secret');

		// The right secret again: the token obtained with exactly these values is used, no exchange.
		sandbox.log.clear();
		saveEdited(store, { clientSecret: sandbox.account.clientSecret });
		expect(jsonOf(await run(store))).toEqual([
			{ response: { clientId: sandbox.account.clientId } },
		]);
		expect(log()).toEqual(['GET /probe/whoami 200 token']);
		expect(store.get().accessToken).toBe(oldToken);
	});

	test("a switch to another API client's id and secret: the first run after the save acts as that client", async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		await run(store);
		sandbox.log.clear();
		saveEdited(store, OTHER);
		expect(jsonOf(await run(store))).toEqual([{ response: { clientId: OTHER.clientId } }]);
		expect(log()).toEqual(['POST /oauth/access_token 200 none', 'GET /probe/whoami 200 token']);
		// And the runs after it keep that token: no exchange on the normal path.
		sandbox.log.clear();
		expect(jsonOf(await run(store))).toEqual([{ response: { clientId: OTHER.clientId } }]);
		expect(log()).toEqual(['GET /probe/whoami 200 token']);
	});

	test('a changed Base URL is new values too: the token obtained for the old one is not sent there', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		await run(store);
		sandbox.log.clear();
		saveEdited(store, { baseUrl: `${sandbox.url}/` });
		// A trailing slash is the same address: the token stays.
		await run(store);
		expect(log()).toEqual(['GET /probe/whoami 200 token']);
		sandbox.log.clear();
		saveEdited(store, { baseUrl: sandbox.url.replace('127.0.0.1', 'localhost') });
		await run(store);
		expect(log()).toEqual(['POST /oauth/access_token 200 none', 'GET /probe/whoami 200 token']);
	});

	test('a token stored without the values it belongs to (saved by an older version) is exchanged once', async () => {
		const store = new CredentialStore({ ...sandboxCredentials(sandbox), accessToken: 'stale' });
		await run(store);
		await run(store);
		expect(log()).toEqual([
			'POST /oauth/access_token 200 none',
			'GET /probe/whoami 200 token',
			'GET /probe/whoami 200 token',
		]);
		expect(store.updates).toBe(1);
	});
});

describe('every token the run obtains is masked in its errors', () => {
	test('"Token <t> rejected", in the execution that obtained <t>: masked in the message and everything kept of the error', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		const result = await run(store, { method: 'GET', path: '/probe/echo-token' });
		const token = store.get().accessToken as string;
		expect(token).toMatch(/^[0-9a-f]{48}$/);
		expect(result.error?.message).toBe('Token *** rejected (error code 403)');
		const shown = JSON.stringify({
			message: result.error?.message,
			description: (result.error as { description?: unknown })?.description,
			context: (result.error as { context?: unknown })?.context,
			stack: result.error?.stack,
		});
		expect(shown).not.toContain(token);
	});

	test('the same with Continue On Fail: the error item holds no token', async () => {
		const store = new CredentialStore(sandboxCredentials(sandbox));
		const result = await runNode({
			node: probe,
			credentials: store,
			parameters: { method: 'GET', path: '/probe/echo-token' } as never,
			continueOnFail: true,
		});
		const token = store.get().accessToken as string;
		expect(jsonOf(result)).toEqual([
			{ error: 'Token *** rejected (error code 403)', httpCode: '403', errorCode: 403 },
		]);
		expect(JSON.stringify(result.items)).not.toContain(token);
	});
});
