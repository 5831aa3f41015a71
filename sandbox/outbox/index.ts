import { formatServiceDate } from '../core/clock';
import { CONTROL_PREFIX, type SandboxArea, type SandboxContext } from '../core/server';
import { emailStateOf } from '../email';
import type { SentEmail, Template } from '../email/state';
import { smsStateOf } from '../sms';
import { PHONE_STATUS } from '../sms/state';

/** A link of a message with what it does ("Approve", "Decline", "Respond", or the link's own text). */
export interface LabelledLink {
	label: string;
	url: string;
}

/**
 * A button of the outbox page: one request to the sandbox's control API (the same route a test or script would
 * call), `flush` = then post the email webhooks now instead of at the next 30 s of sandbox clock.
 */
export interface OutboxAction {
	label: string;
	method: 'POST' | 'PATCH';
	route: string;
	body: object;
	flush: boolean;
	/** What the page says once it worked. */
	done: string;
}

export interface OutboxAttachment {
	name: string;
	size: number;
	/** Download address, relative to the sandbox's URL. */
	url: string;
}

/** One message the sandbox accepted, as the outbox shows it. */
export type OutboxMessage =
	| {
			kind: 'email';
			id: string;
			sentAt: string;
			from: string;
			to: string[];
			subject: string;
			/** The HTML as sent, or for a template email the stored template with the email's variables put in. */
			html?: string;
			text?: string;
			template?: { id: string | number; variables: Record<string, unknown> };
			attachments: OutboxAttachment[];
			links: string[];
			labelledLinks: LabelledLink[];
			actions: OutboxAction[];
	  }
	| {
			kind: 'sms';
			id: number;
			sentAt: string;
			sender: string;
			phones: string[];
			/** Each phone's delivery status as the service's campaign details give it now. */
			statuses: Array<{ phone: string; status: number; statusText: string }>;
			body: string;
			links: string[];
			labelledLinks: LabelledLink[];
			actions: Array<OutboxAction & { phone: string }>;
	  };

const escape = (text: string) =>
	text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');

const unescape = (text: string) =>
	text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');

/** The links of an email's HTML (href values, unescaped) or of a text (bare http(s) URLs), in order. */
export function linksOf(html: string | undefined, text: string | undefined): string[] {
	return labelledLinksOf(html, text).map((link) => link.url);
}

/**
 * What a link does when its text does not say it: n8n's Send and Wait links (`/webhook-waiting/…`) approve
 * (`approved=true`), decline (`approved=false`) or open the answer page; any other link is shown as itself.
 */
function labelOfUrl(url: string): string {
	if (!url.includes('/webhook-waiting/')) return url;
	const approved = /[?&]approved=(true|false)(&|$)/.exec(url)?.[1];
	return approved === 'true' ? 'Approve' : approved === 'false' ? 'Decline' : 'Respond';
}

/** The links of an email's HTML (labelled by their text) or of a text (labelled by what they do), in order. */
export function labelledLinksOf(
	html: string | undefined,
	text: string | undefined,
): LabelledLink[] {
	if (html) {
		return [
			...html.matchAll(/<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>|\bhref="([^"]*)"/gi),
		].map((match) => {
			const url = unescape(match[1] ?? match[3]);
			const label = unescape((match[2] ?? '').replace(/<[^>]*>/g, ''))
				.replace(/\s+/g, ' ')
				.trim();
			return { label: label || labelOfUrl(url), url };
		});
	}
	return [...(text ?? '').matchAll(/https?:\/\/\S+/g)].map((match) => ({
		label: labelOfUrl(match[0]),
		url: match[0],
	}));
}

/**
 * A template email as the recipient gets it: the stored template's HTML with each `{{name}}` replaced by the
 * email's variable (HTML-escaped). A name the email gave no variable for stays visible as `{{name}}`, so the
 * outbox shows what was left out.
 */
export function renderTemplate(template: Template, variables: Record<string, unknown>): string {
	return template.html.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (placeholder, name: string) => {
		const value = variables[name];
		return value === undefined || value === null ? placeholder : escape(String(value));
	});
}

const attachmentRoute = (email: SentEmail, name: string) =>
	`${CONTROL_PREFIX}/outbox/email/${encodeURIComponent(email.id)}/attachments/${encodeURIComponent(name)}`;

