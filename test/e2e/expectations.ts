import type { Sandbox } from '../../sandbox';
import type { ExecuteResult } from '../../scripts/n8n/instance';
import { emailStateOf } from '../../sandbox/email';
import { apiCallsOf, outputOf, wire } from './helpers';

const message = 'Our spring sale starts tomorrow: 20% off everything with code SPRING.';
const phones = ['380986235698', '380631234567', '442079460018', '14155550134'];

/** examples/bulk-sms-cost-dry-run-send.json, run once against a freshly reset sandbox (shared by the n8n 2 and 1 legs). */
export async function expectBulkSmsRun(result: ExecuteResult, sandbox: Sandbox): Promise<void> {
	// Sandbox prices (USD): UA 0.03, GB 0.04, US 0.01; the 70-character GSM-7 message is one SMS part.
	expect(outputOf(result.run, 'Get Cost')).toEqual([{ price: 0.11, currency: 'USD', phones }]);
	expect(outputOf(result.run, 'Within Budget?', 0)).toEqual([
		{ price: 0.11, currency: 'USD', phones },
	]);
	expect(outputOf(result.run, 'Within Budget?', 1)).toEqual([]);
	const counters = { exceptions: 0, sends: 4 };
	expect(outputOf(result.run, 'Dry Run')).toEqual([
		{ result: true, campaign_id: '0', counters, phones, dryRun: true },
	]);
	const campaigns = (
		(await (await fetch(`${sandbox.url}/__sandbox/sms/state`)).json()) as {
			campaigns: Array<{ id: number }>;
		}
	).campaigns;
	expect(campaigns).toHaveLength(1);
	expect(outputOf(result.run, 'Send to Numbers')).toEqual([
		{ result: true, campaign_id: String(campaigns[0].id), counters, phones },
	]);

	expect(apiCallsOf(sandbox.log.all()).map(wire)).toEqual([
		{
			method: 'GET',
			path: '/sms/campaigns/cost',
			query: { sender: 'Sandbox', body: message, phones },
			body: undefined,
		},
		{
			method: 'POST',
			path: '/sms/send',
			query: {},
			body: { sender: 'Sandbox', phones, body: message, transliterate: 0, emulate: 1 },
		},
		{
			method: 'POST',
			path: '/sms/send',
			query: {},
			body: { sender: 'Sandbox', phones, body: message, transliterate: 0 },
		},
	]);
}

const rows = [
	{ name: 'Ann', email: 'ann@example.com', code: 'A-1001' },
	{ name: 'Bob', email: 'bob@example.com', code: 'B-2002' },
	{ name: 'Chloé', email: 'chloe@example.com', code: 'C-3003' },
];

/** examples/template-email-from-rows.json against a freshly reset sandbox; `auth`: how every request authenticated. */
export async function expectTemplateRun(
	result: ExecuteResult,
	sandbox: Sandbox,
	auth: 'token' | 'apiKey',
): Promise<void> {
	expect(outputOf(result.run, 'Sheet Rows')).toEqual(rows);
	const calls = apiCallsOf(sandbox.log.all());
	// The sender check first, then one send per row (sent concurrently: compared in recipient order), then one read
	// of the template, for the run warning on variables it uses that a row left out (none here).
	expect(wire(calls[0])).toEqual({
		method: 'GET',
		path: '/smtp/senders',
		query: {},
		body: undefined,
	});
	expect(wire(calls[calls.length - 1])).toEqual({
		method: 'GET',
		path: '/template/101',
		query: {},
		body: undefined,
	});
	const recipientOf = (body: unknown) =>
		(body as { email: { to: Array<{ email: string }> } }).email.to[0].email;
	expect(
		calls
			.slice(1, -1)
			.map(wire)
			.sort((a, b) => recipientOf(a.body).localeCompare(recipientOf(b.body))),
	).toEqual(
		rows.map((row) => ({
			method: 'POST',
			path: '/smtp/emails',
			query: {},
			body: {
				email: {
					template: { id: 101, variables: { name: row.name, code: row.code } },
					subject: `Welcome, ${row.name}`,
					from: { name: 'Sandbox Team', email: 'sender@sandbox.test' },
					to: [{ name: row.name, email: row.email }],
				},
			},
		})),
	);
	expect(calls.every((entry) => entry.auth === auth)).toBe(true);
	const sent = emailStateOf(sandbox).emails;
	expect(outputOf(result.run, 'Send Welcome Template')).toEqual(
		rows.map((row) => ({
			id: sent.find((email) => email.recipient === row.email)!.id,
			result: true,
			template: { id: 101 },
			subject: `Welcome, ${row.name}`,
			from: { name: 'Sandbox Team', email: 'sender@sandbox.test' },
			to: [{ name: row.name, email: row.email }],
		})),
	);
}
