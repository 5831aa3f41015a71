import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { runNode } from '../harness/run-node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { sendParameters } from '../harness/send-parameters';
import { executionIdOf, signedUrl, waitOf } from './setup';

let sandbox: Sandbox;
let store: CredentialStore;
beforeAll(async () => {
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());

test('the outbox lists each accepted email (decoded HTML and text) and SMS with their links, as JSON and as a page', async () => {
	const email = await runNode({
		node: new MessagingEmail(),
		credentials: store,
		parameters: {
			resource: 'email',
			operation: 'sendAndWait',
			fromEmail: 'sender@sandbox.test',
			to: 'ann@example.com',
			subject: 'Refund <1042>',
			message: 'Refund?',
		},
	});
	const sms = await runNode({
		node: new MessagingSms(),
		credentials: store,
		parameters: {
			resource: 'campaign',
			operation: 'sendAndWait',
			sender: { __rl: true, mode: 'name', value: 'Sandbox' },
			phone: '+380986235698',
			message: 'Refund?',
			responseType: 'freeText',
		},
	});
	const approve = signedUrl(executionIdOf(email), {
		approved: 'true',
		w: waitOf(email),
		to: 'ann@example.com',
	});
	const respond = signedUrl(executionIdOf(sms), { w: waitOf(sms) });

	const response = await fetch(`${sandbox.url}/__sandbox/outbox`);
	const outbox = (await response.json()) as Array<Record<string, unknown>>;
	const sentHtml = Buffer.from(
		String(
			(
				sandbox.log.apiCalls().find((call) => call.path === '/smtp/emails')!.body as {
					email: { html: string };
				}
			).email.html,
		),
		'base64',
	).toString('utf8');
	expect(
		outbox
			.map(({ kind, links }) => ({ kind, links }))
			.sort((a, b) => String(a.kind).localeCompare(String(b.kind))),
	).toEqual([
		{ kind: 'email', links: [approve] },
		{ kind: 'sms', links: [respond] },
	]);
	const sent = outbox.find((entry) => entry.kind === 'email')!;
	expect(sent).toMatchObject({
		subject: 'Refund <1042>',
		to: ['ann@example.com'],
		from: 'sender@sandbox.test',
	});
	expect(sent.html).toBe(sentHtml);
	expect(sent.text).toBe(
		`Refund?\n\nApprove: ${approve}\n\nThe link opens a page where you confirm your answer.`,
	);
	expect(outbox.find((entry) => entry.kind === 'sms')).toMatchObject({
		sender: 'Sandbox',
		phones: ['380986235698'],
		body: `Refund?\n${respond}`,
	});

	const page = await fetch(`${sandbox.url}/__sandbox/outbox.html`);
	expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
	const html = await page.text();
	expect(html).toContain(`<a href="${approve.replace(/&/g, '&amp;')}"`);
	expect(html).toContain(`<a href="${respond.replace(/&/g, '&amp;')}"`);
	expect(html).toContain('Refund &lt;1042&gt;');

	const shown = await fetch(`${sandbox.url}/__sandbox/outbox/email/${String(sent.id)}`);
	expect(await shown.text()).toBe(sentHtml);
});

test('newest first, also for messages of the same second (the service’s dates have whole seconds)', async () => {
	const second = new Date('2027-01-04T09:30:00.100Z');
	// Only Date is faked, so every send below happens in the same second of the sandbox's clock.
	jest.useFakeTimers({
		now: second,
		advanceTimers: true,
		doNotFake: [
			'nextTick',
			'setImmediate',
			'setTimeout',
			'clearTimeout',
			'setInterval',
			'clearInterval',
			'queueMicrotask',
		],
	});
	try {
		for (const subject of ['same second: first', 'same second: second', 'same second: third']) {
			jest.setSystemTime(second);
			const sent = await runNode({
				node: new MessagingEmail(),
				credentials: store,
				parameters: sendParameters({ subject }),
			});
			expect(sent.error).toBeUndefined();
		}
	} finally {
		jest.useRealTimers();
	}
	const outbox = (await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()) as Array<{
		subject?: string;
		sentAt: string;
	}>;
	expect(outbox.slice(0, 3).map(({ subject, sentAt }) => [subject, sentAt])).toEqual([
		['same second: third', '2027-01-04 09:30:00'],
		['same second: second', '2027-01-04 09:30:00'],
		['same second: first', '2027-01-04 09:30:00'],
	]);
});
