/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox';
import type { OutboxMessage } from '../../sandbox/outbox';
import { DEFAULT_N8N_VERSION, type N8nInstance } from '../../scripts/n8n/instance';
import {
	API_KEY_CREDENTIAL_ID,
	API_KEY_CREDENTIAL_NAME,
	SANDBOX_CREDENTIALS,
	credentialRecords,
	example,
	waitFor,
	type ApiExecution,
	type Workflow,
} from './helpers';
import {
	executionIdOf,
	executionOf,
	finishedExecution,
	lastItemsOf,
	outboxKey,
	outboxOf,
	postToWebhook,
	requestPage,
	untilWaiting,
} from './send-and-wait-helpers';
import { sharedN8n } from './shared-n8n';
import { launchChromium } from '../editor/chromium';

/**
 * Send and Wait for Response in a running n8n 2.40.7 (`n8n start`): a published workflow (Webhook → Ask) starts,
 * the Ask node sends through the sandbox and the execution waits. The test reads the message from the sandbox's
 * outbox, opens every link 5 times with GET and once with HEAD (the execution still waits: a link scanner answers
 * nothing), then presses the page's button (POST) and checks the execution's output. n8n itself checks the links'
 * signatures (401) and answers "No action required" after the first answer.
 */
const ASK = 'Ask';
const timings: Record<string, number> = {};
let sandbox: Sandbox;
let n8n: N8nInstance;

interface Case {
	key: string;
	node: 'messagingEmail' | 'messagingSms';
	parameters: Record<string, unknown>;
}

const emailParameters = (subject: string, extra: Record<string, unknown> = {}) => ({
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: { __rl: true, mode: 'email', value: 'sender@sandbox.test' },
	to: 'Ann <ann@example.com>',
	subject,
	message: '=Refund {{ $json.body.amount }} EUR for order {{ $json.body.order }}?',
	...extra,
});

const CASES: Case[] = [
	{
		key: 'approve',
		node: 'messagingEmail',
		parameters: emailParameters('e2e approve', {
			approvalOptions: { values: { approvalType: 'double' } },
		}),
	},
	{
		key: 'decline',
		node: 'messagingEmail',
		parameters: emailParameters('e2e decline', {
			approvalOptions: { values: { approvalType: 'double', disapproveLabel: 'Refuse' } },
		}),
	},
	{
		key: 'two',
		node: 'messagingEmail',
		parameters: emailParameters('e2e two recipients', {
			to: 'Ann <ann@example.com>, bob@example.com',
			approvalOptions: { values: { approvalType: 'double' } },
		}),
	},
	{
		key: 'loop',
		node: 'messagingEmail',
		parameters: emailParameters('e2e ask again', {
			approvalOptions: { values: { approvalType: 'double' } },
		}),
	},
	{
		key: 'review',
		node: 'messagingEmail',
		parameters: emailParameters('e2e review', {
			responseType: 'reviewAndEdit',
			reviewFields: {
				values: [
					{
						fieldLabel: 'Subject',
						fieldType: 'text',
						fieldValue: '=Refund {{ $json.body.order }}',
					},
					{ fieldLabel: 'Amount', fieldType: 'number', fieldValue: '={{ $json.body.amount }}' },
				],
			},
			approvalOptions: { values: { comment: 'onDecline' } },
		}),
	},
	{
		key: 'browser',
		node: 'messagingEmail',
		parameters: emailParameters('e2e review in Chromium', {
			responseType: 'reviewAndEdit',
			reviewFields: {
				values: [
					{ fieldLabel: 'Subject', fieldType: 'text', fieldValue: '={{ $json.body.subject }}' },
					{ fieldLabel: 'Draft', fieldType: 'textarea', fieldValue: '={{ $json.body.draft }}' },
					{ fieldLabel: 'Amount', fieldType: 'number', fieldValue: '={{ $json.body.amount }}' },
				],
			},
		}),
	},
	{
		key: 'freeText',
		node: 'messagingEmail',
		parameters: emailParameters('e2e free text', { responseType: 'freeText' }),
	},
	{
		key: 'form',
		node: 'messagingEmail',
		parameters: emailParameters('e2e form', {
			responseType: 'customForm',
			formFields: {
				values: [
					{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
					{
						fieldLabel: 'Reason',
						fieldType: 'dropdown',
						fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] },
					},
					{
						fieldLabel: 'Checks',
						fieldType: 'checkbox',
						fieldOptions: { values: [{ option: 'Photo' }, { option: 'Receipt' }] },
					},
				],
			},
		}),
	},
	{
		key: 'timeout',
		node: 'messagingEmail',
		parameters: emailParameters('e2e timeout', {
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 0.5, resumeUnit: 'minutes' },
				},
			},
		}),
	},
	{
		key: 'sms',
		node: 'messagingSms',
		parameters: {
			resource: 'campaign',
			operation: 'sendAndWait',
			sender: { __rl: true, mode: 'name', value: 'Sandbox' },
			phone: '+380986235698',
			message: '=Refund {{ $json.body.amount }} EUR?',
			approvalOptions: { values: { approvalType: 'double' } },
		},
	},
	{
		key: 'smsTwo',
		node: 'messagingSms',
		parameters: {
			resource: 'campaign',
			operation: 'sendAndWait',
			sender: { __rl: true, mode: 'name', value: 'Sandbox' },
			phone: '+380986235698, +380631234567',
			message: 'Refund?',
			approvalOptions: { values: { approvalType: 'double' } },
		},
	},
];

