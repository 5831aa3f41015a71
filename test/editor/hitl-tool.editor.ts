/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/// <reference lib="dom" />
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { selectors, type Page } from 'playwright-core';

import { startSandbox, type Sandbox } from '../../sandbox';
import { N8nInstance, ROOT } from '../../scripts/n8n/instance';
import { launchChromium, type HeadlessChromium } from './chromium';
import { EDITOR_OWNER, EDITOR_SECRETS, SCREENSHOTS, signIn } from './n8n-editor';

/**
 * The AI Agent's human review step in n8n's editor: n8n builds `messagingEmailHitlTool` / `messagingSmsHitlTool`
 * from the Send and Wait for Response operations. A workflow where Messaging Email (human review) gates a
 * Messaging SMS tool of an AI Agent opens with both nodes known (no "install this node" placeholder), and the human
 * review panel shows n8n's Message field and the node's own fields, resource and operation hidden.
 * Screenshots: build/editor-screenshots/hitl-*.png, copied to docs/send-and-wait-ai-agent*.png.
 */
const CREDENTIAL = { id: 'editorHitlCred01', name: 'Messaging Sandbox' };
const WORKFLOW_ID = 'editorHitlAgent1';
const REVIEW = 'Approve by Email';

let sandbox: Sandbox;
let n8n: N8nInstance;
let chromium: HeadlessChromium | undefined;
let page: Page;
const consoleErrors: string[] = [];

const credentials = { messagingServiceApi: CREDENTIAL };
const workflow = {
	id: WORKFLOW_ID,
	name: 'AI agent: SMS only after a human approves by email',
	nodes: [
		{
			id: 'a1b2c3d4-0001-4e5f-8a9b-000000000001',
			name: 'When chat message received',
			type: '@n8n/n8n-nodes-langchain.chatTrigger',
			typeVersion: 1.1,
			position: [0, 0],
			webhookId: 'a1b2c3d4-0001-4e5f-8a9b-0000000000f1',
			parameters: { options: {} },
		},
		{
			id: 'a1b2c3d4-0002-4e5f-8a9b-000000000002',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [260, 0],
			parameters: { options: {} },
		},
		{
			id: 'a1b2c3d4-0003-4e5f-8a9b-000000000003',
			name: REVIEW,
			type: 'n8n-nodes-messaging.messagingEmailHitlTool',
			typeVersion: 1,
			position: [420, 220],
			webhookId: 'a1b2c3d4-0003-4e5f-8a9b-0000000000f3',
			parameters: {
				fromEmail: { __rl: true, mode: 'email', value: 'sender@sandbox.test' },
				to: 'approver@example.com',
				subject: 'The agent wants to send an SMS',
				approvalOptions: { values: { approvalType: 'double' } },
			},
			credentials,
		},
		{
			id: 'a1b2c3d4-0004-4e5f-8a9b-000000000004',
			name: 'Send SMS',
			type: 'n8n-nodes-messaging.messagingSmsTool',
			typeVersion: 1,
			position: [420, 440],
			parameters: {
				descriptionType: 'manual',
				toolDescription: 'Send one SMS to one phone number',
				resource: 'campaign',
				operation: 'sendToNumbers',
				sender: { __rl: true, mode: 'name', value: 'Sandbox' },
				phones: "={{ $fromAI('phone', 'The phone number') }}",
				body: "={{ $fromAI('text', 'The SMS text') }}",
			},
			credentials,
		},
	],
	connections: {
		'When chat message received': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		[REVIEW]: { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		'Send SMS': { ai_tool: [[{ node: REVIEW, type: 'ai_tool', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	active: false,
};

beforeAll(async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.editor.config.js');
	sandbox = await startSandbox({ credentials: EDITOR_SECRETS });
	n8n = await N8nInstance.create({ tarball });
	await n8n.importCredentials([
		{
			...CREDENTIAL,
			type: 'messagingServiceApi',
			data: { baseUrl: sandbox.url, authType: 'apiKey', apiKey: EDITOR_SECRETS.apiKey },
		},
	]);
	await n8n.importWorkflows([workflow]);
	await n8n.start({ owner: EDITOR_OWNER });
	mkdirSync(SCREENSHOTS, { recursive: true });
	selectors.setTestIdAttribute('data-test-id');
	chromium = await launchChromium({ width: 1440, height: 900 });
	page = chromium.page;
	page.setDefaultTimeout(30_000);
	page.setDefaultNavigationTimeout(90_000);
	page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
	page.on('dialog', (dialog) => void dialog.accept());
	await signIn(page, n8n.baseUrl);
});

afterAll(async () => {
	await chromium?.close();
	await n8n?.dispose();
	await sandbox?.close();
});

it('the AI Agent takes Messaging Email as the human review of a Messaging SMS tool; its panel shows the approval fields', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${WORKFLOW_ID}`);
	await page.getByTestId('canvas-wrapper').waitFor();
	const nodes = page.getByTestId('canvas-node');
	await nodes.first().waitFor();
	const names = await nodes.evaluateAll((elements) =>
		elements.map((element) => element.getAttribute('data-node-name')),
	);
	expect(names).toEqual(
		expect.arrayContaining(['When chat message received', 'AI Agent', REVIEW, 'Send SMS']),
	);
	// A node type n8n does not know renders as a placeholder asking to install it.
	expect(await page.getByText(/install this node|node is not currently installed/i).count()).toBe(
		0,
	);
	await page.screenshot({ path: join(SCREENSHOTS, 'hitl-canvas.png') });

	await page.locator(`[data-test-id="canvas-node"][data-node-name="${REVIEW}"]`).dblclick();
	await page.getByTestId('ndv').waitFor();
	const parameters = page.getByTestId('node-parameters');
	await parameters.getByTestId('parameter-input-subject').first().waitFor();
	await page.screenshot({ path: join(SCREENSHOTS, 'hitl-panel.png') });
	const shown = await parameters.evaluate((element) =>
		[...element.querySelectorAll('[data-test-id^="parameter-input-"]')]
			.map((input) => input.getAttribute('data-test-id')!.slice('parameter-input-'.length))
			.filter((name, index, all) => all.indexOf(name) === index),
	);
	// n8n's own Message (the tool call), then the node's fields; resource, operation and response type hidden.
	expect(shown).toEqual(
		expect.arrayContaining([
			'message',
			'fromEmail',
			'to',
			'subject',
			'approvalType',
			'approveLabel',
			'disapproveLabel',
		]),
	);
	for (const hidden of ['resource', 'operation', 'responseType'])
		expect(shown).not.toContain(hidden);
	expect(await parameters.innerText()).toContain('$tool');
	if (process.env.EDITOR_DOCS) {
		copyFileSync(
			join(SCREENSHOTS, 'hitl-canvas.png'),
			join(ROOT, 'docs', 'send-and-wait-ai-agent.png'),
		);
		copyFileSync(
			join(SCREENSHOTS, 'hitl-panel.png'),
			join(ROOT, 'docs', 'send-and-wait-ai-agent-tool.png'),
		);
	}
	expect(consoleErrors).toEqual([]);
});
