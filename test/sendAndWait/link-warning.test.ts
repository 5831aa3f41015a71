import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { runNode, type RunNodeResult } from '../harness/run-node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { REFUND_EMAIL } from './setup';

/**
 * A link that cannot work is said before it is sent: the run gets a warning naming WEBHOOK_URL when the resume
 * link points at the n8n machine itself, or at http: while n8n is served over https. The message still goes out
 * (a test instance on localhost is legitimate).
 */

let sandbox: Sandbox;
let store: CredentialStore;
beforeAll(async () => {
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());

const sms: INodeParameters = {
	resource: 'campaign',
	operation: 'sendAndWait',
	sender: { __rl: true, mode: 'name', value: 'Sandbox' },
	phone: '+380986235698',
	message: 'Refund?',
};

async function run(parameters: INodeParameters, instance: string, waiting: string) {
	return await runNode({
		node: parameters.resource === 'email' ? new MessagingEmail() : new MessagingSms(),
		credentials: store,
		parameters: { requestOptions: { requestsPerSecond: 0 }, ...parameters },
		urls: { instanceBaseUrl: `${instance}/`, webhookWaitingBaseUrl: `${waiting}/webhook-waiting/` },
		mode: 'trigger',
	});
}

const linkHints = (result: RunNodeResult) =>
	(result.run.data.resultData.runData.Node?.[0]?.hints ?? [])
		.map((hint) => hint.message)
		.filter((message) => message.startsWith('The answer link'));

const SET =
	"Set WEBHOOK_URL to n8n's public address (on the main process and on every worker in queue mode) so that recipients can answer.";

describe('the run warns when the answer link cannot work', () => {
	test.each([
		['localhost', 'http://localhost:5678', 'localhost:5678'],
		['127.0.0.1', 'http://127.0.0.1:5678', '127.0.0.1:5678'],
		['0.0.0.0', 'http://0.0.0.0:5678', '0.0.0.0:5678'],
		['::1', 'http://[::1]:5678', '[::1]:5678'],
	])('%s (email and SMS)', async (_name, waiting, host) => {
		for (const parameters of [REFUND_EMAIL, sms]) {
			const result = await run(parameters, 'https://n8n.example.com', waiting);
			expect(result.run.status).toBe('waiting');
			expect(linkHints(result)).toEqual([
				`The answer link points at ${host}, which only the n8n machine itself can open. ${SET}`,
			]);
		}
	});

	test('http: while n8n is served over https', async () => {
		const result = await run(REFUND_EMAIL, 'https://n8n.example.com', 'http://n8n.example.com');
		expect(linkHints(result)).toEqual([
			`The answer link uses http: (http://n8n.example.com) while n8n is served over https (https://n8n.example.com). ${SET}`,
		]);
	});

	test.each([
		['https everywhere', 'https://n8n.example.com', 'https://n8n.example.com'],
		['http everywhere (a LAN instance)', 'http://n8n.lan:5678', 'http://n8n.lan:5678'],
		[
			'a host merely named like localhost',
			'https://n8n.example.com',
			'https://localhost.example.com',
		],
	])('no warning: %s', async (_name, instance, waiting) => {
		const result = await run(REFUND_EMAIL, instance, waiting);
		expect(result.run.status).toBe('waiting');
		expect(linkHints(result)).toEqual([]);
	});
});
