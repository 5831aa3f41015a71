/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { seedDemo } from '../../scripts/demo-seed';
import {
	demoExamples,
	registerEmailEventsHandler,
	SANDBOX_URL_MARK,
} from '../../scripts/demo-examples';
import { startSandbox, type Sandbox } from '../../sandbox';

/**
 * `npm start` seeds the sandbox so that every example shows its point on the first try: the bounce example's
 * lookup table knows the bounced addresses (so its "Remove from SMS List" branch runs, on a list that holds the
 * phones), and the "SMS not delivered" example's phones reach status 12 Not delivered.
 */
let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox();
	await seedDemo(sandbox);
});
afterAll(async () => await sandbox.close());

type ExampleNode = { name: string; type: string; parameters: Record<string, unknown> };
const example = (file: string) =>
	JSON.parse(readFileSync(join(__dirname, '../../examples', file), 'utf8')) as {
		nodes: ExampleNode[];
	};

/** The object literal a Code node's lookup table is written as (`'key': value,` lines), as key → line. */
function lookupTable(jsCode: string): Record<string, string> {
	return Object.fromEntries(
		[...jsCode.matchAll(/^\s*'([^']+)':\s*(.+?),?$/gm)].map(([, key, value]) => [key, value]),
	);
}

const control = async (path: string) =>
	(await (await fetch(`${sandbox.url}/__sandbox${path}`)).json()) as Record<string, unknown>;
const api = async (path: string) =>
	(await (
		await fetch(`${sandbox.url}${path}`, {
			headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
		})
	).json()) as unknown;

test('the bounce example: every seeded bounce is in its lookup table, and the list it removes from holds the phone', async () => {
	const nodes = example('bounce-cleanup-trigger.json').nodes;
	const table = lookupTable(
		String(nodes.find((node) => node.name === 'Look Up Phone')!.parameters.jsCode),
	);
	const listId = Number(
		(
			nodes.find((node) => node.name === 'Remove from SMS List')!.parameters.addressBookId as {
				value: string;
			}
		).value,
	);
	const bounces = (await api(`/smtp/bounces/day?limit=100`)) as {
		emails: Array<{ email_to: string }>;
	};
	const bounced = bounces.emails.map((bounce) => bounce.email_to).sort();
	expect(bounced).toEqual(['ann@bounce.test', 'bob@bounce.test']);
	const state = (await control('/sms/state')) as {
		lists: Array<{ id: number; name: string; phones: Record<string, unknown> }>;
	};
	const list = state.lists.find((entry) => entry.id === listId)!;
	for (const email of bounced) {
		const phone = table[email]?.replace(/'/g, '');
		expect(phone).toMatch(/^\d+$/);
		expect(Object.keys(list.phones)).toContain(phone);
	}
	expect(list.name).toBe('Customers');
});

test('the "SMS not delivered" example: its looked-up phones are in a campaign, stay Sent, and turn Not delivered when the outbox marks them', async () => {
	const nodes = example('sms-not-delivered-email-fallback.json').nodes;
	const table = lookupTable(
		String(nodes.find((node) => node.name === 'Look Up Customer')!.parameters.jsCode),
	);
	const statuses = async () => {
		const state = (await control('/sms/state')) as {
			campaigns: Array<{ id: number; phones: Array<{ phone: string; status: number }> }>;
		};
		return Object.fromEntries(
			state.campaigns.flatMap((campaign) =>
				campaign.phones.map((entry) => [entry.phone, { id: campaign.id, status: entry.status }]),
			),
		);
	};
	sandbox.clock.advance(60 * 60_000);
	const waiting = await statuses();
	expect(Object.keys(table).sort()).toEqual(Object.keys(waiting).sort());
	for (const phone of Object.keys(table)) expect(waiting[phone].status).toBe(1);

	const outbox = (await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()) as Array<{
		kind: string;
		actions?: Array<{ phone: string; label: string; method: string; route: string; body: object }>;
	}>;
	const sms = outbox.find((entry) => entry.kind === 'sms')!;
	for (const phone of Object.keys(table)) {
		const button = sms.actions!.find(
			(action) => action.phone === phone && action.label === 'Not delivered',
		)!;
		const response = await fetch(`${sandbox.url}${button.route}`, {
			method: button.method,
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(button.body),
		});
		expect(response.status).toBe(200);
	}
	const marked = await statuses();
	for (const phone of Object.keys(table)) expect(marked[phone].status).toBe(12);
});

test('the examples as npm start imports them: the sandbox address in the sticky notes, no hard-coded port, the email-events trigger registered as the webhook handler', async () => {
	const folder = join(__dirname, '../../examples');
	for (const name of readdirSync(folder).filter((file) => file.endsWith('.json')))
		expect(readFileSync(join(folder, name), 'utf8')).not.toMatch(
			/127\.0\.0\.1:8787|localhost:8787/,
		);

	const workflows = demoExamples(folder, 'http://127.0.0.1:9911') as Array<{
		name: string;
		nodes: Array<{ type: string; webhookId?: string; parameters: { content?: string } }>;
	}>;
	const notes = workflows.flatMap((workflow) =>
		workflow.nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => node.parameters.content!),
	);
	expect(notes.join('\n')).not.toContain(SANDBOX_URL_MARK);
	const outboxNotes = notes.filter((note) =>
		note.includes('http://127.0.0.1:9911/__sandbox/outbox.html'),
	);
	// The three approvals (by email, by SMS, with reminder and escalation), the PDF, the send-once example and the
	// three trigger examples send you there.
	expect(outboxNotes).toHaveLength(8);
	for (const button of ['**Bounce**', '**Open**', '**Not delivered**'])
		expect(outboxNotes.some((note) => note.includes(button))).toBe(true);
	// Without a sandbox (the live service) the notes are left as written.
	expect(JSON.stringify(demoExamples(folder))).toContain(
		`${SANDBOX_URL_MARK}/__sandbox/outbox.html`,
	);

	const trigger = workflows
		.flatMap((workflow) => workflow.nodes)
		.find((node) => node.type === 'n8n-nodes-messaging.messagingEmailTrigger')!;
	expect(trigger.webhookId).toMatch(/^[0-9a-f-]{36}$/);
	const url = await registerEmailEventsHandler(
		sandbox.url,
		workflows,
		'http://127.0.0.1:5999/webhook',
	);
	expect(url).toBe(`http://127.0.0.1:5999/webhook/${trigger.webhookId}/email-events`);
	const { handlers } = (await control('/email/webhooks')) as {
		handlers: Array<{ url: string; events: string[] }>;
	};
	expect(handlers.map(({ url: handlerUrl, events }) => ({ url: handlerUrl, events }))).toEqual([
		{ url, events: ['opened', 'clicked', 'spam_by_user'] },
	]);
	await fetch(`${sandbox.url}/__sandbox/email/webhooks`, { method: 'DELETE' });
});