function attachmentsOf(email: SentEmail): OutboxAttachment[] {
	const text = Object.entries(email.content.attachments).map(([name, content]) => ({
		name,
		size: Buffer.byteLength(content, 'utf8'),
		url: attachmentRoute(email, name),
	}));
	const binary = Object.entries(email.content.attachmentsBinary).map(([name, content]) => ({
		name,
		size: Buffer.from(content, 'base64').length,
		url: attachmentRoute(email, name),
	}));
	return [...text, ...binary];
}

/**
 * What a recipient can do to an email, as control API requests: bounce (the bounce list the polling trigger
 * reads, and a hard-bounce webhook event), unsubscribe and spam complaint (the unsubscribe list and their events),
 * an open and a click of the first link (tracking and their events). Each for the email's first recipient.
 */
function emailActions(email: SentEmail, links: LabelledLink[]): OutboxAction[] {
	const recipient = email.recipient;
	const tracking = `${CONTROL_PREFIX}/email/tracking`;
	const opens: OutboxAction = {
		label: 'Open',
		method: 'POST',
		route: tracking,
		body: { id: email.id, opens: [{}] },
		flush: true,
		done: `Opened by ${recipient ?? 'the recipient'}`,
	};
	const link = links[0]?.url ?? 'https://example.com/';
	const click: OutboxAction = {
		label: 'Click',
		method: 'POST',
		route: tracking,
		body: { id: email.id, clicks: [{ url: link }] },
		flush: true,
		done: `Clicked ${link}`,
	};
	if (!recipient) return [opens, click];
	return [
		{
			label: 'Bounce',
			method: 'POST',
			route: `${CONTROL_PREFIX}/email/bounces`,
			body: { bounces: [{ email_to: recipient, sender: email.sender, subject: email.subject }] },
			flush: true,
			done: `${recipient} bounced (550 User unknown)`,
		},
		{
			label: 'Unsubscribe',
			method: 'POST',
			route: `${CONTROL_PREFIX}/email/unsubscribes`,
			body: { unsubscribes: [{ email: recipient, unsubscribe_by_link: 1 }] },
			flush: true,
			done: `${recipient} unsubscribed`,
		},
		{
			label: 'Spam complaint',
			method: 'POST',
			route: `${CONTROL_PREFIX}/email/unsubscribes`,
			body: { unsubscribes: [{ email: recipient, spam_complaint: 1 }] },
			flush: true,
			done: `${recipient} marked it as spam`,
		},
		opens,
		click,
	];
}

function smsActions(campaignId: number, phones: string[]) {
	return phones.flatMap((phone) =>
		[2, 12].map((status) => ({
			phone,
			label: PHONE_STATUS[status],
			method: 'PATCH' as const,
			route: `${CONTROL_PREFIX}/sms/campaigns/${campaignId}/phones`,
			body: { statuses: { [phone]: status } },
			flush: false,
			done: `SMS #${campaignId} to ${phone}: ${PHONE_STATUS[status]}`,
		})),
	);
}

/** Every accepted email and SMS (not emulated campaigns), newest first. */
export function outboxOf(sandbox: { clock: object }): OutboxMessage[] {
	const emailState = emailStateOf(sandbox);
	const emails: OutboxMessage[] = emailState.emails.map((email) => {
		const { template } = email.content;
		const stored = template ? emailState.templates.get(String(template.id)) : undefined;
		const html =
			stored && template
				? renderTemplate(stored, template.variables as Record<string, unknown>)
				: email.content.html;
		const links = labelledLinksOf(html, email.content.text);
		return {
			kind: 'email',
			id: email.id,
			sentAt: email.send_date,
			from: email.content.from.email,
			to: email.content.to.map((recipient) => recipient.email),
			subject: email.subject,
			html,
			text: email.content.text,
			...(template
				? {
						template: {
							id: template.id,
							variables: template.variables as Record<string, unknown>,
						},
					}
				: {}),
			attachments: attachmentsOf(email),
			links: links.map((link) => link.url),
			labelledLinks: links,
			actions: emailActions(email, links),
		};
	});
	const smsState = smsStateOf(sandbox);
	const sms: OutboxMessage[] = [...smsState.campaigns.values()].map((campaign) => {
		const phones = campaign.phones ?? [];
		const links = labelledLinksOf(undefined, campaign.body);
		return {
			kind: 'sms',
			id: campaign.id,
			sentAt: formatServiceDate(campaign.createdAt),
			sender: campaign.sender,
			phones,
			statuses: phones.map((phone) => {
				const status = smsState.phoneStatus(campaign, phone);
				return { phone, status, statusText: PHONE_STATUS[status] ?? String(status) };
			}),
			body: campaign.body,
			links: links.map((link) => link.url),
			labelledLinks: links,
			actions: smsActions(campaign.id, phones),
		};
	});
	// The service's dates have whole seconds: within one second the order of acceptance decides (newest first).
	// Emails and SMS are counted apart, so an email and an SMS of the same second keep no order between them.
	const ranked = [emails, sms].flatMap((messages) =>
		messages.map((message, accepted) => ({ message, accepted })),
	);
	return ranked
		.sort((a, b) => b.message.sentAt.localeCompare(a.message.sentAt) || b.accepted - a.accepted)
		.map(({ message }) => message);
}

