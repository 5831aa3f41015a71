import { ServiceError } from '../core/errors';
import { isPlainObject } from '../core/schema';
import { MESSAGE_SIZE_LIMIT, type EmailState, type SentEmail } from './state';

export const EMAIL_PATTERN = /^[^\s@<>,;"()[\]]+@[^\s@<>,;"()[\]]+\.[A-Za-z0-9-]{2,}$/;

const EMAIL_KEYS = [
	'html',
	'text',
	'template',
	'auto_plain_text',
	'subject',
	'from',
	'to',
	'cc',
	'bcc',
	'attachments',
	'attachments_binary',
];

const fail = (message: string, code: number) => new ServiceError(422, message, code);

function isBase64(value: string): boolean {
	return value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

function decodeUtf8Base64(value: string): string | undefined {
	if (!isBase64(value)) return undefined;
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'base64'));
	} catch {
		return undefined;
	}
}

function recipients(
	value: unknown,
	key: 'to' | 'cc' | 'bcc',
): Array<{ name?: string; email: string }> {
	if (value === undefined && key !== 'to') return [];
	const invalid = fail(`Argument email.${key} is invalid`, 11);
	if (!Array.isArray(value) || value.length === 0) throw invalid;
	return value.map((entry) => {
		if (
			!isPlainObject(entry) ||
			Object.keys(entry).some((field) => field !== 'name' && field !== 'email')
		)
			throw invalid;
		if (typeof entry.email !== 'string' || !EMAIL_PATTERN.test(entry.email)) throw invalid;
		if (entry.name !== undefined && typeof entry.name !== 'string') throw invalid;
		return entry.name === undefined
			? { email: entry.email }
			: { name: entry.name, email: entry.email };
	});
}

function stringMap(value: unknown, key: string, base64: boolean): Record<string, string> {
	if (value === undefined) return {};
	const invalid = fail(`Argument ${key} is invalid`, 422);
	if (!isPlainObject(value) || Object.keys(value).length === 0) throw invalid;
	for (const [name, content] of Object.entries(value)) {
		if (!name || typeof content !== 'string' || (base64 && !isBase64(content))) throw invalid;
	}
	return value as Record<string, string>;
}

/**
 * Checks `{email: {...}}` of POST /smtp/emails the way the live service answers (docs/service-notes.md, Errors):
 * 422 with its messages and codes, in the order a client is most likely to meet them.
 */
export function checkEmailToSend(
	state: EmailState,
	body: Record<string, unknown>,
): SentEmail['content'] & { subject: string } {
	const email = body.email;
	if (!isPlainObject(email)) throw fail('Argument email missing', 422);
	for (const key of Object.keys(email)) {
		if (!EMAIL_KEYS.includes(key)) throw fail(`Unknown argument email.${key}`, 422);
	}

	const from = email.from;
	if (!isPlainObject(from) || typeof from.email !== 'string' || from.email === '')
		throw fail('Argument from.email missing', 10);
	if (
		Object.keys(from).some((field) => field !== 'name' && field !== 'email') ||
		!EMAIL_PATTERN.test(from.email)
	) {
		throw fail('Argument from.email is invalid', 10);
	}
	if (from.name !== undefined && typeof from.name !== 'string')
		throw fail('Argument from.name is invalid', 10);

	const to = recipients(email.to, 'to');
	const cc = recipients(email.cc, 'cc');
	const bcc = recipients(email.bcc, 'bcc');

	if (typeof email.subject !== 'string' || email.subject.trim() === '')
		throw fail('Argument subject missing', 12);

	let html: string | undefined;
	let text: string | undefined;
	let template: SentEmail['content']['template'];
	if (email.template !== undefined) {
		if (email.html !== undefined || email.text !== undefined) {
			throw fail('Argument template cannot be combined with html or text', 422);
		}
		const raw = email.template;
		if (!isPlainObject(raw) || Object.keys(raw).length === 0)
			throw fail('Argument template is invalid', 422);
		if (Object.keys(raw).some((field) => field !== 'id' && field !== 'variables'))
			throw fail('Argument template is invalid', 422);
		const id = raw.id;
		if (!(
			(typeof id === 'string' && id !== '') ||
			(typeof id === 'number' && Number.isInteger(id))
		)) {
			throw fail('Argument template.id missing', 422);
		}
		if (!state.templates.has(String(id))) throw fail('Template not found', 31);
		const variables = raw.variables;
		if (
			!isPlainObject(variables) ||
			Object.values(variables).some((value) => value !== null && typeof value === 'object')
		) {
			throw fail('Variables list passed in wrong format', 731);
		}
		template = { id, variables };
	} else {
		if (email.html !== undefined) {
			if (typeof email.html !== 'string') throw fail('Argument html is invalid', 13);
			html = decodeUtf8Base64(email.html);
			if (html === undefined) throw fail('Argument html is invalid', 13);
		}
		if (email.text !== undefined) {
			if (typeof email.text !== 'string') throw fail('Argument text is invalid', 13);
			text = email.text;
		}
		if (!html && !text) throw fail('Missed email body', 13);
	}
	if (email.auto_plain_text !== undefined && typeof email.auto_plain_text !== 'boolean') {
		throw fail('Argument auto_plain_text is invalid', 422);
	}

	const attachments = stringMap(email.attachments, 'attachments', false);
	const attachmentsBinary = stringMap(email.attachments_binary, 'attachments_binary', true);

	if (!state.isSender(from.email)) throw fail('Sender is not valid', 422);

	const content = {
		from:
			from.name === undefined
				? { email: from.email }
				: { name: from.name as string, email: from.email },
		to,
		cc,
		bcc,
		...(html !== undefined ? { html } : {}),
		...(text !== undefined ? { text } : {}),
		...(email.auto_plain_text !== undefined ? { autoPlainText: email.auto_plain_text } : {}),
		...(template ? { template } : {}),
		attachments,
		attachmentsBinary,
		subject: email.subject,
	};
	if (messageSize(content) > MESSAGE_SIZE_LIMIT) throw fail('Message size limit exceeded', 422);
	return content;
}

/** A stand-in for the MIME size: headers plus every part's bytes. */
export function messageSize(content: SentEmail['content'] & { subject: string }): number {
	const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
	let size = 300 + bytes(content.subject);
	if (content.html) size += bytes(content.html);
	if (content.text) size += bytes(content.text);
	if (content.template) size += 1000;
	for (const value of Object.values(content.attachments)) size += bytes(value);
	for (const value of Object.values(content.attachmentsBinary))
		size += Buffer.from(value, 'base64').length;
	return size;
}
