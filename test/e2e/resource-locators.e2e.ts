import { startSandbox, type Sandbox } from '../../sandbox';
import { DEFAULT_N8N_VERSION, type N8nInstance } from '../../scripts/n8n/instance';
import {
	API_KEY_CREDENTIAL_ID,
	API_KEY_CREDENTIAL_NAME,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	SANDBOX_CREDENTIALS,
	credentialRecords,
	sandboxRequest,
} from './helpers';
import { sharedN8n } from './shared-n8n';

/**
 * Every resource locator's list in a real n8n, asked the way the editor asks when a list opens
 * (POST /rest/dynamic-node-parameters/resource-locator-results): Messaging Email's senders, Messaging SMS's sender
 * IDs and campaigns, on both credentials. Runs on n8n 2.40.7 and (`npm run e2e:n8n1`) 1.123.81, isolate engine.
 */
let sandbox: Sandbox;
let n8n: N8nInstance;

beforeAll(async () => {
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	n8n = await sharedN8n();
	await n8n.importCredentials(credentialRecords(sandbox.url));
});

afterAll(async () => {
	await sandbox?.close();
});

const credentials = {
	token: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME },
	apiKey: { id: API_KEY_CREDENTIAL_ID, name: API_KEY_CREDENTIAL_NAME },
} as const;

async function listOf(
	node: 'messagingEmail' | 'messagingSms',
	parameters: Record<string, unknown>,
	parameter: string,
	methodName: string,
	credential: keyof typeof credentials,
	filter?: string,
) {
	const answer = (await n8n.rest('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
		path: `parameters.${parameter}`,
		nodeTypeAndVersion: { name: `n8n-nodes-messaging.${node}`, version: 1 },
		currentNodeParameters: parameters,
		methodName,
		credentials: { messagingServiceApi: credentials[credential] },
		...(filter === undefined ? {} : { filter }),
	})) as { data: { results: Array<{ name: string; value: string }> } };
	return answer.data.results;
}

const calls = () =>
	sandbox.log
		.all()
		.filter((entry) => !entry.path.startsWith('/__sandbox'))
		.map((entry) => `${entry.method} ${entry.path} ${entry.auth} ${entry.status}`);

describe(`resource locators on n8n ${DEFAULT_N8N_VERSION}`, () => {
	it.each(['token', 'apiKey'] as const)(
		'Messaging Email → From: the approved senders (%s credential)',
		async (credential) => {
			sandbox.log.clear();
			const parameters = { resource: 'email', operation: 'send' };
			expect(
				await listOf('messagingEmail', parameters, 'fromEmail', 'searchSenders', credential),
			).toEqual([{ name: 'sender@sandbox.test', value: 'sender@sandbox.test' }]);
			expect(
				await listOf(
					'messagingEmail',
					parameters,
					'fromEmail',
					'searchSenders',
					credential,
					'nobody',
				),
			).toEqual([]);
			const auth = credential === 'token' ? 'token' : 'apiKey';
			expect(calls().filter((call) => call.startsWith('GET /smtp/senders'))).toEqual([
				`GET /smtp/senders ${auth} 200`,
				`GET /smtp/senders ${auth} 200`,
			]);
		},
	);

	it('Messaging SMS → Sender and Campaign: the sender IDs, and a campaign created just before', async () => {
		const senders = await listOf(
			'messagingSms',
			{ resource: 'campaign', operation: 'sendToNumbers' },
			'sender',
			'searchSenders',
			'apiKey',
		);
		expect(senders.map((sender) => sender.value)).toContain('Sandbox');

		const sent = await sandboxRequest(
			sandbox.url,
			'POST',
			'/sms/send',
			{ sender: 'Sandbox', phones: ['380986235698'], body: 'Locator check' },
			SANDBOX_CREDENTIALS.apiKey,
		);
		const campaignId = String((sent as { campaign_id?: unknown }).campaign_id);
		sandbox.log.clear();
		const campaigns = await listOf(
			'messagingSms',
			{ resource: 'campaign', operation: 'get' },
			'campaignId',
			'searchCampaigns',
			'token',
		);
		expect(campaigns.map((campaign) => campaign.value)).toContain(campaignId);
		expect(campaigns.find((campaign) => campaign.value === campaignId)?.name).toMatch(
			new RegExp(`^#${campaignId} · Sandbox · `),
		);
		expect(calls()).toContain('GET /sms/campaigns/list token 200');
	});
});
