/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import type { ExecuteResult, N8nInstance } from '../../scripts/n8n/instance';
import { describeFailure, outputOf, SANDBOX_CREDENTIALS } from './helpers';
import { sharedN8n } from './shared-n8n';

/**
 * A changed secret reaches the workflows, in a real n8n 2.40.7: a credential saved and used by a workflow (n8n
 * stores the token with it), then edited through n8n's REST API as the editor saves it. The next run uses the new
 * values: a wrong secret fails with the service's message, without the old token being sent; another API
 * client's id and secret act as that client; the runs after keep the token (no exchange on the normal path).
 */
const OTHER = { clientId: 'other-client-e2e', clientSecret: 'other-client-e2e-secret' };
let sandbox: Sandbox;
let n8n: N8nInstance;

beforeAll(async () => {
	sandbox = await startSandbox({
		credentials: { ...SANDBOX_CREDENTIALS, additionalClients: [OTHER] },
		settings: { rateLimitPerSecond: 0 },
	});
	n8n = await sharedN8n();
});

afterAll(async () => {
	await sandbox?.close();
});

function expectSuccess(result: ExecuteResult) {
	if (result.status !== 'success') throw new Error(`The run failed: ${describeFailure(result)}`);
}

const log = () =>
	sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.auth}`);

it('save, run, change the secret, run, switch to another client, run', async () => {
	const name = 'Changed later';
	const saved = (await n8n.rest('POST', '/rest/credentials', {
		name,
		type: 'messagingServiceApi',
		data: {
			baseUrl: sandbox.url,
			authType: 'clientCredentials',
			clientId: SANDBOX_CREDENTIALS.clientId,
			clientSecret: SANDBOX_CREDENTIALS.clientSecret,
		},
	})) as { data: { id: string } };
	const credentialId = saved.data.id;
	const workflow = (await n8n.rest('POST', '/rest/workflows', {
		name: 'Sender IDs',
		active: false,
		settings: {},
		connections: { Start: { main: [[{ node: 'Sender IDs', type: 'main', index: 0 }]] } },
		nodes: [
			{
				parameters: {},
				id: 'c0ffee00-0000-4000-8000-000000000001',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: { resource: 'senderId', operation: 'getAll', returnAll: true },
				id: 'c0ffee00-0000-4000-8000-000000000002',
				name: 'Sender IDs',
				type: 'n8n-nodes-messaging.messagingSms',
				typeVersion: 1,
				position: [200, 0],
				credentials: { messagingServiceApi: { id: credentialId, name } },
			},
		],
	})) as { data: { id: string } };
	const run = async () => {
		sandbox.log.clear();
		return await n8n.execute(workflow.data.id);
	};
	/** What the editor does on save: the stored data (hidden token included) with the fields the user changed. */
	const edit = async (changes: Record<string, string>) => {
		const stored = (await n8n.rest(
			'GET',
			`/rest/credentials/${credentialId}?includeData=true`,
		)) as {
			data: { data: Record<string, string> };
		};
		await n8n.rest('PATCH', `/rest/credentials/${credentialId}`, {
			name,
			type: 'messagingServiceApi',
			data: { ...stored.data.data, ...changes },
		});
	};
	const clientOfLastExchange = () => {
		const exchange = sandbox.log.all().find((entry) => entry.path === '/oauth/access_token');
		const token = (exchange?.responseBody as { access_token?: string } | undefined)?.access_token;
		return token ? sandbox.account.clientOf(token) : undefined;
	};

	const first = await run();
	expectSuccess(first);
	expect(outputOf(first.run, 'Sender IDs').length).toBeGreaterThan(0);
	expect(log()).toEqual(['POST /oauth/access_token 200 none', 'GET /sms/senders 200 token']);

	// Saved again unchanged: the token stays in use, no exchange.
	await edit({});
	const unchanged = await run();
	expectSuccess(unchanged);
	expect(log()).toEqual(['GET /sms/senders 200 token']);

	await edit({ clientSecret: 'a-wrong-secret' });
	const wrong = await run();
	expect(wrong.status).toBe('error');
	expect(describeFailure(wrong)).toContain('Client authentication failed.');
	expect(log()).toEqual(['POST /oauth/access_token 401 none']);

	await edit(OTHER);
	const other = await run();
	expectSuccess(other);
	expect(log()).toEqual(['POST /oauth/access_token 200 none', 'GET /sms/senders 200 token']);
	expect(clientOfLastExchange()).toBe(OTHER.clientId);

	const again = await run();
	expectSuccess(again);
	expect(log()).toEqual(['GET /sms/senders 200 token']);
});
