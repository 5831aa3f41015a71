/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../../sandbox';
import { webhooksOf } from '../../sandbox/email';
import type { N8nInstance } from '../../scripts/n8n/instance';
import { withFreshWebhookIds } from '../../scripts/n8n/webhook-ids';
import {
	SANDBOX_CREDENTIALS,
	credentialRecords,
	example,
	executionsOf,
	itemsOf as itemsOfNode,
	sandboxRequest,
	sleep,
	waitFor,
	type ApiExecution,
	type Workflow,
} from './helpers';
import { omit } from '../../sandbox/core/records';
import { restartSharedN8n, sharedN8n } from './shared-n8n';

/**
 * The Messaging Email Trigger in a running n8n 2.40.7 (`n8n start`, workflow published): the sandbox, set up with
 * n8n's production URL as its webhook handler, posts its batches there. Every event the sandbox produced must
 * start exactly one item, including a batch the sandbox posts twice (its first 200 "lost"); requests with a wrong,
 * missing or shortened id are refused (404) and start nothing; "Listen for test event" (n8n's test URL) works.
 */
const WORKFLOW_ID = 'e2eEmailWebhook';
const NODE_NAME = 'Email Events';
const WEBHOOK_ID = randomUUID();

let sandbox: Sandbox;
let n8n: N8nInstance;
const timings: Record<string, number> = {};
const notes: Record<string, unknown> = {};

const NO_ID_WORKFLOW_ID = 'e2eEmailWebhookNoId';
const EXAMPLE_FILE = 'email-events-webhook.json';

/** The node's answer to a batch (the summary it gives n8n as `webhookResponse`). */
const summary = (
	received: number,
	emitted: number,
	{ kindNotChosen = 0, repeats = 0, notEvents = 0 } = {},
) => JSON.stringify({ received, emitted, kindNotChosen, repeats, notEvents });

/** 100 opens posted before n8n restarts and again after it. */
const BEFORE_RESTART = Array.from({ length: 100 }, (_, n) => ({
	event: 'opened',
	timestamp: 1_795_428_000 + n,
	message_id: `restart-${n}`,
	recipient: `restart${n}@example.com`,
}));
let exampleUrlPath = '';