const paths = Object.fromEntries(CASES.map((entry) => [entry.key, randomUUID()]));

function workflow(entry: Case): Workflow {
	return {
		id: `e2eSendAndWait${entry.key[0].toUpperCase()}${entry.key.slice(1)}`,
		name: `e2e: send and wait (${entry.key})`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: paths[entry.key],
				parameters: { httpMethod: 'POST', path: paths[entry.key], options: {} },
			},
			{
				id: randomUUID(),
				name: ASK,
				type: `n8n-nodes-messaging.${entry.node}`,
				typeVersion: 1,
				position: [240, 0],
				webhookId: randomUUID(),
				parameters: entry.parameters,
				credentials: {
					messagingServiceApi: { id: API_KEY_CREDENTIAL_ID, name: API_KEY_CREDENTIAL_NAME },
				},
			},
		],
		connections: {
			Start: { main: [[{ node: ASK, type: 'main', index: 0 }]] },
			// "Ask again": every answer asks once more, so the node waits a second time in one execution.
			...(entry.key === 'loop'
				? { [ASK]: { main: [[{ node: ASK, type: 'main', index: 0 }]] } }
				: {}),
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/**
 * The reminder/escalation example as it is, except: a Webhook starts it instead of the manual trigger (`n8n
 * execute` cannot wait for an answer), and each wait limit is half a minute instead of hours. n8n's wait tracker
 * looks for due executions once a minute, so the two timeouts take about two minutes: too slow for every CI run,
 * so it runs with E2E_SLOW=1 only.
 */
const ESCALATION_PATH = randomUUID();
const runEscalation = process.env.E2E_SLOW === '1';
function escalationWorkflow(): Workflow {
	const workflow = example('approve-refund-reminder-escalation.json');
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			if (node.type === 'n8n-nodes-base.manualTrigger')
				return {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: ESCALATION_PATH,
					parameters: { httpMethod: 'POST', path: ESCALATION_PATH, options: {} },
				};
			if (node.type !== 'n8n-nodes-messaging.messagingEmail') return node;
			return {
				...node,
				parameters: {
					...node.parameters,
					options: {
						limitWaitTime: {
							values: { limitType: 'afterTimeInterval', resumeAmount: 0.5, resumeUnit: 'minutes' },
						},
					},
				},
			};
		}),
	};
}

/**
 * Starts a case's workflow and waits for its message(s) in the sandbox (one per recipient); returns the first
 * message, its links, every message and the execution id.
 */
