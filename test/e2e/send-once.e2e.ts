/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';
import { type N8nInstance } from '../../scripts/n8n/instance';
import { restartSharedN8n, sharedN8n } from './shared-n8n';
import {
	credentialRecords,
	describeFailure,
	executionsOf,
	outputOf,
	SANDBOX_CREDENTIALS,
	API_KEY_CREDENTIAL_ID,
	API_KEY_CREDENTIAL_NAME,
} from './helpers';

/**
 * Send Once per Key in a real n8n (2.40.7, its own SQLite database and deduplication store): five order
 * confirmations, the third refused by the service so the run fails; n8n's own Retry of that execution through its
 * REST API (as the editor's "Retry with original workflow" does); then a run after n8n restarted. The sandbox's
 * outbox holds each confirmation once. Self-contained: it starts its own sandbox and n8n.
 */
const WORKFLOW_ID = 'sendOnceE2e00001';
let sandbox: Sandbox;
let n8n: N8nInstance;

const workflow = {
	id: WORKFLOW_ID,
	name: 'Send once e2e',
	active: false,
	settings: {},
	connections: {
		Start: { main: [[{ node: 'Orders', type: 'main', index: 0 }]] },
		Orders: { main: [[{ node: 'One per order', type: 'main', index: 0 }]] },
		'One per order': { main: [[{ node: 'Confirm', type: 'main', index: 0 }]] },
	},
	nodes: [
		{
			parameters: {},
			id: 'a0000000-0000-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
		},
		{
			parameters: {
				mode: 'raw',
				jsonOutput: JSON.stringify({
					orders: [1, 2, 3, 4, 5].map((id) => ({ id, email: `buyer${id}@example.com` })),
				}),
			},
			id: 'a0000000-0000-4000-8000-000000000002',
			name: 'Orders',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
		},
		{
			parameters: { fieldToSplitOut: 'orders', options: {} },
			id: 'a0000000-0000-4000-8000-000000000003',
			name: 'One per order',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
		},
		{
			parameters: {
				resource: 'email',
				operation: 'send',
				fromEmail: { __rl: true, mode: 'id', value: 'sender@sandbox.test' },
				to: '={{ $json.email }}',
				subject: '=Order {{ $json.id }} confirmed',
				content: 'htmlAndText',
				text: 'Thank you for your order.',
				options: { sendOnce: { settings: { key: '=order-{{ $json.id }}-confirmation' } } },
				requestOptions: { maxConcurrency: 1 },
			},
			id: 'a0000000-0000-4000-8000-000000000004',
			name: 'Confirm',
			type: 'n8n-nodes-messaging.messagingEmail',
			typeVersion: 1,
			position: [600, 0],
			credentials: {
				messagingServiceApi: { id: API_KEY_CREDENTIAL_ID, name: API_KEY_CREDENTIAL_NAME },
			},
		},
	],
};

const outbox = () =>
	emailStateOf(sandbox)
		.emails.map((sent) => `${sent.recipient} | ${sent.subject}`)
		.sort();
const ALL_FIVE = [1, 2, 3, 4, 5].map((id) => `buyer${id}@example.com | Order ${id} confirmed`);

beforeAll(async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.e2e.config.js');
	sandbox = await startSandbox({
		credentials: SANDBOX_CREDENTIALS,
		settings: { rateLimitPerSecond: 0 },
	});
	n8n = await sharedN8n();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	await n8n.importWorkflows([workflow]);
});

afterAll(async () => {
	await sandbox?.close();
});

it('a failed run, n8n’s Retry, a run after a restart: each confirmation sent once', async () => {
	// The service accepts two emails, then refuses the third: the run fails at item 2.
	sandbox.faults.add({ method: 'POST', path: '/smtp/emails', delayMs: 1, times: 2 });
	sandbox.faults.add({
		method: 'POST',
		path: '/smtp/emails',
		status: 422,
		body: { message: 'Mailbox busy', error_code: 422 },
	});
	const failed = await n8n.execute(WORKFLOW_ID);
	expect(failed.status).toBe('error');
	expect(describeFailure(failed)).toContain('Mailbox busy');
	expect(outbox()).toEqual(ALL_FIVE.slice(0, 2));

	// n8n's Retry of the failed execution, through its REST API as the editor does.
	const [execution] = await executionsOf(n8n, WORKFLOW_ID);
	expect(execution.status).toBe('error');
	sandbox.log.clear();
	const retried = (await n8n.rest('POST', `/rest/executions/${execution.id}/retry`, {
		loadWorkflow: false,
	})) as {
		data: { status?: string } | boolean;
	};
	const retries = await executionsOf(n8n, WORKFLOW_ID);
	const retry = retries[retries.length - 1];
	expect({ retried: retried.data, status: retry.status }).toMatchObject({ status: 'success' });
	expect(outbox()).toEqual(ALL_FIVE);
	expect(sandbox.log.apiCalls().filter((call) => call.method === 'POST')).toHaveLength(3);

	// After a restart the memory is still there (n8n's database): nothing is sent, every item is marked.
	await restartSharedN8n(n8n);
	sandbox.log.clear();
	const again = await n8n.execute(WORKFLOW_ID);
	expect(again.status).toBe('success');
	expect(sandbox.log.apiCalls().filter((call) => call.method === 'POST')).toEqual([]);
	expect(outputOf(again.run, 'Confirm')).toEqual(
		[1, 2, 3, 4, 5].map((id) => ({
			alreadySent: true,
			sendOnceKey: `order-${id}-confirmation`,
			firstSentAt: null,
			firstSendId: null,
		})),
	);
	expect(outbox()).toEqual(ALL_FIVE);
});
