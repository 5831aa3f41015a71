import { formatServiceDate } from '../core/clock';
import type { SandboxArea, SandboxContext } from '../core/server';
import { emailStateOf } from '../email';
import { smsStateOf } from '../sms';

/** One message the sandbox accepted, as the outbox shows it. */
export type OutboxMessage =
	| {
			kind: 'email';
			id: string;
			sentAt: string;
			from: string;
			to: string[];
			subject: string;
			html?: string;
			text?: string;
			links: string[];
	  }
	| {
			kind: 'sms';
			id: number;
			sentAt: string;
			sender: string;
			phones: string[];
			body: string;
			links: string[];
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
	if (html) return [...html.matchAll(/href="([^"]*)"/g)].map((match) => unescape(match[1]));
	return [...(text ?? '').matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
}

/** Every accepted email and SMS (not emulated campaigns), newest first. */
export function outboxOf(sandbox: { clock: object }): OutboxMessage[] {
	const emails: OutboxMessage[] = emailStateOf(sandbox).emails.map((email) => ({
		kind: 'email',
		id: email.id,
		sentAt: email.send_date,
		from: email.content.from.email,
		to: email.content.to.map((recipient) => recipient.email),
		subject: email.subject,
		html: email.content.html,
		text: email.content.text,
		links: linksOf(email.content.html, email.content.text),
	}));
	const sms: OutboxMessage[] = [...smsStateOf(sandbox).campaigns.values()].map((campaign) => ({
		kind: 'sms',
		id: campaign.id,
		sentAt: formatServiceDate(campaign.createdAt),
		sender: campaign.sender,
		phones: campaign.phones ?? [],
		body: campaign.body,
		links: linksOf(undefined, campaign.body),
	}));
	// The service's dates have whole seconds: within one second the order of acceptance decides (newest first).
	// Emails and SMS are counted apart, so an email and an SMS of the same second keep no order between them.
	const ranked = [emails, sms].flatMap((messages) =>
		messages.map((message, accepted) => ({ message, accepted })),
	);
	return ranked
		.sort((a, b) => b.message.sentAt.localeCompare(a.message.sentAt) || b.accepted - a.accepted)
		.map(({ message }) => message);
}

function outboxPage(messages: OutboxMessage[]): string {
	const entries = messages
		.map((message) => {
			const links = message.links
				.map((link) => `<li><a href="${escape(link)}" target="_blank">${escape(link)}</a></li>`)
				.join('');
			const head =
				message.kind === 'email'
					? `<h2>✉ ${escape(message.subject)}</h2><p>${escape(message.sentAt)} · from ${escape(message.from)} to ${escape(message.to.join(', '))} · <a href="outbox/email/${encodeURIComponent(message.id)}" target="_blank">open the email</a></p>`
					: `<h2>SMS #${message.id}</h2><p>${escape(message.sentAt)} · from ${escape(message.sender)} to ${escape(message.phones.join(', '))}</p><pre>${escape(message.body)}</pre>`;
			return `<section>${head}${links ? `<ul>${links}</ul>` : ''}</section>`;
		})
		.join('');
	return [
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
		'<title>Sandbox outbox</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}',
		'section{border:1px solid #ddd;border-radius:8px;padding:.5rem 1rem;margin:.75rem 0}h2{font-size:1.05rem;margin:.5rem 0}',
		'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.5rem}a{overflow-wrap:anywhere}</style></head><body>',
		'<h1>Sandbox outbox</h1><p>Every email and SMS the sandbox accepted, newest first. JSON: <a href="outbox">/__sandbox/outbox</a>. Reload to see new ones.</p>',
		entries || '<p>Nothing sent yet.</p>',
		'</body></html>',
	].join('');
}

const html = (page: string, status = 200) => ({
	status,
	body: null,
	rawBody: page,
	headers: { 'Content-Type': 'text/html; charset=utf-8' },
});

/**
 * The outbox: what the email and SMS areas accepted (decoded HTML and text of each email, each SMS), as JSON
 * (GET /__sandbox/outbox), as a page with clickable links (GET /__sandbox/outbox.html) and one email's HTML as
 * the recipient would see it (GET /__sandbox/outbox/email/:id). Needs both areas; register it after them.
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
			const email = emailStateOf(sandbox).emails.find((entry) => entry.id === params.id);
			if (!email) return html('<p>No such email</p>', 404);
			return html(email.content.html ?? `<pre>${escape(email.content.text ?? '')}</pre>`);
		},
	});
};
