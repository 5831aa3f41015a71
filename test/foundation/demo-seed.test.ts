/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { seedDemo } from '../../scripts/demo-seed';
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

test('the "SMS not delivered" example: its looked-up phones are in a campaign and reach Not delivered (the sandbox rule)', async () => {
	const nodes = example('sms-not-delivered-email-fallback.json').nodes;
	const table = lookupTable(
		String(nodes.find((node) => node.name === 'Look Up Customer')!.parameters.jsCode),
	);
	sandbox.clock.advance(4 * 60_000);
	const state = (await control('/sms/state')) as {
		deliveryRule: string;
		campaigns: Array<{ phones: Array<{ phone: string; status: number }> }>;
	};
	expect(state.deliveryRule).toBe('phone numbers ending in 0 are never delivered (status 12)');
	const statuses = Object.fromEntries(
		state.campaigns.flatMap((campaign) =>
			campaign.phones.map((entry) => [entry.phone, entry.status]),
		),
	);
	expect(Object.keys(table).sort()).toEqual(Object.keys(statuses).sort());
	for (const phone of Object.keys(table)) expect(statuses[phone]).toBe(12);
});
