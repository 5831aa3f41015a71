/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { jsonOf, runNode } from '../harness/run-node';
import { sendParameters } from '../harness/send-parameters';
import { startSandbox, type Sandbox } from '../../sandbox';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';

/** The outbox page's buttons: what its script sends (route, method, JSON body), read from the page itself. */
interface PageForm {
	label: string;
	route: string;
	method: string;
	body: string;
	flush: boolean;
}

const unescapeAttribute = (text: string) =>
	text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');

function formsOf(section: string): PageForm[] {
	return [
		...section.matchAll(
			/<form method="post" action="([^"]*)" data-method="([^"]*)" data-body="([^"]*)" data-flush="([^"]*)" data-done="[^"]*"><button>([^<]*)<\/button><\/form>/g,
		),
	].map((match) => ({
		route: unescapeAttribute(match[1]),
		method: match[2],
		body: unescapeAttribute(match[3]),
		flush: match[4] === '1',
		label: unescapeAttribute(match[5]),
	}));
}

let sandbox: Sandbox;
let store: CredentialStore;
let receiver: Server;
let received: Array<Array<Record<string, unknown>>> = [];

beforeAll(async () => {
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
	receiver = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as never);
			response.writeHead(200).end('{}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	const { port } = receiver.address() as AddressInfo;
	await control('POST', '/email/webhooks', { url: `http://127.0.0.1:${port}/hook` });
});
afterAll(async () => {
	await sandbox.close();
	await new Promise((resolve) => receiver.close(resolve));
});

async function control(method: string, path: string, body?: unknown) {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as Record<string, unknown>;
}

/** The section of the outbox page that shows `marker` (its subject, or `SMS #<id>`). */
async function pageSection(marker: string): Promise<string> {
	const page = await (await fetch(`${sandbox.url}/__sandbox/outbox.html`)).text();
	const section = page.split('<section>').find((part) => part.includes(marker));
	expect(section).toBeDefined();
	return section!;
}

/** Presses a button as the page's script does: its request, then for email events the webhook flush. */
async function press(form: PageForm) {
	const response = await fetch(`${sandbox.url}${form.route}`, {
		method: form.method,
		headers: { 'Content-Type': 'application/json' },
		body: form.body,
	});
	expect(response.status).toBe(200);
	if (form.flush) await control('POST', '/email/webhooks/flush');
}

const sendEmail = async (overrides: Record<string, unknown>, binary?: Record<string, unknown>) => {
	const result = await runNode({
		node: new MessagingEmail(),
		credentials: store,
		parameters: sendParameters(overrides as never),
		...(binary ? { items: [{ json: {}, binary: binary as never }] } : {}),
	});
	expect(result.error).toBeUndefined();
	// Its own "delivered" event is posted now, so that a test sees only what the buttons make.
	await control('POST', '/email/webhooks/flush');
	return String(jsonOf(result)[0].id);
};

test('every button of an email posts its event to the registered webhook handler at once, and bounces reach the bounce list', async () => {
	await sendEmail({
		subject: 'Buttons',
		html: '<p><a href="https://shop.example/order/7">Your order</a></p>',
	});
	const forms = formsOf(await pageSection('Buttons'));
	expect(forms.map((form) => form.label)).toEqual([
		'Bounce',
		'Unsubscribe',
		'Spam complaint',
		'Open',
		'Click',
	]);
	received = [];
	for (const form of forms) await press(form);
	const events = received.flat().map(({ timestamp, message_id, ...rest }) => {
		expect(typeof timestamp).toBe('number');
		return { ...rest, ...(message_id ? { message_id: 'id' } : {}) };
	});
	const viewer = {
		message_id: 'id',
		recipient: 'ann@example.com',
		sender: 'sender@sandbox.test',
		subject: 'Buttons',
		ip: '198.51.100.7',
		user_agent: 'Mozilla/5.0 (Linux) Chrome',
	};
	expect(events).toEqual([
		{
			event: 'hard_bounces',
			email: 'ann@example.com',
			sender: 'sender@sandbox.test',
			subject: 'Buttons',
			smtp_server_response_code: 550,
			smtp_server_response_subcode: '5.1.1',
			smtp_server_response: 'User unknown',
		},
		{ event: 'unsubscribed', recipient: 'ann@example.com' },
		// Already unsubscribed: the service keeps the first entry, so the complaint adds no second event.
		{ event: 'opened', ...viewer },
		{ event: 'clicked', ...viewer, link_url: 'https://shop.example/order/7' },
	]);
	const bounces = (await (
		await fetch(`${sandbox.url}/smtp/bounces/day`, {
			headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
		})
	).json()) as { emails: Array<{ email_to: string; subject: string }> };
	expect(bounces.emails.map(({ email_to, subject }) => ({ email_to, subject }))).toEqual([
		{ email_to: 'ann@example.com', subject: 'Buttons' },
	]);
});

test('a spam complaint of an address not yet unsubscribed posts spam_by_user', async () => {
	await sendEmail({ subject: 'Complaint', to: 'Cy <cy@example.com>' });
	const spam = formsOf(await pageSection('Complaint')).find(
		(form) => form.label === 'Spam complaint',
	)!;
	received = [];
	await press(spam);
	expect(received.flat().map(({ event, recipient }) => ({ event, recipient }))).toEqual([
		{ event: 'spam_by_user', recipient: 'cy@example.com' },
	]);
});