async function start(
	key: string,
	count = 1,
	body: Record<string, unknown> = { amount: 120, order: 1042 },
) {
	// The message is the one new in the outbox, whatever its place (the outbox's times have whole seconds).
	const before = new Set((await outboxOf(sandbox.url)).map(outboxKey));
	await postToWebhook(n8n, paths[key], body, `the webhook of ${key}`);
	const messages = await waitFor(
		`the messages of ${key}`,
		async () => {
			const fresh = (await outboxOf(sandbox.url)).filter((entry) => !before.has(outboxKey(entry)));
			if (fresh.length > count)
				throw new Error(`${key} sent ${fresh.length} messages, not ${count}`);
			return fresh.length === count ? fresh.reverse() : undefined;
		},
		30_000,
		250,
	);
	const [message] = messages;
	const executionId = executionIdOf(message.links[0]);
	// The node sends before n8n has saved the execution as waiting; until then its pages answer 409 ("running
	// already"), which a loaded machine showed.
	await untilWaiting(n8n, executionId, `the execution of ${key} to wait`);
	return { message, messages, links: message.links, executionId };
}

const askOutput = (run: ApiExecution) => lastItemsOf(run, ASK);

/** Every link: GET 5 times and HEAD once, each answered with the page; the execution still waits. */
async function scan(links: string[], executionId: string, expectOnPage: string) {
	for (const link of links) {
		for (let n = 0; n < 5; n++) {
			const answer = await requestPage(link);
			expect([answer.status, answer.text.includes(expectOnPage)]).toEqual([200, true]);
			expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
		}
		const head = await requestPage(link, 'HEAD');
		expect([head.status, head.text]).toEqual([200, '']);
	}
	const run = await executionOf(n8n, executionId);
	expect([run.status, run.finished]).toEqual(['waiting', false]);
}

/** Send and Wait is tested on n8n 2.x (`npm run e2e`); n8n 1.x runs it in none of its suites. */
const onN8n2 = Number(DEFAULT_N8N_VERSION.split('.')[0]) >= 2;
const describeOn2 = onN8n2 ? describe : describe.skip;

/**
 * The run warning the Ask node adds when the link it sends points at a loopback host: this n8n runs without
 * WEBHOOK_URL on 127.0.0.1, so it signs its links with http://127.0.0.1:<port>. n8n 2.40.7 keeps a node's hints
 * in its task data (`runData[node][run].hints`, n8n-core workflow-execute.js: processNodeOutput), saved with the
 * execution: the waiting run holds it.
 */
async function expectLoopbackWarning(executionId: string, link: string) {
	const run = await executionOf(n8n, executionId);
	expect(new URL(link).host).toBe(new URL(n8n.baseUrl).host);
	const [sending] = (run.data?.resultData.runData[ASK] ?? []) as Array<{ hints?: unknown }>;
	// (An SMS of 2 parts adds its own warning after this one.)
	expect(
		(sending?.hints as Array<{ message: string }> | undefined)?.filter((hint) =>
			hint.message.includes('WEBHOOK_URL'),
		),
	).toEqual([
		{
			message: `The answer link points at ${new URL(link).host}, which only the n8n machine itself can open. Set WEBHOOK_URL to n8n's public address (on the main process and on every worker in queue mode) so that recipients can answer.`,
			type: 'warning',
			location: 'outputPane',
		},
	]);
}

const respondedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const ann = { email: 'ann@example.com', name: 'Ann' };

beforeAll(async () => {
	if (!onN8n2) return;
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	const started = Date.now();
	n8n = await sharedN8n();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	const workflows = [...CASES.map(workflow), ...(runEscalation ? [escalationWorkflow()] : [])];
	await n8n.importWorkflows(workflows);
	for (const entry of workflows) await n8n.activateNow(entry.id);
	timings['import + publish'] = Date.now() - started;
});

afterAll(async () => {
	if (process.env.E2E_DUMP && n8n)
		writeFileSync(
			'/tmp/e2e-send-and-wait-n8n.log',
			readFileSync(join(n8n.userFolder, 'n8n-start.log'), 'utf8'),
		);
	await sandbox?.close();
	process.stdout.write(`\ne2e send-and-wait timings (ms): ${JSON.stringify(timings)}\n`);
});

