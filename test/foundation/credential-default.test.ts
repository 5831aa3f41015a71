import {
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type INodeParameters,
} from 'n8n-workflow';

import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, runCredentialTest } from '../harness/credentials';
import { TransportProbe } from '../harness/probe-node';
import { jsonOf, runNode } from '../harness/run-node';
import { probeArea } from './probe-area';

/**
 * API Key is the credential's default; credentials saved before that (Client ID and Secret the default, so no
 * `authType` stored) keep signing in with their ID and secret. n8n fills a property the saved data lacks with its
 * default before the credential's code sees it (CredentialsHelper.applyDefaultsAndOverwrites →
 * NodeHelpers.getNodeParameters): the stored records below are passed through that same function.
 */
const credentialType = new MessagingServiceApi();
const probe = new TransportProbe();
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [probeArea, smsArea],
		settings: { rateLimitPerSecond: 0 },
	});
});
afterAll(async () => await sandbox.close());
beforeEach(() => sandbox.log.clear());

/** What n8n hands the credential for a stored record: the record with the credential's defaults filled in. */
function asN8nReadsIt(stored: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
	return NodeHelpers.getNodeParameters(
		credentialType.properties,
		stored as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
}

const send = async (stored: ICredentialDataDecryptedObject) =>
	await runNode({
		node: probe,
		credentials: new CredentialStore({ ...asN8nReadsIt(stored), accessToken: '' }),
		parameters: { method: 'POST', path: '/probe/send', body: { text: 'hi' } },
	});

test('a new credential defaults to API Key: the key is sent, no token exchange', async () => {
	expect(credentialType.properties.find((p) => p.name === 'authType')?.default).toBe('apiKey');
	const result = await send({ baseUrl: sandbox.url, apiKey: sandbox.account.apiKey });
	expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-hi' } }]);
	expect(sandbox.log.all().map((entry) => [entry.path, entry.auth])).toEqual([
		['/probe/send', 'apiKey'],
	]);
});

test('a credential saved without authType, with a Client ID and Secret (before API Key was the default), keeps exchanging them', async () => {
	const stored = {
		baseUrl: sandbox.url,
		clientId: sandbox.account.clientId,
		clientSecret: sandbox.account.clientSecret,
	};
	expect(asN8nReadsIt(stored).authType).toBe('apiKey');
	const result = await send(stored);
	expect(jsonOf(result)).toEqual([{ response: { result: true, id: 'sent-hi' } }]);
	expect(sandbox.log.all().map((entry) => [entry.path, entry.auth])).toEqual([
		['/oauth/access_token', 'none'],
		['/probe/send', 'token'],
	]);
	expect(sandbox.log.all()[0].body).toEqual({
		grant_type: 'client_credentials',
		client_id: sandbox.account.clientId,
		client_secret: sandbox.account.clientSecret,
	});
});

test('Account Time Zone defaults to UTC and is described', () => {
	const field = credentialType.properties.find((p) => p.name === 'timeZone');
	expect(field).toMatchObject({ displayName: 'Account Time Zone', type: 'string', default: 'UTC' });
	expect(field?.description).toContain('IANA');
});

test('the service is findable by name: "SendPulse" in the credential’s name', () => {
	expect(credentialType.displayName).toContain('SendPulse');
});

describe('the Test button', () => {
	test('a new credential tested with only its API key (no authType among the values): the key is used', async () => {
		const result = await runCredentialTest({
			baseUrl: sandbox.url,
			apiKey: sandbox.account.apiKey,
		});
		expect(result.status).toBe('OK');
		expect(sandbox.log.all().map((entry) => [entry.path, entry.auth])).toEqual([
			['/sms/senders', 'apiKey'],
		]);
	});

	test('an Account Time Zone that is not a zone fails the test, naming the field; nothing is sent', async () => {
		const result = await runCredentialTest({
			baseUrl: sandbox.url,
			authType: 'apiKey',
			apiKey: sandbox.account.apiKey,
			timeZone: 'Mars/Olympus',
		});
		expect(result).toEqual({
			status: 'Error',
			message: 'Account Time Zone: "Mars/Olympus" is not a time zone name',
		});
		expect(sandbox.log.all()).toEqual([]);
	});

	test.each([
		['Europe/Berln', 'Europe/Berlin'],
		['europe/londn', 'Europe/London'],
		['Amerca/New_York', 'America/New_York'],
		['UTX', 'UTC'],
	])(
		'a typo in Account Time Zone (%s): the message says the zone is unknown and names the one meant (%s)',
		async (typed, meant) => {
			const result = await runCredentialTest({
				baseUrl: sandbox.url,
				authType: 'apiKey',
				apiKey: sandbox.account.apiKey,
				timeZone: typed,
			});
			expect(result).toEqual({
				status: 'Error',
				message: `Account Time Zone: "${typed}" is not a time zone name: did you mean ${meant}?`,
			});
			expect(sandbox.log.all()).toEqual([]);
		},
	);
});

test('a refused API key: the error says where to get another one; no token exchange is tried', async () => {
	const result = await send({
		baseUrl: sandbox.url,
		authType: 'apiKey',
		apiKey: 'sp_apikey_revoked',
	});
	expect(result.error?.description).toBe(
		'The service refused the credential: open the Messaging credential and paste an API key from SendPulse (Account Settings → API → Create API key); a deleted key stops working',
	);
	// n8n repeats a request once after a 401 (its refresh path; an API key has nothing to refresh).
	expect(sandbox.log.all().map((entry) => [entry.path, entry.status])).toEqual([
		['/probe/send', 401],
		['/probe/send', 401],
	]);
});