test('a template email is shown rendered (a variable not given stays visible), attachments with name, size and download', async () => {
	const pdf = Buffer.from('%PDF-1.4 invoice \x00\x01\x02', 'latin1');
	const id = await sendEmail(
		{
			subject: 'Templated',
			content: 'template',
			templateId: '101',
			variablesInput: 'fields',
			variablesUi: { variable: [{ name: 'name', value: 'Ann <Smith>' }] },
			options: { binaryAttachments: 'invoice' },
			textAttachments: { attachments: [{ fileName: 'note.txt', content: 'Plain note ✓' }] },
		},
		{ invoice: { data: pdf, fileName: 'invoice-7.pdf', mimeType: 'application/pdf' } },
	);
	const outbox = (await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()) as Array<
		Record<string, unknown>
	>;
	const email = outbox.find((entry) => entry.id === id)!;
	expect(email.html).toBe('<p>Hello Ann &lt;Smith&gt;, your code is {{code}}.</p>');
	expect(email.template).toEqual({ id: 101, variables: { name: 'Ann <Smith>' } });
	const attachmentUrl = (name: string) =>
		`/__sandbox/outbox/email/${encodeURIComponent(id)}/attachments/${encodeURIComponent(name)}`;
	expect(email.attachments).toEqual([
		{ name: 'note.txt', size: Buffer.byteLength('Plain note ✓'), url: attachmentUrl('note.txt') },
		{ name: 'invoice-7.pdf', size: pdf.length, url: attachmentUrl('invoice-7.pdf') },
	]);

	const shown = await fetch(`${sandbox.url}/__sandbox/outbox/email/${encodeURIComponent(id)}`);
	expect(await shown.text()).toBe('<p>Hello Ann &lt;Smith&gt;, your code is {{code}}.</p>');
	const download = await fetch(`${sandbox.url}${attachmentUrl('invoice-7.pdf')}`);
	expect(download.headers.get('content-type')).toBe('application/pdf');
	expect(download.headers.get('content-disposition')).toBe(
		"attachment; filename*=UTF-8''invoice-7.pdf",
	);
	expect(Buffer.from(await download.arrayBuffer())).toEqual(pdf);

	const section = await pageSection('Templated');
	expect(section).toContain(' · template 101 · ');
	expect(section).toContain(
		`<li><a href="${attachmentUrl('invoice-7.pdf')}" download="invoice-7.pdf">invoice-7.pdf</a> (${pdf.length} bytes)</li>`,
	);
	expect((await fetch(`${sandbox.url}${attachmentUrl('other.pdf')}`)).status).toBe(404);
});

test('links are labelled by what they do: the link text, or Approve / Decline / Respond for n8n approval links', async () => {
	const approve = 'http://localhost:5678/webhook-waiting/41/x?approved=true&signature=ab';
	const decline = 'http://localhost:5678/webhook-waiting/41/x?approved=false&signature=cd';
	const respond = 'http://localhost:5678/webhook-waiting/42/x?signature=ef';
	await sendEmail({
		subject: 'Labels',
		html: '',
		text: `Approve: ${approve}\nDecline: ${decline}`,
	});
	await sendEmail({
		subject: 'Anchors',
		html: `<a href="${approve.replace(/&/g, '&amp;')}" style="x"><b>Approve refund</b></a> <a href="${decline.replace(/&/g, '&amp;')}"></a>`,
	});
	const sms = await runNode({
		node: new MessagingSms(),
		credentials: store,
		parameters: {
			resource: 'campaign',
			operation: 'sendToNumbers',
			sender: { __rl: true, mode: 'name', value: 'Sandbox' },
			phones: '+380986235698',
			body: `Refund? ${respond}`,
		},
	});
	expect(sms.error).toBeUndefined();
	const outbox = (await (await fetch(`${sandbox.url}/__sandbox/outbox`)).json()) as Array<
		Record<string, unknown>
	>;
	const labelsOf = (predicate: (entry: Record<string, unknown>) => boolean) =>
		outbox.find(predicate)!.labelledLinks;
	expect(labelsOf((entry) => entry.subject === 'Labels')).toEqual([
		{ label: 'Approve', url: approve },
		{ label: 'Decline', url: decline },
	]);
	expect(labelsOf((entry) => entry.subject === 'Anchors')).toEqual([
		{ label: 'Approve refund', url: approve },
		{ label: 'Decline', url: decline },
	]);
	expect(labelsOf((entry) => entry.kind === 'sms')).toEqual([{ label: 'Respond', url: respond }]);
	const section = await pageSection('Anchors');
	expect(section).toContain(
		`<a href="${approve.replace(/&/g, '&amp;')}" title="${approve.replace(/&/g, '&amp;')}" target="_blank">Approve refund</a>`,
	);
});

test('an SMS phone is marked delivered or not delivered now, as the campaign details then give it', async () => {
	const sent = await runNode({
		node: new MessagingSms(),
		credentials: store,
		parameters: {
			resource: 'campaign',
			operation: 'sendToNumbers',
			sender: { __rl: true, mode: 'name', value: 'Sandbox' },
			phones: '+380986235698, +380671234571',
			body: 'Your parcel is on its way',
		},
	});
	expect(sent.error).toBeUndefined();
	const id = Number(jsonOf(sent)[0].campaign_id);
	const forms = formsOf(await pageSection(`SMS #${id}<`));
	expect(forms.map((form) => form.label)).toEqual([
		'Delivered',
		'Not delivered',
		'Delivered',
		'Not delivered',
	]);
	await press(forms[1]);
	await press(forms[2]);
	const info = (await (
		await fetch(`${sandbox.url}/sms/campaigns/info/${id}`, {
			headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
		})
	).json()) as Array<{ data: { task_phones_info: Array<{ phone: number; status: number }> } }>;
	expect(
		info[0].data.task_phones_info.map(({ phone, status }) => ({ phone: String(phone), status })),
	).toEqual([
		{ phone: '380986235698', status: 12 },
		{ phone: '380671234571', status: 2 },
	]);
	expect(await pageSection(`SMS #${id}<`)).toContain('380986235698: <b>Not delivered</b>');
});
