/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { writeFileSync } from 'node:fs';

import { startSandbox, type Sandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';
import {
	DEFAULT_N8N_VERSION,
	type ExecuteResult,
	type N8nInstance,
} from '../../scripts/n8n/instance';
import {
	API_KEY_CREDENTIAL_ID,
	API_KEY_CREDENTIAL_NAME,
	SANDBOX_CREDENTIALS,
	apiCallsOf,
	credentialRecords,
	describeFailure,
	example,
	loadExamples,
	outputOf,
	wire,
	withCredential,
} from './helpers';
import { expectBulkSmsRun, expectTemplateRun } from './expectations';
import { sharedN8n } from './shared-n8n';

/**
 * The examples in examples/ imported into a real n8n (2.40.7; 1.123.81 with `npm run e2e:n8n1`) (the packed package installed like a community
 * package) and run with `n8n execute` against the sandbox (rate limit on, 10/s). Each run is checked twice:
 * the node outputs in n8n's run JSON and the exact requests the sandbox received. On n8n 1.x the runs use the legacy
 * expression engine: 1.123.81's isolate engine cannot evaluate `$('Node name')`, which two examples use
 * (n8n1.e2e.ts shows it with n8n's own nodes); `$N8N_EXPRESSION_ENGINE` still overrides that.
 */
const ENGINE_FOR_N8N1 = process.env.N8N_EXPRESSION_ENGINE || 'legacy';
const timings: Record<string, number> = {};
let sandbox: Sandbox;
let n8n: N8nInstance;

async function run(workflowId: string): Promise<ExecuteResult> {
	const started = Date.now();
	const result = await n8n.execute(workflowId, {
		env: {
			GENERIC_TIMEZONE: 'UTC',
			...(n8n.major < 2 ? { N8N_EXPRESSION_ENGINE: ENGINE_FOR_N8N1 } : {}),
		},
	});
	timings[`execute ${workflowId}`] = Date.now() - started;
	if (process.env.E2E_DUMP)
		writeFileSync(
			`/tmp/e2e-${workflowId}.json`,
			JSON.stringify({ run: result.run, log: sandbox.log.all() }, null, 2),
		);
	if (result.exitCode !== 0 || result.status !== 'success')
		throw new Error(`Workflow ${workflowId} failed: ${describeFailure(result)}`);
	return result;
}

async function resetSandbox() {
	emailStateOf(sandbox).reset();
	const reset = await fetch(`${sandbox.url}/__sandbox/sms/reset`, { method: 'POST' });
	expect(reset.status).toBe(200);
	sandbox.log.clear();
}

beforeAll(async () => {
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	let started = Date.now();
	n8n = await sharedN8n();
	timings['empty the shared n8n'] = Date.now() - started;
	started = Date.now();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	timings['import credentials'] = Date.now() - started;
	started = Date.now();
	const runnable = loadExamples()
		// `n8n execute` cannot start a webhook trigger: that example is imported only (webhook-trigger.e2e.ts runs the node).
		// The approve-refund examples wait for a person's answer (send-and-wait.e2e.ts drives that operation in a running n8n).
		.filter(
			({ file }) =>
				!file.startsWith('ai-agent') &&
				!file.startsWith('approve-refund') &&
				file !== 'email-events-webhook.json',
		)
		.map(({ workflow }) => workflow);
	await n8n.importWorkflows([
		...loadExamples().map(({ workflow }) => workflow),
		// The template example once more, on the API-key credential.
		withCredential(
			example('template-email-from-rows.json'),
			API_KEY_CREDENTIAL_ID,
			API_KEY_CREDENTIAL_NAME,
			'msgExTemplateKey',
		),
	]);
	expect(runnable).toHaveLength(8);
	timings['import workflows'] = Date.now() - started;
});

afterAll(async () => {
	await sandbox?.close();
	process.stdout.write(`\ne2e examples timings (ms): ${JSON.stringify(timings, null, 2)}\n`);
});

describe(`examples on n8n ${DEFAULT_N8N_VERSION} via n8n execute`, () => {
	it('transactional email with a PDF attachment', async () => {
		await resetSandbox();
		const result = await run('msgExPdfInvoice1');
		const [invoice] = outputOf(result.run, 'Build Invoice PDF');
		const pdf = Buffer.from(String(invoice.pdfBase64), 'base64').toString('latin1');
		expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
		expect(pdf.endsWith('%%EOF\n')).toBe(true);
		expect(pdf).toContain('(Invoice INV-1001 for Ann Example: 49.00 EUR) Tj');

		const html =
			'<p>Hello Ann Example,</p><p>your invoice INV-1001 over 49.00 EUR is attached.</p>';
		const text = 'Hello Ann Example, your invoice INV-1001 over 49.00 EUR is attached.';
		const calls = apiCallsOf(sandbox.log.all());
		expect(calls.map(wire)).toEqual([
			{ method: 'GET', path: '/smtp/senders', query: {}, body: undefined },
			{
				method: 'POST',
				path: '/smtp/emails',
				query: {},
				body: {
					email: {
						html: Buffer.from(html, 'utf8').toString('base64'),
						text,
						subject: 'Your invoice INV-1001',
						from: { name: 'Billing', email: 'sender@sandbox.test' },
						to: [{ name: 'Ann Example', email: 'ann@example.com' }],
						// The file Convert to File stored in n8n's binary data store, read back by the email node.
						attachments_binary: { 'invoice-INV-1001.pdf': invoice.pdfBase64 },
					},
				},
			},
		]);
		const sent = emailStateOf(sandbox).emails;
		expect(sent).toHaveLength(1);
		expect(outputOf(result.run, 'Send Invoice Email')).toEqual([
			{
				id: sent[0].id,
				result: true,
				subject: 'Your invoice INV-1001',
				from: { name: 'Billing', email: 'sender@sandbox.test' },
				to: [{ name: 'Ann Example', email: 'ann@example.com' }],
				attachments: ['invoice-INV-1001.pdf'],
			},
		]);
		// Client id/secret: one token exchange, then Bearer token requests.
		expect(
			sandbox.log
				.all()
				.filter((entry) => entry.path === '/oauth/access_token')
				.map((entry) => entry.status),
		).toEqual([200]);
		expect(calls.every((entry) => entry.auth === 'token')).toBe(true);
	});

	it('the token is stored with the credential: the next execution (a new n8n process) needs no token request', async () => {
		await resetSandbox();
		await run('msgExPdfInvoice1');
		expect(sandbox.log.all().map((entry) => `${entry.method} ${entry.path} ${entry.auth}`)).toEqual(
			['GET /smtp/senders token', 'POST /smtp/emails token'],
		);
	});

	it.each([
		['client id/secret credential', 'msgExTemplateRow', 'token'],
		['API key credential', 'msgExTemplateKey', 'apiKey'],
	] as const)('template email for every row (%s)', async (_label, workflowId, auth) => {
		await resetSandbox();
		await expectTemplateRun(await run(workflowId), sandbox, auth);
		expect(sandbox.log.all().filter((entry) => entry.path === '/oauth/access_token')).toHaveLength(
			0,
		);
	});

	// Send Once is verified on n8n 2.x; the deduplication store of 1.x is not (docs/testing.md).
	(Number(DEFAULT_N8N_VERSION.split('.')[0]) >= 2 ? it : it.skip)(
		"order confirmation sent once: the repeated order and a second run send nothing (on n8n's own deduplication store)",
		async () => {
			await resetSandbox();
			const sends = () =>
				apiCallsOf(sandbox.log.all())
					.filter((call) => call.path === '/smtp/emails')
					.map((call) => (call.body as { email: { subject: string; to: unknown } }).email)
					.map(({ subject, to }) => ({ subject, to }));
			const confirmationKey = (orderId: string) => `${orderId}-confirmation`;
			const first = await run('msgExSendOnceOrd');
			const marks = (result: ExecuteResult) =>
				outputOf(result.run, 'Send Confirmation Once').map(({ alreadySent, sendOnceKey }) => ({
					alreadySent,
					sendOnceKey,
				}));
			expect(marks(first)).toEqual([
				{ alreadySent: false, sendOnceKey: confirmationKey('A-1001') },
				{ alreadySent: false, sendOnceKey: confirmationKey('A-1002') },
				{ alreadySent: true, sendOnceKey: confirmationKey('A-1001') },
			]);
			expect(sends()).toEqual([
				{
					subject: 'Order A-1001 confirmed',
					to: [{ name: 'Ann Example', email: 'ann@example.com' }],
				},
				{
					subject: 'Order A-1002 confirmed',
					to: [{ name: 'Bob Example', email: 'bob@example.com' }],
				},
			]);
			// A second run is a new n8n process: the keys come from n8n's database.
			sandbox.log.clear();
			const second = await run('msgExSendOnceOrd');
			expect(marks(second).map(({ alreadySent }) => alreadySent)).toEqual([true, true, true]);
			expect(sends()).toEqual([]);
		},
	);

	it('bulk SMS: Get Cost and a Dry Run first, then Send to Numbers', async () => {
		await resetSandbox();
		await expectBulkSmsRun(await run('msgExBulkSmsSend'), sandbox);
	});

	it('scheduled campaign for a mailing list, followed with Get; after the send time, the delivery report', async () => {
		await resetSandbox();
		const before = new Date();
		const result = await run('msgExListCampgn1');
		const after = new Date();
		const listPhones = ['380986235698', '380631234560', '4915123456789'];
		expect(outputOf(result.run, 'Add to Mailing List')).toEqual([
			{
				addressBookId: '4242',
				result: true,
				counters: { added: 3, exceptions: 0, exists: 0 },
				phones: listPhones,
			},
		]);
		// Send At = tomorrow 09:00 in the workflow's time zone (UTC here), in the service's format.
		const tomorrowAt9 = (date: Date) =>
			`${new Date(date.getTime() + 86_400_000).toISOString().slice(0, 10)} 09:00:00`;
		const calls = apiCallsOf(sandbox.log.all());
		const sendDate = (calls[1]?.body as { date?: string } | undefined)?.date;
		expect([tomorrowAt9(before), tomorrowAt9(after)]).toContain(sendDate);
		const state = (await (await fetch(`${sandbox.url}/__sandbox/sms/state`)).json()) as {
			campaigns: Array<{ id: number }>;
		};
		expect(state.campaigns).toHaveLength(1);
		const campaignId = state.campaigns[0].id;
		expect(calls.map(wire)).toEqual([
			{
				method: 'POST',
				path: '/sms/numbers',
				query: {},
				body: { addressBookId: 4242, phones: listPhones },
			},
			{
				method: 'POST',
				path: '/sms/campaigns',
				query: {},
				body: {
					sender: 'Sandbox',
					addressBookId: 4242,
					body: 'Reminder: our store opens at 10:00 today. See you there!',
					transliterate: 0,
					date: sendDate,
				},
			},
			{ method: 'GET', path: `/sms/campaigns/info/${campaignId}`, query: {}, body: undefined },
		]);
		expect(outputOf(result.run, 'Schedule Campaign')).toEqual([
			{ result: true, campaign_id: String(campaignId) },
		]);
		const [status] = outputOf(result.run, 'Get Campaign Status');
		expect(status.id).toBe(String(campaignId));
		expect(status.send_date).toBe(sendDate);
		expect(
			(status.task_phones_info as Array<Record<string, unknown>>).map(
				({ phone, status: code, statusName }) => ({ phone, code, statusName }),
			),
		).toEqual(listPhones.map((phone) => ({ phone, code: 0, statusName: 'Ready to send' })));

		// Two days later (sandbox clock): sent; numbers ending in 0 are not delivered in the sandbox.
		sandbox.clock.advance(2 * 86_400_000);
		sandbox.log.clear();
		const report = await run('msgExCampReport1');
		expect(outputOf(report.run, 'Delivery Summary')).toEqual([
			{ campaignId: String(campaignId), sendDate, phones: 3, Delivered: 2, 'Not delivered': 1 },
		]);
		// The stored token expired during those two days: the first request answers 401, the node gets a new token
		// once and repeats the request.
		const dateFromPattern = expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
		const reportCalls = sandbox.log
			.all()
			.map((entry) => ({ ...wire(entry), status: entry.status }));
		expect(reportCalls).toEqual([
			{
				method: 'GET',
				path: '/sms/campaigns/list',
				query: { dateFrom: dateFromPattern },
				body: undefined,
				status: 401,
			},
			{
				method: 'POST',
				path: '/oauth/access_token',
				query: {},
				body: expect.objectContaining({ grant_type: 'client_credentials' }),
				status: 200,
			},
			{
				method: 'GET',
				path: '/sms/campaigns/list',
				query: { dateFrom: reportCalls[0].query.dateFrom },
				body: undefined,
				status: 200,
			},
			{
				method: 'GET',
				path: `/sms/campaigns/info/${campaignId}`,
				query: {},
				body: undefined,
				status: 200,
			},
		]);
		// Created After = now minus 7 days, in UTC (n8n's clock: within this test's run).
		const dateFrom = Date.parse(`${String(reportCalls[0].query.dateFrom).replace(' ', 'T')}Z`);
		expect(dateFrom).toBeGreaterThanOrEqual(
			Math.floor(after.getTime() / 1000) * 1000 - 7 * 86_400_000,
		);
		expect(dateFrom).toBeLessThanOrEqual(Date.now() - 7 * 86_400_000);
	});
});