/** `webhookId: null` = a node without n8n's random id (an explicit undefined would take the default). */
function workflow(id = WORKFLOW_ID, webhookId: string | null = WEBHOOK_ID): Workflow {
	return {
		id,
		name: `e2e: email events by webhook (${id})`,
		nodes: [
			{
				id: webhookId
					? '4f1b9c2e-3a5d-4e6f-8a7b-9c0d1e2f3a4b'
					: '4f1b9c2e-3a5d-4e6f-8a7b-9c0d1e2f3a4c',
				name: NODE_NAME,
				type: 'n8n-nodes-messaging.messagingEmailTrigger',
				typeVersion: 1,
				position: [0, 0],
				...(webhookId ? { webhookId } : {}),
				parameters: {},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

const control = (method: string, path: string, body?: unknown) =>
	sandboxRequest(sandbox.url, method, `/__sandbox${path}`, body);

const api = (method: string, path: string, body: unknown) =>
	sandboxRequest(sandbox.url, method, path, body, SANDBOX_CREDENTIALS.apiKey);

const send = async (to: string[], subject: string) =>
	String(
		(
			await api('POST', '/smtp/emails', {
				email: {
					text: 'Hi',
					subject,
					from: { email: 'sender@sandbox.test' },
					to: to.map((email) => ({ email })),
				},
			})
		).id,
	);

const itemsOf = (execution: ApiExecution) => itemsOfNode(execution, NODE_NAME);

async function postTo(url: string, body: unknown) {
	const started = Date.now();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: response.status, text: await response.text(), ms: Date.now() - started };
}

afterAll(async () => {
	if (n8n?.pid) timings['n8n pid'] = n8n.pid;
	if (process.env.E2E_DUMP && n8n)
		writeFileSync(
			'/tmp/e2e-webhook-trigger-n8n.log',
			readFileSync(join(n8n.userFolder, 'n8n-start.log'), 'utf8'),
		);
	await sandbox?.close();
	process.stdout.write(`\ne2e webhook trigger timings (ms): ${JSON.stringify(timings, null, 2)}\n`);
	process.stdout.write(`e2e webhook trigger notes: ${JSON.stringify(notes)}\n`);
});

it('the sandbox posts its batches to the published trigger: every event exactly once, strangers refused, test URL works, the secret rotates', async () => {
	const testStarted = Date.now();
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });

	let started = Date.now();
	n8n = await sharedN8n();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	// The second workflow's node has no webhookId (imported with the CLI, never saved in the editor). The example
	// is imported as `npm start` imports it.
	const shipped = example(EXAMPLE_FILE);
	expect(shipped.nodes.filter((node) => 'webhookId' in node)).toEqual([]);
	await n8n.importWorkflows([
		workflow(),
		workflow(NO_ID_WORKFLOW_ID, null),
		withFreshWebhookIds(shipped),
	]);
	await n8n.activate(WORKFLOW_ID);
	await n8n.activate(NO_ID_WORKFLOW_ID);
	timings['import + publish'] = Date.now() - started;
	// Published with the CLI while n8n runs: n8n registers them at its next start, as for a user who published
	// them before starting n8n.
	started = Date.now();
	await restartSharedN8n(n8n);
	timings['restart (REST ready, owner, API key)'] = Date.now() - started;

	const productionUrl = `${n8n.baseUrl}/webhook/${WEBHOOK_ID}/email-events`;
	// What the user does on the service's settings page; the first 200 is "lost", so that batch comes twice.
	await control('POST', '/email/webhooks', { url: productionUrl, loseAnswers: 1 });

	// Events: sends (delivered, not delivered + hard bounce), opens and clicks, unsubscribe, spam, resubscribe,
	// and 600 opens, a soft bounce and a kind the node does not know, queued at once (500 → an immediate post).
	started = Date.now();
	const first = await send(['ann@example.com', 'bob@bounce.test'], 'Order 1');
	await send(['cat@example.com'], 'Order 2');
	await control('POST', '/email/tracking', {
		id: first,
		opens: [{}],
		clicks: [{ url: 'https://example.com/a' }, { url: 'https://example.com/b' }],
	});
	await api('POST', '/smtp/unsubscribe', { emails: [{ email: 'dan@example.com' }] });
	await control('POST', '/email/unsubscribes', {
		unsubscribes: [{ email: 'eve@example.com', spam_complaint: 1 }],
	});
	await api('DELETE', '/smtp/unsubscribe', { emails: ['dan@example.com'] });
	await control('POST', '/email/webhooks/events', {
		events: [
			...Array.from({ length: 600 }, (_, n) => ({
				event: 'opened',
				message_id: `bulk-${n}`,
				recipient: `r${n}@example.com`,
				user_agent: 'UA',
				ip: '203.0.113.9',
			})),
			{ event: 'soft_bounces', message_id: 'sb-1', email: 'full@example.com', task_id: 9 },
			// The service's 2026 spellings, a hard bounce with a 4xx code (the verdict decides), entries that are no events.
			{
				event: 'hard_bounced',
				message_id: 'hb-2026',
				email: 'gone@example.com',
				smtp_server_response_code: 421,
			},
			{ event: 'spam', message_id: 'spam-2026', recipient: 'angry@example.com' },
			{ event: 'new', message_id: 'new-1', recipient: 'x@example.com' },
		],
	});
	await control('POST', '/email/webhooks/flush');
	// The next flush re-posts the batch whose answer was lost.
	await control('POST', '/email/webhooks/flush');
	const webhooks = webhooksOf(sandbox);
	const sent = webhooks.emitted.map((queued) => queued.event);
	expect(sent).toHaveLength(614);
	expect(webhooks.deliveries.map((d) => [d.attempt, d.status, d.delivered, d.seqs.length])).toEqual(
		[
			[1, 200, false, 500],
			[1, 200, true, 114],
			[2, 200, true, 500],
		],
	);
	timings['sandbox posts (3 POSTs)'] = Date.now() - started;
	timings['slowest n8n answer to a batch'] = Math.max(
		...webhooks.deliveries.map((d) => d.durationMs),
	);

	started = Date.now();
	let seen: ApiExecution[] = [];
	const executions = await waitFor(
		'both batches to run',
		async () => {
			seen = await executionsOf(n8n, WORKFLOW_ID);
			const done = seen.filter((execution) => execution.finished);
			return done.reduce((sum, execution) => sum + itemsOf(execution).length, 0) >= 614
				? done
				: undefined;
		},
		180_000,
		1000,
	).catch((error: Error) => {
		throw new Error(
			`${error.message}; executions: ${JSON.stringify(seen.map((e) => [e.id, e.status, e.finished, itemsOf(e).length]))}`,
		);
	});
	timings['runs finished'] = Date.now() - started;
	expect(executions.map((execution) => [execution.status, itemsOf(execution).length])).toEqual([
		['success', 500],
		['success', 114],
	]);
	const items = executions.flatMap(itemsOf);
	const canonical = (value: unknown) => JSON.stringify(value);
	expect(items.map((item) => canonical(item.raw)).sort()).toEqual(sent.map(canonical).sort());
	// The shape, for a few kinds.
	const byRaw = (predicate: (raw: Record<string, unknown>) => boolean) =>
		items.find((item) => predicate(item.raw as Record<string, unknown>))!;
	expect(byRaw((raw) => raw.event === 'hard_bounces')).toMatchObject({
		event: 'bounce',
		email: 'bob@bounce.test',
		sender: 'sender@sandbox.test',
		subject: 'Order 1',
		messageId: first,
		smtpCode: 550,
		smtpSubcode: '5.1.1',
		smtpMessage: 'User unknown',
		bounceType: 'hard',
	});
	expect(byRaw((raw) => raw.url === 'https://example.com/b')).toMatchObject({
		event: 'clicked',
		linkUrl: 'https://example.com/b',
		email: 'ann@example.com',
	});
	expect(byRaw((raw) => raw.event === 'spam_by_user')).toMatchObject({
		event: 'spamComplaint',
		email: 'eve@example.com',
		spamComplaint: true,
	});
	expect(byRaw((raw) => raw.event === 'hard_bounced')).toMatchObject({
		event: 'bounce',
		smtpCode: 421,
		bounceType: 'hard',
	});
	expect(byRaw((raw) => raw.event === 'spam')).toMatchObject({
		event: 'spamComplaint',
		spamComplaint: true,
	});
	expect(byRaw((raw) => raw.event === 'new')).toMatchObject({
		event: 'new',
		email: 'x@example.com',
	});

	// Strangers: a wrong id, no id, the id shortened by one character. n8n answers 404; nothing runs.
	const refused = [
		`${n8n.baseUrl}/webhook/${randomUUID()}/email-events`,
		`${n8n.baseUrl}/webhook/email-events`,
		`${n8n.baseUrl}/webhook/${WEBHOOK_ID.slice(0, -1)}/email-events`,
	];
	for (const url of refused) {
		const answer = await postTo(url, [
			{ event: 'delivered', message_id: 'stranger', recipient: 'z@x.y' },
		]);
		expect([url, answer.status]).toEqual([url, 404]);
	}
	// A node without n8n's random id: its guessable URL <workflow id>/<node name>/email-events must give 404 and
	// start nothing (the node's checkExists refuses such a node; served anyway, the node answers 404 itself).
	const activationError = (await n8n.rest(
		'GET',
		`/rest/active-workflows/error/${NO_ID_WORKFLOW_ID}`,
	)) as { data: unknown };
	notes['activation error of the node without id'] = activationError.data;
	const guessable = await postTo(
		`${n8n.baseUrl}/webhook/${NO_ID_WORKFLOW_ID}/${encodeURIComponent(NODE_NAME.toLowerCase())}/email-events`,
		[{ event: 'delivered', message_id: 'guess', recipient: 'z@x.y' }],
	);
	expect(guessable.status).toBe(404);
	expect(await executionsOf(n8n, NO_ID_WORKFLOW_ID)).toEqual([]);

	// The same batch again at the right URL: acknowledged, every event a repeat, nothing runs.
	const again = await postTo(productionUrl, sent.slice(0, 3));
	expect([again.status, again.text]).toEqual([200, summary(3, 0, { repeats: 3 })]);
	await sleep(2000);
	expect(await executionsOf(n8n, WORKFLOW_ID)).toHaveLength(2);

	// "Listen for test event": n8n registers the test URL for this node, one request runs the node in manual mode.
	started = Date.now();
	const listening = (await n8n.runManually(WORKFLOW_ID, {
		triggerToStartFrom: { name: NODE_NAME },
	})) as { data: { waitingForWebhook?: boolean } };
	expect(listening.data.waitingForWebhook).toBe(true);
	const testEvent = {
		event: 'opened',
		message_id: 'test-1',
		recipient: 'test@example.com',
		timestamp: 1_795_428_000,
	};
	const test = await postTo(`${n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/email-events`, [testEvent]);
	expect([test.status, test.text]).toEqual([200, summary(1, 1)]);
	const manual = await waitFor(
		'the test run',
		async () =>
			(await executionsOf(n8n, WORKFLOW_ID)).find(
				(execution) => execution.finished && itemsOf(execution)[0]?.messageId === 'test-1',
			),
		30_000,
		1000,
	);
	expect(itemsOf(manual)).toEqual([
		expect.objectContaining({
			event: 'opened',
			email: 'test@example.com',
			eventTimeIso: '2026-11-23T10:00:00.000Z',
			raw: testEvent,
		}),
	]);
	// Once used, the test URL is gone again.
	expect(
		(await postTo(`${n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/email-events`, [testEvent])).status,
	).toBe(404);
	timings['test URL'] = Date.now() - started;

	// Rotating the secret: the user replaces the trigger with a new one. The editor sends the new node without a
	// webhookId here (it makes its own); either way n8n's save gives it a new random id, and the old URL is dead.
	// n8n 1.x's save keeps what it gets (its editor makes the id) and re-registers an active workflow at once.
	started = Date.now();
	const current = (await n8n.rest('GET', `/rest/workflows/${WORKFLOW_ID}`)) as {
		data: { versionId: string; nodes: Array<Record<string, unknown>> };
	};
	const saved = (await n8n.rest('PATCH', `/rest/workflows/${WORKFLOW_ID}`, {
		versionId: current.data.versionId,
		nodes: current.data.nodes.map((node) => ({
			...omit(node, 'webhookId'),
			id: randomUUID(),
			...(n8n.major < 2 ? { webhookId: randomUUID() } : {}),
		})),
		connections: {},
	})) as { data: { versionId: string; nodes: Array<{ webhookId?: string }> } };
	const rotatedId = String(saved.data.nodes[0].webhookId);
	expect(rotatedId).toMatch(
		/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
	);
	expect(rotatedId).not.toBe(WEBHOOK_ID);
	if (n8n.major >= 2)
		await n8n.rest('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, {
			versionId: saved.data.versionId,
		});
	// Publishing is reconciled in the background: an empty batch probes the URLs without starting a run.
	const rotatedUrl = `${n8n.baseUrl}/webhook/${rotatedId}/email-events`;
	await waitFor(
		'the new URL to be served',
		async () => ((await postTo(rotatedUrl, [])).status === 200 ? true : undefined),
		60_000,
		500,
	);
	expect((await postTo(productionUrl, [])).status).toBe(404);
	const rotatedEvent = { event: 'opened', message_id: 'rotated-1', recipient: 'new@example.com' };
	const rotated = await postTo(rotatedUrl, [rotatedEvent]);
	expect([rotated.status, rotated.text]).toEqual([200, summary(1, 1)]);
	await waitFor(
		'the run after rotation',
		async () =>
			(await executionsOf(n8n, WORKFLOW_ID)).find(
				(execution) => execution.finished && itemsOf(execution)[0]?.messageId === 'rotated-1',
			),
		30_000,
		1000,
	);
	timings['rotation'] = Date.now() - started;

	// Bodies n8n or the node refuse: over n8n's own 16 MB limit (n8n answers before the node runs), and one event
	// nested 5,000 levels deep (the node answers 400; a recursive key once overflowed the stack: 500).
	const huge = `[{"event":"opened","message_id":"huge","subject":"${'x'.repeat(17 * 1024 * 1024)}"}]`;
	const tooBig = await fetch(rotatedUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: huge,
	}).then(
		async (response) => ({ status: response.status, text: await response.text() }),
		(error: Error) => ({ status: 0, text: `no answer: ${error.message}` }),
	);
	notes['answer to a 17 MB body'] = [tooBig.status, tooBig.text.slice(0, 300)];
	expect(tooBig.status).toBe(500);
	const deep = `[{"event":"opened","recipient":"deep@example.com","x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}]`;
	const deepAnswer = await fetch(rotatedUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: deep,
	});
	expect([deepAnswer.status, JSON.parse(await deepAnswer.text()).notEvents]).toEqual([400, 1]);

	// 100 events before the restart (the next test posts them again).
	const beforeRestart = await postTo(rotatedUrl, BEFORE_RESTART);
	expect([beforeRestart.status, beforeRestart.text]).toEqual([200, summary(100, 100)]);
	rotatedPath = new URL(rotatedUrl).pathname;

	// The example as `npm start` imported it: published the way the editor publishes it, at the URL its panel shows
	// (the node's saved webhookId), a fresh one per import.
	started = Date.now();
	const exampleWorkflow = (await n8n.rest('GET', '/rest/workflows/msgExEmailEvents')) as {
		data: { versionId: string; nodes: Array<{ name: string; webhookId?: string }> };
	};
	const shownId = exampleWorkflow.data.nodes.find(
		(node) => node.name === 'On Email Event',
	)!.webhookId!;
	expect(shownId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
	expect(withFreshWebhookIds(example(EXAMPLE_FILE)).nodes[0].webhookId).not.toBe(shownId);
	await n8n.rest('POST', '/rest/workflows/msgExEmailEvents/activate', {
		versionId: exampleWorkflow.data.versionId,
	});
	const exampleUrl = `${n8n.baseUrl}/webhook/${shownId}/email-events`;
	exampleUrlPath = new URL(exampleUrl).pathname;
	await waitFor(
		'the example to be served at the URL its panel shows',
		async () => ((await postTo(exampleUrl, [])).status === 200 ? true : undefined),
		60_000,
		500,
	);
	const click = {
		event: 'clicked',
		message_id: 'ex-1',
		recipient: 'fan@example.com',
		url: 'https://e.x',
	};
	const exampleAnswer = await postTo(exampleUrl, [click, { ...click, event: 'delivered' }]);
	expect([exampleAnswer.status, exampleAnswer.text]).toEqual([
		200,
		summary(2, 1, { kindNotChosen: 1 }),
	]);
	const exampleRun = await waitFor(
		'the example run',
		async () => (await executionsOf(n8n, 'msgExEmailEvents')).find((e) => e.finished),
		60_000,
		1000,
	);
	expect(exampleRun.status).toBe('success');
	expect(itemsOfNode(exampleRun, 'Update Contact')).toEqual([
		expect.objectContaining({ email: 'fan@example.com', lastEngagement: 'clicked' }),
	]);
	timings['example published and run'] = Date.now() - started;

	// The example imported from its file or pasted in the editor: the editor sends the new workflow to n8n's REST API
	// (the editor gives the node a random id first; n8n 2.x's create gives one to a node without, n8n 1.x's keeps
	// what the editor sent, so on 1.x the request carries the id the editor made). Two imports, two secrets; the
	// saved id is the URL served once published.
	started = Date.now();
	const fromFile = omit(example(EXAMPLE_FILE), 'id');
	const imports = [];
	for (const copy of [1, 2]) {
		const created = (await n8n.rest('POST', '/rest/workflows', {
			...(n8n.major < 2 ? withFreshWebhookIds(fromFile) : fromFile),
			name: `${fromFile.name} (import ${copy})`,
			active: false,
		})) as {
			data: { id: string; versionId: string; nodes: Array<{ name: string; webhookId?: string }> };
		};
		imports.push(created.data);
	}
	const importedIds = imports.map(
		(workflowData) => workflowData.nodes.find((node) => node.name === 'On Email Event')!.webhookId,
	);
	expect(importedIds[0]).toMatch(/^[0-9a-f-]{36}$/);
	expect(importedIds[1]).toMatch(/^[0-9a-f-]{36}$/);
	expect(new Set([...importedIds, shownId]).size).toBe(3);
	await n8n.rest('POST', `/rest/workflows/${imports[0].id}/activate`, {
		versionId: imports[0].versionId,
	});
	const importedUrl = `${n8n.baseUrl}/webhook/${importedIds[0]}/email-events`;
	await waitFor(
		'the imported copy to be served at its saved id',
		async () => ((await postTo(importedUrl, [])).status === 200 ? true : undefined),
		60_000,
		500,
	);
	expect((await postTo(importedUrl, [click])).text).toBe(summary(1, 1));
	timings['example imported through the REST API and published'] = Date.now() - started;

	const pid = n8n.pid!;
	await n8n.stop();
	expect(() => process.kill(pid, 0)).toThrow();
	timings.total = Date.now() - testStarted;
});