describeOn2(`Send and Wait for Response in n8n ${DEFAULT_N8N_VERSION}`, () => {
	let timeoutCase: { executionId: string; startedAt: number } | undefined;

	test('n8n registers the AI-agent human review tools of both nodes (…HitlTool)', async () => {
		// The editor's list of node types (n8n generates the …HitlTool types at start-up and writes them there).
		const all = (await (
			await fetch(`${n8n.baseUrl}/types/nodes.json`, { headers: { Cookie: n8n.authCookie ?? '' } })
		).json()) as Array<{
			name: string;
			subtitle?: string;
			outputs: unknown;
			properties: Array<{ name: string; type: string; default: unknown }>;
		}>;
		const tools = all.filter(
			(type) => type.name.endsWith('HitlTool') && type.name.startsWith('n8n-nodes-messaging.'),
		);
		expect(tools.map((type) => [type.name, type.subtitle]).sort()).toEqual([
			['n8n-nodes-messaging.messagingEmailHitlTool', 'Send and wait'],
			['n8n-nodes-messaging.messagingSmsHitlTool', 'Send and wait'],
		]);
		const hidden = (name: string) =>
			tools
				.find((type) => type.name === name)!
				.properties.filter((property) =>
					['resource', 'operation', 'responseType'].includes(property.name),
				)
				.map((property) => JSON.stringify([property.name, property.type, property.default]))
				// One Operation property per resource: n8n hides each of them.
				.filter((entry, index, list) => list.indexOf(entry) === index)
				.map((entry) => JSON.parse(entry) as unknown);
		expect(hidden('n8n-nodes-messaging.messagingEmailHitlTool')).toEqual([
			['resource', 'hidden', 'email'],
			['operation', 'hidden', 'sendAndWait'],
			['responseType', 'hidden', 'approval'],
		]);
		expect(hidden('n8n-nodes-messaging.messagingSmsHitlTool')).toEqual([
			['resource', 'hidden', 'campaign'],
			['operation', 'hidden', 'sendAndWait'],
			['responseType', 'hidden', 'approval'],
		]);
		if (process.env.E2E_DUMP)
			writeFileSync('/tmp/e2e-hitl-types.json', JSON.stringify(tools, null, 2));
	});

	test('wait limit: the execution resumes by itself with the timeout output (started first, checked last)', async () => {
		const started = Date.now();
		const { links, executionId } = await start('timeout');
		// The message can reach the outbox before n8n has stored the execution as waiting.
		await untilWaiting(n8n, executionId, 'the timeout case to wait');
		// While it waits, the page evaluates the message against the stored input: still the Webhook's item.
		expect((await requestPage(links[0])).text).toContain('Refund 120 EUR for order 1042?');
		timeoutCase = { executionId, startedAt: started };
	});

	(runEscalation ? test : test.skip)(
		'the reminder/escalation example (E2E_SLOW=1): no answer → a reminder; none again → the director, whose Approve finishes it',
		async () => {
			const started = Date.now();
			const before = new Set((await outboxOf(sandbox.url)).map(outboxKey));
			const response = await fetch(`${n8n.baseUrl}/webhook/${ESCALATION_PATH}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{}',
			});
			expect(response.status).toBe(200);
			const emails = async () =>
				(await outboxOf(sandbox.url)).filter(
					(entry): entry is Extract<OutboxMessage, { kind: 'email' }> =>
						!before.has(outboxKey(entry)) && entry.kind === 'email',
				);
			const director = await waitFor(
				'the email to the director',
				async () => (await emails()).find((entry) => entry.subject.startsWith('Escalated:')),
				240_000,
				1000,
			);
			expect((await emails()).map((entry) => [entry.to, entry.subject]).reverse()).toEqual([
				[['manager@example.com'], 'Refund for order 1042: 1200 EUR'],
				[['manager@example.com'], 'Reminder: refund for order 1042: 1200 EUR'],
				[['director@example.com'], 'Escalated: Refund for order 1042: 1200 EUR'],
			]);
			const executionId = executionIdOf(director.links[0]);
			await untilWaiting(n8n, executionId, 'the director wait');
			await requestPage(director.links[0], 'POST', 'approved=true');
			const run = await finishedExecution(n8n, executionId);
			timings['escalation example: start to finished'] = Date.now() - started;
			expect(run.status).toBe('success');
			expect(lastItemsOf(run, 'Refund Approved')).toEqual([
				{ order: 1042, refund: 'approved', decidedBy: 'director@example.com' },
			]);
			expect(run.data?.resultData.runData['Refund Not Approved']).toBeUndefined();
		},
	);

	test('approval: scanned links answer nothing; a tampered or missing signature gets 401; Approve finishes with {approved: true}; later answers see "No action required"', async () => {
		const { message, links, executionId } = await start('approve');
		expect(message.kind).toBe('email');
		expect(links).toHaveLength(2);
		expect(links.map((link) => new URL(link).searchParams.get('approved'))).toEqual([
			'true',
			'false',
		]);
		await scan(links, executionId, 'Refund 120 EUR for order 1042?');
		await expectLoopbackWarning(executionId, links[0]);

		const url = new URL(links[0]);
		const signature = url.searchParams.get('signature')!;
		url.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
		for (const method of ['GET', 'POST'] as const) {
			const tampered = await requestPage(
				url.toString(),
				method,
				method === 'POST' ? 'approved=true' : undefined,
			);
			expect([tampered.status, tampered.text.includes('Invalid Form Link')]).toEqual([401, true]);
		}
		url.searchParams.delete('signature');
		expect((await requestPage(url.toString(), 'POST', 'approved=true')).status).toBe(401);
		const changed = new URL(links[1]);
		changed.searchParams.set('approved', 'true'); // the decline link turned into an approve link
		expect((await requestPage(changed.toString())).status).toBe(401);
		expect((await executionOf(n8n, executionId)).status).toBe('waiting');

		const started = Date.now();
		const answer = await requestPage(links[0], 'POST', 'approved=true');
		expect([answer.status, answer.text.includes('Your answer was received')]).toEqual([200, true]);
		const run = await finishedExecution(n8n, executionId);
		timings['approve: POST to finished'] = Date.now() - started;
		expect(run.status).toBe('success');
		expect(askOutput(run)).toEqual([{ data: { approved: true, respondedAt }, responder: ann }]);

		for (const link of links) {
			const again = await requestPage(link, 'POST', 'approved=false');
			expect([again.status, again.text.includes('No action required')]).toEqual([200, true]);
			expect((await requestPage(link)).text).toContain('No action required');
		}
		expect(askOutput(await executionOf(n8n, executionId))).toEqual([
			{ data: { approved: true, respondedAt }, responder: ann },
		]);
	});

	test('two recipients: an email each with their own links; Bob declines first and is named; Ann, too late, sees "No action required"', async () => {
		const { messages, executionId } = await start('two', 2);
		expect(messages.map((message) => message.kind === 'email' && message.to)).toEqual([
			['ann@example.com'],
			['bob@example.com'],
		]);
		const [annLinks, bobLinks] = messages.map((message) => message.links);
		expect(annLinks.map((link) => new URL(link).searchParams.get('to'))).toEqual([
			'ann@example.com',
			'ann@example.com',
		]);
		expect(bobLinks.map((link) => new URL(link).searchParams.get('to'))).toEqual([
			'bob@example.com',
			'bob@example.com',
		]);
		await requestPage(bobLinks[1], 'POST', 'approved=false');
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([
			{ data: { approved: false, respondedAt }, responder: { email: 'bob@example.com' } },
		]);
		const late = await requestPage(annLinks[0], 'POST', 'approved=true');
		expect([late.status, late.text.includes('No action required')]).toEqual([200, true]);
		expect(askOutput(await executionOf(n8n, executionId))).toEqual([
			{ data: { approved: false, respondedAt }, responder: { email: 'bob@example.com' } },
		]);
	});

	test('asked again in one execution: the second email has links of its own; the first one\'s link shows "No action required"', async () => {
		const { links: round1, executionId } = await start('loop');
		const before = new Set((await outboxOf(sandbox.url)).map(outboxKey));
		await requestPage(round1[1], 'POST', 'approved=false');
		const second = await waitFor(
			'the second email of the loop',
			async () => (await outboxOf(sandbox.url)).find((entry) => !before.has(outboxKey(entry))),
			60_000,
			250,
		);
		const round2 = second.links;
		expect(new URL(round2[0]).pathname).toBe(new URL(round1[0]).pathname);
		expect(round2[0]).not.toBe(round1[0]);
		await untilWaiting(n8n, executionId, 'the second wait');
		const stale = await requestPage(round1[0], 'POST', 'approved=true');
		expect([stale.status, stale.text.includes('No action required')]).toEqual([200, true]);
		expect((await executionOf(n8n, executionId)).status).toBe('waiting');
		const answered = await requestPage(round2[0], 'POST', 'approved=true');
		expect(answered.status).toBe(200);
		const run = await waitFor(
			'the second answer in the run data',
			async () => {
				const current = await executionOf(n8n, executionId);
				// Answer 1, answer 2, and the third wait's placeholder (n8n replaces it when that wait ends).
				const runs = current.data?.resultData.runData[ASK] ?? [];
				return runs.length >= 3 && current.status === 'waiting' ? runs : undefined;
			},
			60_000,
			500,
		);
		expect(run.slice(0, 2).map((entry) => entry.data?.main[0]?.[0]?.json.data)).toEqual([
			{ approved: false, respondedAt },
			{ approved: true, respondedAt },
		]);
	});

	test('review and edit: the page shows the values pre-filled from the workflow; Approve gives the edited values', async () => {
		const { links, executionId } = await start('review');
		await scan(links, executionId, 'value="Refund 1042"');
		expect((await requestPage(links[0])).text).toContain('value="120"');
		const refused = await requestPage(links[0], 'POST', 'field-0=x&field-1=0x10&approved=true');
		expect(refused.status).toBe(400);
		expect((await executionOf(n8n, executionId)).status).toBe('waiting');
		await requestPage(links[0], 'POST', 'field-0=Refund+1042+(partial)&field-1=100&approved=true');
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([
			{
				data: {
					approved: true,
					Subject: 'Refund 1042 (partial)',
					Amount: 100,
					comment: null, // Comment "required on Decline": none given with the approval
					respondedAt,
				},
				responder: ann,
			},
		]);
	});

	test("review and edit in Chromium: the email's link shows the draft pre-filled (markup and quotes as text); an edited field and Approve finish with the edited values", async () => {
		const started = Date.now();
		const subject = `Refund "1042" <script>alert('x')</script>`;
		const draft = `Dear Ann,\nwe'll refund <b>120</b> EUR & "more".`;
		const { links, executionId } = await start('browser', 1, { subject, draft, amount: 120 });
		expect(links).toHaveLength(1);
		// The page as sent: every value escaped in the markup.
		const html = (await requestPage(links[0])).text;
		expect(html).toContain(
			'value="Refund &quot;1042&quot; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"',
		);
		expect(html).not.toContain('<script>');
		const chromium = await launchChromium();
		try {
			const dialogs: string[] = [];
			chromium.page.on('dialog', (dialog) => {
				dialogs.push(dialog.message());
				void dialog.dismiss();
			});
			await chromium.page.goto(links[0]);
			// What the person sees: the values as text, exactly as the workflow gave them; no script ran.
			expect(await chromium.page.locator('#f0').inputValue()).toBe(subject);
			expect(await chromium.page.locator('#f1').inputValue()).toBe(draft);
			expect(await chromium.page.locator('#f2').inputValue()).toBe('120');
			expect(await chromium.page.locator('script').count()).toBe(0);
			expect((await executionOf(n8n, executionId)).status).toBe('waiting');
			await chromium.page.locator('#f2').fill('95.5');
			await chromium.page.getByRole('button', { name: 'Approve' }).click();
			await chromium.page.getByText('Your answer was received').waitFor();
			expect(dialogs).toEqual([]);
		} finally {
			await chromium.close();
		}
		const run = await finishedExecution(n8n, executionId);
		timings['review in Chromium: start to finished'] = Date.now() - started;
		expect(askOutput(run)).toEqual([
			{
				data: { approved: true, Subject: subject, Draft: draft, Amount: 95.5, respondedAt },
				responder: ann,
			},
		]);
	});

	test('approval: Decline finishes with {approved: false}', async () => {
		const { links, executionId } = await start('decline');
		await scan(links, executionId, 'Refuse');
		const answer = await requestPage(links[1], 'POST', 'approved=false');
		expect(answer.status).toBe(200);
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([{ data: { approved: false, respondedAt }, responder: ann }]);
	});

	test('free text: the text box page; the text finishes with {text}', async () => {
		const { links, executionId } = await start('freeText');
		expect(links).toHaveLength(1);
		await scan(links, executionId, '<textarea');
		const refused = await requestPage(links[0], 'POST', 'field-0=');
		expect(refused.status).toBe(400);
		expect((await executionOf(n8n, executionId)).status).toBe('waiting');
		await requestPage(links[0], 'POST', 'field-0=' + encodeURIComponent('Yes, <b>half</b> only'));
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([
			{ data: { text: 'Yes, <b>half</b> only', respondedAt }, responder: ann },
		]);
	});

	test('custom form: the form page; the fields finish under their labels', async () => {
		const { links, executionId } = await start('form');
		await scan(links, executionId, 'name="field-2"');
		const refused = await requestPage(links[0], 'POST', 'field-1=Damaged');
		expect([refused.status, refused.text.includes('Amount: required')]).toEqual([400, true]);
		await requestPage(links[0], 'POST', 'field-0=99.5&field-1=Late&field-2=Photo&field-2=Receipt');
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([
			{
				data: { Amount: 99.5, Reason: 'Late', Checks: ['Photo', 'Receipt'], respondedAt },
				responder: ann,
			},
		]);
	});

	test('SMS: one SMS with one link; the page offers both choices; Approve finishes with {approved: true}', async () => {
		const { message, links, executionId } = await start('sms');
		expect(message.kind).toBe('sms');
		if (message.kind !== 'sms') return;
		expect(links).toHaveLength(1);
		expect(message.body).toBe(`Refund 120 EUR?\n${links[0]}`);
		expect(message.phones).toEqual(['380986235698']);
		await scan(links, executionId, 'value="false"');
		await expectLoopbackWarning(executionId, links[0]);
		await requestPage(links[0], 'POST', 'approved=true');
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([{ data: { approved: true, respondedAt } }]);
		expect((await requestPage(links[0], 'POST', 'approved=false')).text).toContain(
			'No action required',
		);
	});

	test('SMS to two phones: an SMS each with a link of its own; the second phone answers first and is named; the first, too late, sees "No action required"', async () => {
		const { messages, executionId } = await start('smsTwo', 2);
		const sms = messages.map((message) => (message.kind === 'sms' ? message : undefined));
		expect(sms.map((message) => message?.phones)).toEqual([['380986235698'], ['380631234567']]);
		const [first, second] = sms.map((message) => message!.links[0]);
		expect([first, second].map((link) => new URL(link).searchParams.get('phone'))).toEqual([
			'380986235698',
			'380631234567',
		]);
		expect(sms.map((message) => message?.body)).toEqual([
			`Refund?\n${first}`,
			`Refund?\n${second}`,
		]);
		await requestPage(second, 'POST', 'approved=true');
		const run = await finishedExecution(n8n, executionId);
		expect(askOutput(run)).toEqual([
			{ data: { approved: true, respondedAt }, responder: { phone: '380631234567' } },
		]);
		const late = await requestPage(first, 'POST', 'approved=false');
		expect([late.status, late.text.includes('No action required')]).toEqual([200, true]);
	});

	test('wait limit: resumed by n8n (it looks for due executions every minute) with {timedOut: true, approved: false}', async () => {
		expect(timeoutCase).toBeDefined();
		const run = await finishedExecution(n8n, timeoutCase!.executionId);
		timings['timeout: start to finished'] = Date.now() - timeoutCase!.startedAt;
		expect(run.status).toBe('success');
		const [output] = askOutput(run);
		expect(output.data).toEqual({ timedOut: true, approved: false });
		expect(output.body).toEqual({ amount: 120, order: 1042 });
		const [link] = (await outboxOf(sandbox.url)).find(
			(entry) => entry.kind === 'email' && entry.subject === 'e2e timeout',
		)!.links;
		expect((await requestPage(link, 'POST', 'approved=true')).text).toContain('No action required');
	});
});
