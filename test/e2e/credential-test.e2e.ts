/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import type { N8nInstance } from '../../scripts/n8n/instance';
import { SANDBOX_CREDENTIALS } from './helpers';
import { sharedN8n } from './shared-n8n';

/**
 * The credential's "Test"/"Retry" button in a real n8n (POST /rest/credentials/test, which runs the nodes' own
 * credential test, `testedBy`): a fresh token exchange with exactly the values typed, the service's message on bad
 * credentials (also after a secret is changed on a credential that holds a token), success in API-key mode, and
 * success while the account's email area is not activated. No secret comes back in any answer.
 */
let sandbox: Sandbox;
let n8n: N8nInstance;

beforeAll(async () => {
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	n8n = await sharedN8n();
});

afterAll(async () => {
	await sandbox?.close();
});

/** Saves a credential through n8n, then tests it the way the editor's "Retry"/"Test" does. */
async function testCredential(name: string, data: Record<string, string>) {
	const saved = (await n8n.rest('POST', '/rest/credentials', {
		name,
		type: 'messagingServiceApi',
		data,
	})) as { data: { id: string } };
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
	expect(answer).toEqual({
		status: 'Error',
		message: 'Token exchange failed: Client authentication failed.',
	});
	expect(sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status])).toEqual([
		['POST', '/oauth/access_token', 401],
	]);
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
	expect(
		sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status, entry.auth]),
	).toEqual([
		['POST', '/oauth/access_token', 200, 'none'],
		['GET', '/sms/senders', 200, 'token'],
	]);
});

it('API key: passes without a token exchange; a wrong key fails with the service message', async () => {
	sandbox.log.clear();
	expect(
		await testCredential('Key', {
			baseUrl: `${sandbox.url}/`,
			authType: 'apiKey',
			apiKey: SANDBOX_CREDENTIALS.apiKey,
		}),
	).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const wrong = await testCredential('Wrong key', {
		baseUrl: sandbox.url,
		authType: 'apiKey',
		apiKey: 'sp_apikey_wrong_0000',
	});
	expect(wrong).toEqual({ status: 'Error', message: 'Unauthorized! (error code 401)' });
	expect(sandbox.log.all().map((entry) => [entry.path, entry.status, entry.auth])).toEqual([
		['/sms/senders', 200, 'apiKey'],
		['/sms/senders', 401, 'rejected'],
	]);
});

