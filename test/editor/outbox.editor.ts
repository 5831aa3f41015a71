/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { ROOT } from '../../scripts/n8n/instance';
import { startSandbox, type Sandbox } from '../../sandbox';
import { launchChromium, type HeadlessChromium } from './chromium';

/**
 * The sandbox's outbox page in Chromium, as a person uses it in the demo: its buttons (a script sends the control
 * API's JSON, which an HTML form cannot) make the event, the page says what happened, the registered webhook
 * handler receives it at once; an SMS phone marked Not delivered shows so. The screenshot is the README's.
 */
let sandbox: Sandbox;
let receiver: Server;
const received: Array<Record<string, unknown>> = [];
let chromium: HeadlessChromium | undefined;
let page: Page;

const api = async (path: string, body: object) => {
	const response = await fetch(`${sandbox.url}${path}`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify(body),
	});
	if (!response.ok) throw new Error(await response.text());
	return (await response.json()) as Record<string, unknown>;
};

beforeAll(async () => {
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	receiver = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push(...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as []));
			response.writeHead(200).end('{}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	await fetch(`${sandbox.url}/__sandbox/email/webhooks`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({
			url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
			events: ['opened', 'clicked', 'spam_by_user'],
		}),
	});
	chromium = await launchChromium({ width: 1100, height: 900 });
	page = chromium.page;
	page.setDefaultTimeout(30_000);
});

afterAll(async () => {
	await chromium?.close();
	await new Promise((resolve) => receiver.close(resolve));
	await sandbox.close();
});

test('the outbox page: Open and Click reach the webhook handler at once, Not delivered marks the SMS phone, a template email and an attachment are shown', async () => {
	await api('/sms/send', {
		sender: 'Sandbox',
		phones: ['380671234570'],
		body: 'Your order has shipped and arrives on Friday.',
	});
	await api('/smtp/emails', {
		email: {
			subject: 'Welcome, Ann',
			from: { name: 'Sandbox Team', email: 'sender@sandbox.test' },
			to: [{ name: 'Ann', email: 'ann@example.com' }],
			template: { id: 101, variables: { name: 'Ann', code: 'A-1042' } },
		},
	});
	await api('/smtp/emails', {
		email: {
			subject: 'Invoice 1042',
			from: { name: 'Billing', email: 'sender@sandbox.test' },
			to: [{ name: 'Ann', email: 'ann@example.com' }],
			html: Buffer.from(
				'<p>Your invoice is attached. <a href="https://shop.example/orders/1042">Your order</a></p>',
			).toString('base64'),
			attachments_binary: { 'invoice-1042.pdf': Buffer.from('%PDF-1.4 …').toString('base64') },
		},
	});
	await page.goto(`${sandbox.url}/__sandbox/outbox.html`);

	const invoice = page.locator('section', { hasText: 'Invoice 1042' });
	await invoice.getByRole('button', { name: 'Open', exact: true }).click();
	await page.waitForFunction(() => document.getElementById('note')?.textContent !== '');
	expect(await page.locator('#note').textContent()).toBe(
		'Opened by ann@example.com; posted to the webhook handler: 200',
	);
	await page
		.locator('section', { hasText: 'Invoice 1042' })
		.getByRole('button', { name: 'Click', exact: true })
		.click();
	await page.waitForFunction(() =>
		document.getElementById('note')?.textContent?.startsWith('Clicked'),
	);
	expect(received.map((event) => [event.event, event.recipient, event.link_url])).toEqual([
		['opened', 'ann@example.com', undefined],
		['clicked', 'ann@example.com', 'https://shop.example/orders/1042'],
	]);

	await page
		.locator('li', { hasText: '380671234570' })
		.getByRole('button', { name: 'Not delivered' })
		.click();
	await page.waitForFunction(() => document.getElementById('note')?.textContent?.startsWith('SMS'));
	expect(await page.locator('li', { hasText: '380671234570' }).textContent()).toContain(
		'380671234570: Not delivered',
	);

	expect(
		await page.locator('section', { hasText: 'Welcome, Ann' }).getByText('template 101').count(),
	).toBe(1);
	const download = page.locator('a', { hasText: 'invoice-1042.pdf' });
	expect(await download.getAttribute('download')).toBe('invoice-1042.pdf');
	await page.screenshot({ path: join(ROOT, 'docs', 'outbox-controls.png') });

	const [email] = await Promise.all([
		page.waitForEvent('popup'),
		page
			.locator('section', { hasText: 'Welcome, Ann' })
			.getByRole('link', { name: 'open the email' })
			.click(),
	]);
	await email.waitForLoadState();
	expect(await email.locator('body').textContent()).toBe('Hello Ann, your code is A-1042.');
});
