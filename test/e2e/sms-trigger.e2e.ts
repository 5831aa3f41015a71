/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { N8nInstance } from '../../scripts/n8n/instance';
import {
	SANDBOX_CREDENTIALS,
	credentialRecords,
	example,
	executionsOf,
	itemsOf,
	pollingTriggerWorkflow,
	sandboxRequest,
	waitFor,
	waitForPolls,
	wire,
	type Workflow,
} from './helpers';

/**
 * SMS delivery events in a running n8n 2.40.7 (`n8n start`, one-minute polls): the example "SMS not delivered →
 * send the same message by email" and a workflow watching both final statuses on the Messaging Trigger. A campaign
 * that finished before activation must never be emitted; a campaign of five phones sent after activation must
 * give each phone's final status exactly once, and the example one email per undelivered phone.
 */
const EXAMPLE = 'msgExSmsFallback';
const WATCHER = 'e2eSmsFinalStatus';
/** The sandbox does not deliver numbers ending in 0; the example knows the customers of the two that end in 0. */
const FIVE = ['380671234561', '380671234562', '380671234563', '380671234570', '380671234580'];
const CUSTOMERS: Record<string, { name: string; email: string; message: string }> = {
	'380671234570': {
		name: 'Olena Bondar',
		email: 'olena@example.com',
		message: 'Your order 1042 has shipped and arrives on Friday.',
	},
	'380671234580': {
		name: 'Taras Koval',
		email: 'taras@example.com',
		message: 'Your order 1043 has shipped and arrives on Friday.',
	},
};

let sandbox: Sandbox;
let n8n: N8nInstance;
const timings: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) =>
	sandboxRequest(sandbox.url, method, path, body, SANDBOX_CREDENTIALS.apiKey);

const listReads = () =>
	sandbox.log.all().filter((entry) => entry.path === '/sms/campaigns/list' && entry.status === 200);

/** Resolves once both active workflows have polled (each polls once a minute) after `since` (real ms). */
const bothPolledAfter = (since: number, label: string) =>
	waitForPolls(listReads, 2, since, label, timings);

const watcherWorkflow = (): Workflow =>
	pollingTriggerWorkflow(
		WATCHER,
		'e2e: every final SMS status',
		'9d3c0a52-7a11-4c4e-9d8e-5f0c2b1a7e51',
		{
			events: ['smsDelivered', 'smsNotDelivered'],
			options: {},
		},
	);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.close();
	process.stdout.write(`\ne2e SMS trigger timings (ms): ${JSON.stringify(timings, null, 2)}\n`);
});