/** A POST form the page's script sends as JSON to the control API (HTML forms cannot send JSON themselves). */
function actionForm(action: OutboxAction): string {
	return [
		`<form method="post" action="${escape(action.route)}" data-method="${action.method}"`,
		` data-body="${escape(JSON.stringify(action.body))}" data-flush="${action.flush ? '1' : ''}"`,
		` data-done="${escape(action.done)}"><button>${escape(action.label)}</button></form>`,
	].join('');
}

const sizeText = (bytes: number) =>
	bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} kB`;

function emailEntry(message: Extract<OutboxMessage, { kind: 'email' }>): string {
	const template = message.template ? ` · template ${escape(String(message.template.id))}` : '';
	const attachments = message.attachments.length
		? `<p>Attachments:</p><ul>${message.attachments
				.map(
					(file) =>
						`<li><a href="${escape(file.url)}" download="${escape(file.name)}">${escape(file.name)}</a> (${sizeText(file.size)})</li>`,
				)
				.join('')}</ul>`
		: '';
	return [
		`<h2>✉ ${escape(message.subject)}</h2>`,
		`<p>${escape(message.sentAt)} · from ${escape(message.from)} to ${escape(message.to.join(', '))}${template} · `,
		`<a href="outbox/email/${encodeURIComponent(message.id)}" target="_blank">open the email</a></p>`,
		linkList(message.labelledLinks),
		attachments,
		`<div class="actions"><span>What the recipient does:</span>${message.actions.map(actionForm).join('')}</div>`,
	].join('');
}

function smsEntry(message: Extract<OutboxMessage, { kind: 'sms' }>): string {
	const phones = message.statuses
		.map(({ phone, statusText }) => {
			const forms = message.actions
				.filter((action) => action.phone === phone)
				.map(actionForm)
				.join('');
			return `<li>${escape(phone)}: <b>${escape(statusText)}</b> <span class="actions">mark ${forms}</span></li>`;
		})
		.join('');
	return [
		`<h2>SMS #${message.id}</h2><p>${escape(message.sentAt)} · from ${escape(message.sender)}</p>`,
		`<pre>${escape(message.body)}</pre>`,
		linkList(message.labelledLinks),
		phones ? `<ul>${phones}</ul>` : '',
	].join('');
}

function linkList(links: LabelledLink[]): string {
	if (!links.length) return '';
	const items = links
		.map(
			(link) =>
				`<li><a href="${escape(link.url)}" title="${escape(link.url)}" target="_blank">${escape(link.label)}</a></li>`,
		)
		.join('');
	return `<ul class="links">${items}</ul>`;
}

/**
 * Sends a form's request, then (for email events) the webhook flush, and reloads with what happened: the HTTP
 * status each handler answered, or why nothing was posted.
 */
const PAGE_SCRIPT = `
const note = sessionStorage.getItem('outbox-note');
if (note) { document.getElementById('note').textContent = note; sessionStorage.removeItem('outbox-note'); }
const webhooks = async () => await (await fetch('${CONTROL_PREFIX}/email/webhooks')).json();
document.addEventListener('submit', async (event) => {
	const form = event.target;
	event.preventDefault();
	form.querySelector('button').disabled = true;
	const before = form.dataset.flush ? (await webhooks()).deliveries.length : 0;
	const response = await fetch(form.getAttribute('action'), {
		method: form.dataset.method,
		headers: { 'Content-Type': 'application/json' },
		body: form.dataset.body,
	});
	let text = response.ok ? form.dataset.done : 'Failed: ' + (await response.text());
	if (response.ok && form.dataset.flush) {
		await fetch('${CONTROL_PREFIX}/email/webhooks/flush', { method: 'POST' });
		const { handlers, deliveries } = await webhooks();
		const posted = deliveries.slice(before);
		const failed = posted.some((delivery) => !delivery.delivered);
		text += handlers.length === 0 ? '; no webhook handler is registered'
			: posted.length === 0 ? '; nothing posted (no handler ticks this kind)'
			: '; posted to the webhook handler: ' + posted.map((delivery) => delivery.status || 'no answer').join(', ')
				+ (failed ? ' (posted again every 30 s until answered 2xx: is the workflow published?)' : '');
	}
	sessionStorage.setItem('outbox-note', text);
	location.reload();
});`;