let rotatedPath = '';

it('after an n8n restart, events posted again are repeats: nothing runs again (the memory is in the database)', async () => {
	expect(rotatedPath).not.toBe('');
	let started = Date.now();
	await restartSharedN8n(n8n);
	timings['restart (REST ready)'] = Date.now() - started;
	started = Date.now();
	const url = `${n8n.baseUrl}${rotatedPath}`;
	// n8n answers 404 until it has registered the published webhooks again (the service would post again).
	await waitFor(
		'the webhook to be served again',
		async () => ((await postTo(url, [])).status === 200 ? true : undefined),
		60_000,
		500,
	);
	timings['webhook served again after'] = Date.now() - started;
	const executionsBefore = (await executionsOf(n8n, WORKFLOW_ID)).length;
	const again = await postTo(url, BEFORE_RESTART);
	expect([again.status, again.text]).toEqual([200, summary(100, 0, { repeats: 100 })]);
	const fresh = { ...BEFORE_RESTART[0], message_id: 'after-restart' };
	const mixed = await postTo(url, [BEFORE_RESTART[1], fresh]);
	expect([mixed.status, mixed.text]).toEqual([200, summary(2, 1, { repeats: 1 })]);
	const runs = await waitFor(
		'the run after the restart',
		async () => {
			const all = await executionsOf(n8n, WORKFLOW_ID);
			return all.length > executionsBefore && all.every((e) => e.finished) ? all : undefined;
		},
		60_000,
		1000,
	);
	expect(runs.slice(executionsBefore).map((e) => itemsOf(e).map((item) => item.messageId))).toEqual(
		[['after-restart']],
	);
	// The example's URL is the same after the restart.
	expect((await postTo(`${n8n.baseUrl}${exampleUrlPath}`, [])).status).toBe(200);
});
