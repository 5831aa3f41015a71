/** Escapes text for HTML content and attribute values (double- or single-quoted). */
export function escapeHtml(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&#39;');
}

/** Escaped text whose line breaks (real ones, or a typed "\n" as n8n's own nodes accept) become <br>. */
export function textToHtml(text: string): string {
	return escapeHtml(text.replace(/\\n/g, '\n')).replace(/\r?\n/g, '<br>');
}

const PAGE_STYLE = [
	'body{margin:0;background:#f4f4f5;font:16px/1.5 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#18181b}',
	'main{max-width:32rem;margin:0 auto;padding:1.5rem 1rem}',
	'.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}',
	'h1{font-size:1.25rem;margin:0 0 .75rem}',
	'p{margin:0 0 1rem;overflow-wrap:anywhere}',
	'label{display:block;font-weight:600;margin:.75rem 0 .25rem}',
	'input[type=text],input[type=number],input[type=email],input[type=date],select,textarea{box-sizing:border-box;width:100%;padding:.6rem;font:inherit;border:1px solid #a1a1aa;border-radius:8px}',
	'textarea{min-height:7rem}',
	'.check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.25rem 0}',
	'.buttons{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}',
	'button{flex:1 1 10rem;padding:.8rem 1rem;font:inherit;font-weight:600;border-radius:8px;border:1px solid #4f46e5;background:#4f46e5;color:#fff;cursor:pointer}',
	'button.secondary{background:#fff;color:#4f46e5}',
	'.error{color:#b91c1c;font-weight:600}',
	'.note{color:#52525b;font-size:.875rem;margin-top:1rem}',
	'dt{font-weight:600}dd{margin:0 0 .75rem;overflow-wrap:anywhere}',
].join('');

/**
 * A whole page: self-contained (no scripts, no external assets), readable on a phone. `title` is plain text;
 * `body` is HTML built from escaped parts.
 */
export function page(title: string, body: string): string {
	return [
		'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
		'<meta name="viewport" content="width=device-width,initial-scale=1">',
		'<meta name="robots" content="noindex,nofollow">',
		`<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head>`,
		`<body><main><div class="card"><h1>${escapeHtml(title)}</h1>${body}</div></main></body></html>`,
	].join('');
}

/**
 * The page after an accepted answer, repeating what was received (label and value). It is sent before n8n resumes
 * the execution, so it cannot promise the answer counted: an answer given at the same moment through another n8n
 * process may have arrived first.
 */
export function answeredPage(recorded: Array<[label: string, value: string]>): string {
	const rows = recorded
		.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${textToHtml(value)}</dd>`)
		.join('');
	return page(
		'Thank you',
		`<p>Your answer was received:</p><dl>${rows}</dl>` +
			'<p class="note">Only the first answer counts: if someone else answered this request at the same moment, the one that arrived first stands.</p>' +
			'<p>You can close this page.</p>',
	);
}

/** A link of an earlier wait, or of a request already answered: nothing to do. */
export function noActionPage(): string {
	return page(
		'No action required',
		'<p>This request was already answered, or this link belongs to an earlier request. Nothing was recorded.</p>',
	);
}

/** The second of two answers given at the same moment: the first one stands. */
export function lostRacePage(): string {
	return page(
		'Already answered',
		'<p>Someone answered this request just before you. Their answer stands; yours was not recorded.</p>',
	);
}

export interface MessageLink {
	label: string;
	url: string;
	primary: boolean;
}

const EMAIL_BUTTON =
	'display:inline-block;margin:0 12px 12px 0;padding:12px 20px;border-radius:8px;font-weight:600;text-decoration:none;';

/** The email's HTML: the escaped subject and message, then one button-styled link per choice. */
export function emailHtml(subject: string, message: string, links: MessageLink[]): string {
	const buttons = links
		.map(
			(link) =>
				`<a href="${escapeHtml(link.url)}" style="${EMAIL_BUTTON}${
					link.primary
						? 'background:#4f46e5;color:#ffffff;border:1px solid #4f46e5'
						: 'background:#ffffff;color:#4f46e5;border:1px solid #4f46e5'
				}">${escapeHtml(link.label)}</a>`,
		)
		.join('');
	return [
		'<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
		`<title>${escapeHtml(subject)}</title></head>`,
		'<body style="margin:0;padding:24px 12px;background:#f4f4f5;font-family:Helvetica,Arial,sans-serif;color:#18181b">',
		'<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">',
		`<p style="margin:0 0 20px;font-size:16px;line-height:1.5">${textToHtml(message)}</p>`,
		`<div>${buttons}</div>`,
		`<p style="margin:12px 0 0;font-size:13px;color:#52525b">${links.length === 1 ? 'The button opens' : 'Each button opens'} a page where you confirm your answer.</p>`,
		'</div></body></html>',
	].join('');
}

/** The email's text part: the message, then each link on its own line. */
export function emailText(message: string, links: MessageLink[]): string {
	const lines = links.map((link) => `${link.label}: ${link.url}`);
	const opens = links.length === 1 ? 'The link opens' : 'Each link opens';
	return `${message.replace(/\\n/g, '\n')}\n\n${lines.join('\n')}\n\n${opens} a page where you confirm your answer.`;
}