function outboxPage(messages: OutboxMessage[]): string {
	const entries = messages
		.map(
			(message) =>
				`<section>${message.kind === 'email' ? emailEntry(message) : smsEntry(message)}</section>`,
		)
		.join('');
	return [
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
		'<title>Sandbox outbox</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}',
		'section{border:1px solid #ddd;border-radius:8px;padding:.5rem 1rem;margin:.75rem 0}h2{font-size:1.05rem;margin:.5rem 0}',
		'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.5rem}a{overflow-wrap:anywhere}',
		'form{display:inline;margin:0 .25rem}.actions{display:inline-flex;flex-wrap:wrap;gap:.25rem;align-items:center}',
		'#note{background:#eef6ee;padding:.25rem .5rem}#note:empty{display:none}</style></head><body>',
		'<h1>Sandbox outbox</h1><p>Every email and SMS the sandbox accepted, newest first. The buttons act as the recipient',
		' or the network would: a bounce, an unsubscribe, a spam complaint, an open or a click reaches the polling',
		' trigger at its next check and is posted to the registered webhook handler at once; an SMS marked delivered or',
		' not delivered reaches the SMS trigger at its next check. JSON: <a href="outbox">/__sandbox/outbox</a>.</p>',
		'<p id="note" role="status"></p>',
		entries || '<p>Nothing sent yet.</p>',
		`<script>${PAGE_SCRIPT}</script></body></html>`,
	].join('');
}

const html = (page: string, status = 200) => ({
	status,
	body: null,
	rawBody: page,
	headers: { 'Content-Type': 'text/html; charset=utf-8' },
});

const MEDIA_TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	txt: 'text/plain; charset=utf-8',
	csv: 'text/csv; charset=utf-8',
	json: 'application/json',
	html: 'text/html; charset=utf-8',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
};

/**
 * The outbox: what the email and SMS areas accepted, as JSON (GET /__sandbox/outbox), as a page with labelled
 * links, attachments and buttons that call the control API (GET /__sandbox/outbox.html), one email as the
 * recipient would see it (GET /__sandbox/outbox/email/:id, a template email rendered) and its attachments
 * (GET /__sandbox/outbox/email/:id/attachments/:name). Needs both areas; register it after them.
 */
export const outboxArea: SandboxArea = (context: SandboxContext) => {
	const sandbox = { clock: context.clock };
	context.control({
		method: 'GET',
		path: '/outbox',
		handle: () => ({ body: outboxOf(sandbox) }),
	});
	context.control({
		method: 'GET',
		path: '/outbox.html',
		handle: () => html(outboxPage(outboxOf(sandbox))),
	});
	context.control({
		method: 'GET',
		path: '/outbox/email/:id',
		handle: ({ params }) => {
			const message = outboxOf(sandbox).find(
				(entry) => entry.kind === 'email' && entry.id === params.id,
			);
			if (message?.kind !== 'email') return html('<p>No such email</p>', 404);
			return html(message.html ?? `<pre>${escape(message.text ?? '')}</pre>`);
		},
	});
	context.control({
		method: 'GET',
		path: '/outbox/email/:id/attachments/:name',
		handle: ({ params }) => {
			const email = emailStateOf(sandbox).emails.find((entry) => entry.id === params.id);
			const text = email?.content.attachments[params.name];
			const binary = email?.content.attachmentsBinary[params.name];
			if (text === undefined && binary === undefined) return html('<p>No such attachment</p>', 404);
			const extension = /\.([a-z0-9]+)$/i.exec(params.name)?.[1].toLowerCase() ?? '';
			return {
				body: null,
				rawBody: binary !== undefined ? Buffer.from(binary, 'base64') : Buffer.from(text!, 'utf8'),
				headers: {
					'Content-Type': MEDIA_TYPES[extension] ?? 'application/octet-stream',
					'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(params.name)}`,
				},
			};
		},
	});
};
