import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea } from '../../sandbox/email';
import { CredentialStore, runCredentialTest, sandboxCredentials } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { runNode } from '../harness/run-node';
import { harness, parameters } from '../trigger/helpers';
import { probeArea } from './probe-area';

/**
 * A service or proxy whose JSON answer echoes the request's Authorization header or the credential's secrets:
 * the error keeps the service's message and code, with the secrets masked, wherever the message is quoted (the
 * action nodes' errors, the token exchange, the trigger's "unexpected answer"). Real HTTP through the sandbox.
 */
const probe = new TransportProbe();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [emailArea, probeArea],
		settings: { rateLimitPerSecond: 0 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	sandbox.faults.clear();
});

/** Everything of the error n8n keeps and shows: its fields as serialised, the execution data, the stack. */
function shown(error: (Error & { description?: unknown; context?: unknown }) | undefined): string {
	return JSON.stringify({
		message: error?.message,
		description: error?.description,
		context: error?.context,
		stack: error?.stack,
	});
}

const SEND = { method: 'POST', path: '/probe/send', body: { text: 'hi' } };

describe('an action request whose error message echoes the credential', () => {
	test('the static API key, bare and as the Authorization header: masked, message and code kept', async () => {
		const { apiKey } = sandbox.account;
		sandbox.faults.add({
			method: 'POST',
			path: '/probe/send',
			status: 400,
			body: {
				message: `Header "Authorization: Bearer ${apiKey}" refused for ${apiKey}`,
				error_code: 42,
			},
		});
		const result = await runNode({
			node: probe,
			credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
			parameters: SEND as never,
		});
		expect(result.error?.message).toBe(
			'Header "Authorization: Bearer ***" refused for *** (error code 42)',
		);
		expect(result.error?.description).toBeNull();
		expect(result.error?.context?.serviceErrorCode).toBe(42);
		expect(result.error?.httpCode).toBe('400');
		expect(shown(result.error) + JSON.stringify(result.run)).not.toContain(apiKey.slice(10));
	});

	test('the client secret: masked, the message and code kept', async () => {
		const { clientSecret } = sandbox.account;
		sandbox.faults.add({
			method: 'POST',
			path: '/probe/send',
			status: 400,
			body: { message: `Rejected: secret ${clientSecret} must not be sent here`, error_code: 7 },
		});
		const result = await runNode({
			node: probe,
			credentials: new CredentialStore(sandboxCredentials(sandbox)),
			parameters: SEND as never,
		});
		expect(result.error?.message).toBe('Rejected: secret *** must not be sent here (error code 7)');
		expect(shown(result.error) + JSON.stringify(result.run)).not.toContain(clientSecret);
	});

	test('quoted in the description (email area not activated): masked there too', async () => {
		const { apiKey } = sandbox.account;
		sandbox.faults.add({
			path: '/probe/records',
			status: 400,
			body: { message: `No such SMTP user for Bearer ${apiKey}`, error_code: 8 },
		});
		const result = await runNode({
			node: probe,
			credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
			parameters: { method: 'GET', path: '/probe/records', query: { limit: 1 } } as never,
		});
		expect(result.error?.message).toBe("The account's email (SMTP) area is not activated");
		expect(result.error?.description).toBe(
			'The service answered "No such SMTP user for Bearer ***". Activate the SMTP service in your account ' +
				'(dashboard → SMTP → activate / fill in the sender profile), wait for approval, then run the node again.',
		);
		expect(result.error?.context?.serviceErrorCode).toBe(8);
		expect(shown(result.error) + JSON.stringify(result.run)).not.toContain(apiKey.slice(10));
	});
});

describe('the token exchange echoing the client secret it was sent', () => {
	const echoSecret = () =>
		sandbox.faults.add({
			path: '/oauth/access_token',
			status: 401,
			body: {
				message: `Client authentication failed: client_secret ${sandbox.account.clientSecret} is not valid`,
				error_code: 1,
			},
		});

	test('in an action node: masked, the message and code kept', async () => {
		echoSecret();
		const result = await runNode({
			node: probe,
			credentials: new CredentialStore(sandboxCredentials(sandbox)),
			parameters: SEND as never,
		});
		expect(result.error?.message).toBe(
			'Token exchange failed: Client authentication failed: client_secret *** is not valid (error code 1)',
		);
		expect(result.error?.description).toBe(
			'The service refused the credential: open the Messaging credential and copy Client ID and Client Secret again from SendPulse (Account Settings → API), or switch Authentication to API Key and paste a key created there',
		);
		expect(shown(result.error) + JSON.stringify(result.run)).not.toContain(
			sandbox.account.clientSecret,
		);
		expect(
			sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
		).toEqual(['POST /oauth/access_token 401']);
	});

	test("in the credential's Test button (the exchange's own error, no node around it): masked", async () => {
		echoSecret();
		expect(await runCredentialTest(sandboxCredentials(sandbox))).toEqual({
			status: 'Error',
			message:
				'Token exchange failed: Client authentication failed: client_secret *** is not valid',
		});
	});
});

describe("the credential's Test button quoting the service's refusal of its check request", () => {
	test('GET /sms/senders refused with a message that echoes the API key: masked, message and code kept', async () => {
		const { apiKey } = sandbox.account;
		sandbox.faults.add({
			method: 'GET',
			path: '/sms/senders',
			status: 403,
			body: { message: `Key ${apiKey} may not read senders`, error_code: 7 },
		});
		expect(await runCredentialTest(sandboxCredentials(sandbox, 'apiKey'))).toEqual({
			status: 'Error',
			message: 'Key *** may not read senders (error code 7)',
		});
		expect(
			sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.status}`),
		).toEqual(['GET /sms/senders 403']);
	});
});

describe("the trigger's unexpected answer quoting what a proxy echoed", () => {
	test('GET /smtp/unsubscribe answered by JSON without a list: the error masks the key', async () => {
		const { apiKey } = sandbox.account;
		sandbox.faults.add({
			method: 'GET',
			path: '/smtp/unsubscribe',
			status: 200,
			body: { proxied: true, authorization: `Bearer ${apiKey}`, key: apiKey },
			times: 10,
		});
		const outcome = await harness(sandbox, parameters(['unsubscribe'])).manual();
		expect(outcome.items).toEqual([]);
		expect(outcome.error?.message).toBe(
			'The answer to GET /smtp/unsubscribe holds no list of unsubscribed entries: "{\\"proxied\\":true,\\"authorization\\":\\"Bearer ***\\",\\"key\\":\\"***\\"}"',
		);
		expect(shown(outcome.error)).not.toContain(apiKey.slice(10));
	});
});