it('an activated workflow sees each phone’s final status exactly once; the example emails the undelivered ones', async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.e2e.config.js');
	const testStarted = Date.now();
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	// No moderation wait; statuses become final 40 s after sending, so a poll may see "Sent" first.
	await fetch(`${sandbox.url}/__sandbox/sms/settings`, {
		method: 'PATCH',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ moderationDelaySeconds: 0, deliveryDelaySeconds: 40 }),
	});
	// Finished before activation: never emitted.
	const before = String(
		(await api('POST', '/sms/send', { sender: 'Sandbox', phones: ['380670000010'], body: 'Old' }))
			.campaign_id,
	);
	sandbox.clock.advance(60_000);
	sandbox.log.clear();

	let started = Date.now();
	n8n = await N8nInstance.create({ tarball });
	await n8n.importCredentials(credentialRecords(sandbox.url));
	await n8n.importWorkflows([example('sms-not-delivered-email-fallback.json'), watcherWorkflow()]);
	await n8n.activate(EXAMPLE);
	await n8n.activate(WATCHER);
	timings['create + import + publish'] = Date.now() - started;
	started = Date.now();
	await n8n.start();
	timings['start (REST ready, owner, API key)'] = Date.now() - started;

	await bothPolledAfter(0, 'activation polls');
	const campaign = String(
		(
			await api('POST', '/sms/send', {
				sender: 'Sandbox',
				phones: FIVE,
				body: 'Your order has shipped and arrives on Friday.',
			})
		).campaign_id,
	);
	const sentAt = Date.now();

	const emitted = async () =>
		(await executionsOf(n8n, WATCHER)).flatMap((execution) =>
			itemsOf(execution, 'Messaging Trigger'),
		);
	await waitFor(
		'every final status to be emitted',
		async () => ((await emitted()).length >= FIVE.length ? true : undefined),
		200_000,
		2000,
	);
	timings['send → all five emitted'] = Date.now() - sentAt;
	// One more poll of each: nothing may come twice.
	await bothPolledAfter(Date.now(), 'a quiet poll');
	await waitFor(
		'executions to finish',
		async () => {
			const all = [...(await executionsOf(n8n, WATCHER)), ...(await executionsOf(n8n, EXAMPLE))];
			return all.every((execution) => execution.finished || execution.status === 'error')
				? true
				: undefined;
		},
		60_000,
		1000,
	);

	// ---- the watcher: each phone's final status once, with the trigger's item ----
	const watched = await executionsOf(n8n, WATCHER);
	expect(watched.map((execution) => execution.status)).toEqual(watched.map(() => 'success'));
	const items = watched.flatMap((execution) => itemsOf(execution, 'Messaging Trigger'));
	expect(
		items
			.map((item) => `${String(item.event)} ${String(item.campaignId)} ${String(item.phone)}`)
			.sort(),
	).toEqual(
		FIVE.map(
			(phone) => `${phone.endsWith('0') ? 'smsNotDelivered' : 'smsDelivered'} ${campaign} ${phone}`,
		).sort(),
	);
	const first = items.find((item) => item.phone === FIVE[0])!;
	expect(first).toEqual({
		event: 'smsDelivered',
		campaignId: campaign,
		phone: FIVE[0],
		status: 2,
		statusName: 'Delivered',
		countryCode: 'UA',
		moneySpent: 0.03,
		currency: 'USD',
		senderName: 'Sandbox',
		sendDate: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
		sendDateIso: expect.any(String),
		statusSeenAt: expect.any(String),
		raw: {
			phone: Number(FIVE[0]),
			status: 2,
			status_explain: 'Delivered',
			'\u0441ountry_code': 'UA',
			money_spent: 0.03,
		},
	});
	expect(Date.parse(String(first.statusSeenAt))).toBeGreaterThan(sentAt);

	// ---- the example: one email per undelivered phone, with the same message ----
	const fallbacks = await executionsOf(n8n, EXAMPLE);
	expect(fallbacks.map((execution) => execution.status)).toEqual(fallbacks.map(() => 'success'));
	expect(
		fallbacks
			.flatMap((execution) => itemsOf(execution, 'On SMS Not Delivered'))
			.map((item) => item.phone)
			.sort(),
	).toEqual(['380671234570', '380671234580']);
	const emails = sandbox.log
		.all()
		.filter((entry) => entry.method === 'POST' && entry.path === '/smtp/emails')
		.map(wire)
		.map((request) => (request.body as { email: Record<string, unknown> }).email)
		.sort((a, b) => JSON.stringify(a.to).localeCompare(JSON.stringify(b.to)));
	expect(emails).toEqual(
		Object.entries(CUSTOMERS).map(([phone, customer]) => {
			const text = `Hello ${customer.name}, we could not deliver this text message to ${phone}, so here it is by email: ${customer.message}`;
			const html = `<p>Hello ${customer.name},</p><p>we could not deliver this text message to ${phone}, so here it is by email:</p><p>${customer.message}</p>`;
			return {
				from: { name: 'Shop', email: 'sender@sandbox.test' },
				to: [{ name: customer.name, email: customer.email }],
				subject: `Your text message to ${phone}`,
				html: Buffer.from(html, 'utf8').toString('base64'),
				text,
			};
		}),
	);

	// ---- requests: the campaign that finished before activation was read only at activation (its baseline) ----
	const infoReads = sandbox.log
		.all()
		.filter((entry) => entry.path.startsWith('/sms/campaigns/info/'))
		.map((entry) => entry.path);
	expect(infoReads.filter((path) => path.endsWith(`/${before}`))).toHaveLength(2);
	expect(
		infoReads.every((path) => path.endsWith(`/${before}`) || path.endsWith(`/${campaign}`)),
	).toBe(true);

	const pid = n8n.pid!;
	started = Date.now();
	await n8n.stop();
	timings.stop = Date.now() - started;
	expect(() => process.kill(pid, 0)).toThrow();
	timings.total = Date.now() - testStarted;
});
