import { startSandbox, type Sandbox } from '../sandbox';
import { N8nInstance } from '../real-n8n/instance';
import { SANDBOX_CREDENTIALS } from './helpers';

/**
 * The credential's "Test" button in a real n8n (POST /rest/credentials/test, which runs preAuthentication and the
 * credential's test request): the service's message on bad credentials, success in API-key mode, and success while
 * the account's email area is not activated. No secret comes back in any answer.
 */
let sandbox: Sandbox;
let n8n: N8nInstance;

beforeAll(async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.e2e.config.js');
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	n8n = await N8nInstance.create({ tarball });
	await n8n.start();
});

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.close();
});

/** Saves a credential through n8n, then tests it the way the editor's "Retry"/"Test" does. */
async function testCredential(name: string, data: Record<string, string>) {
	const saved = (await n8n.rest('POST', '/rest/credentials', { name, type: 'messagingServiceApi', data })) as { data: { id: string } };
	const answer = (await n8n.rest('POST', '/rest/credentials/test', {
		credentials: { id: saved.data.id, name, type: 'messagingServiceApi', data },
	})) as { data: { status: string; message: string } };
	return answer.data;
}

it('bad client secret: fails with the service message, secret not echoed', async () => {
	const answer = await testCredential('Bad secret', {
		baseUrl: sandbox.url,
		authType: 'clientCredentials',
		clientId: SANDBOX_CREDENTIALS.clientId,
		clientSecret: 'definitely-wrong-secret',
	});
	expect(answer).toEqual({ status: 'Error', message: 'Token exchange failed: Client authentication failed.' });
	expect(sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status])).toEqual([['POST', '/oauth/access_token', 401]]);
});

it('client id and secret with the email area not activated: the test still passes', async () => {
	sandbox.log.clear();
	sandbox.account.settings.emailActivated = false;
	const answer = await testCredential('Good, email off', {
		baseUrl: sandbox.url,
		authType: 'clientCredentials',
		clientId: SANDBOX_CREDENTIALS.clientId,
		clientSecret: SANDBOX_CREDENTIALS.clientSecret,
	});
	expect(answer).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect(sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status, entry.auth])).toEqual([
		['POST', '/oauth/access_token', 200, 'none'],
		['GET', '/sms/senders', 200, 'token'],
	]);
});

it('API key: passes without a token exchange; a wrong key fails with the service message', async () => {
	sandbox.log.clear();
	expect(await testCredential('Key', { baseUrl: `${sandbox.url}/`, authType: 'apiKey', apiKey: SANDBOX_CREDENTIALS.apiKey })).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const wrong = await testCredential('Wrong key', { baseUrl: sandbox.url, authType: 'apiKey', apiKey: 'sp_apikey_wrong_0000' });
	// A 401 on the test request itself is worded by n8n's credential tester.
	expect(wrong).toEqual({ status: 'Error', message: 'Unauthorized' });
	expect(sandbox.log.all().map((entry) => [entry.path, entry.status, entry.auth])).toEqual([
		['/sms/senders', 200, 'apiKey'],
		// n8n's one refresh-and-repeat after a 401; never more.
		['/sms/senders', 401, 'rejected'],
		['/sms/senders', 401, 'rejected'],
	]);
});