it('Retry after changing the secret of a saved credential that holds a token: fails, and passes again once it is put back', async () => {
	const good = {
		baseUrl: sandbox.url,
		authType: 'clientCredentials',
		clientId: SANDBOX_CREDENTIALS.clientId,
		clientSecret: SANDBOX_CREDENTIALS.clientSecret,
	};
	const saved = (await n8n.rest('POST', '/rest/credentials', {
		name: 'Edited',
		type: 'messagingServiceApi',
		data: good,
	})) as { data: { id: string } };
	const id = saved.data.id;
	// The credential gets a token the way a workflow gives it one: n8n stores what preAuthentication returned.
	const token = (
		(await fetch(`${sandbox.url}/oauth/access_token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				grant_type: 'client_credentials',
				client_id: good.clientId,
				client_secret: good.clientSecret,
			}),
		}).then(async (response) => await response.json())) as { access_token: string }
	).access_token;
	await n8n.rest('PATCH', `/rest/credentials/${id}`, {
		name: 'Edited',
		type: 'messagingServiceApi',
		data: { ...good, accessToken: token },
	});
	/** What the editor does: save the form (password fields it did not change go back redacted), then test it. */
	const editAndRetry = async (clientSecret: string) => {
		const stored = (await n8n.rest('GET', `/rest/credentials/${id}?includeData=true`)) as {
			data: { data: Record<string, string> };
		};
		const data = { ...stored.data.data, clientSecret };
		await n8n.rest('PATCH', `/rest/credentials/${id}`, {
			name: 'Edited',
			type: 'messagingServiceApi',
			data,
		});
		return (
			(await n8n.rest('POST', '/rest/credentials/test', {
				credentials: { id, name: 'Edited', type: 'messagingServiceApi', data },
			})) as { data: { status: string; message: string } }
		).data;
	};

	sandbox.log.clear();
	expect(await editAndRetry('a-wrong-secret')).toEqual({
		status: 'Error',
		message: 'Token exchange failed: Client authentication failed.',
	});
	expect(sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status])).toEqual([
		['POST', '/oauth/access_token', 401],
	]);
	expect(sandbox.log.all()[0].body).toMatchObject({ client_secret: 'a-wrong-secret' });

	sandbox.log.clear();
	expect(await editAndRetry('a-wrong-secret')).toEqual({
		status: 'Error',
		message: 'Token exchange failed: Client authentication failed.',
	});

	sandbox.log.clear();
	expect(await editAndRetry(SANDBOX_CREDENTIALS.clientSecret)).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	expect(
		sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status, entry.auth]),
	).toEqual([
		['POST', '/oauth/access_token', 200, 'none'],
		['GET', '/sms/senders', 200, 'token'],
	]);
});

it('n8n serves the icon of every node and of the credential (the triggers and the credential share one file)', async () => {
	const nodes = (await n8n.rest('GET', '/types/nodes.json')) as Array<{
		name: string;
		iconUrl?: { light: string; dark: string };
	}>;
	const credentials = (await n8n.rest('GET', '/types/credentials.json')) as Array<{
		name: string;
		iconUrl?: { light: string; dark: string };
	}>;
	const ours = [
		...nodes.filter((type) => type.name.startsWith('n8n-nodes-messaging.')),
		...credentials.filter((type) => type.name === 'messagingServiceApi'),
	];
	// n8n adds an AI-agent tool variant of each node that is usable as a tool, and n8n 2.x a human-review tool of each
	// node with a sendAndWait operation (n8n 1.x generates none); both keep the node's icon.
	const hitl = n8n.major >= 2;
	expect(ours.map((type) => type.name).sort()).toEqual([
		'messagingServiceApi',
		'n8n-nodes-messaging.messagingEmail',
		...(hitl ? ['n8n-nodes-messaging.messagingEmailHitlTool'] : []),
		'n8n-nodes-messaging.messagingEmailTool',
		'n8n-nodes-messaging.messagingEmailTrigger',
		'n8n-nodes-messaging.messagingSms',
		...(hitl ? ['n8n-nodes-messaging.messagingSmsHitlTool'] : []),
		'n8n-nodes-messaging.messagingSmsTool',
		'n8n-nodes-messaging.messagingSmsTrigger',
		'n8n-nodes-messaging.messagingTrigger',
	]);
	for (const type of ours) {
		for (const url of [type.iconUrl?.light, type.iconUrl?.dark]) {
			const response = await fetch(`${n8n.baseUrl}/${url}`);
			const text = await response.text();
			expect([type.name, url, response.status, text.trimStart().slice(0, 4)]).toEqual([
				type.name,
				url,
				200,
				'<svg',
			]);
		}
	}
	const shared = ours.filter((type) => type.iconUrl?.light.endsWith('/shared/icons/messaging.svg'));
	expect(shared.map((type) => type.name).sort()).toEqual([
		'messagingServiceApi',
		'n8n-nodes-messaging.messagingEmailTrigger',
		'n8n-nodes-messaging.messagingTrigger',
	]);
	// The SMS trigger, listed under Messaging SMS, shows that node's SMS icon.
	const iconOf = (name: string) => ours.find((type) => type.name === name)?.iconUrl?.light;
	expect(iconOf('n8n-nodes-messaging.messagingSmsTrigger')).toMatch(
		/\/shared\/icons\/messagingSms\.svg$/,
	);
	expect(iconOf('n8n-nodes-messaging.messagingSmsTrigger')).toBe(
		iconOf('n8n-nodes-messaging.messagingSms'),
	);
});
