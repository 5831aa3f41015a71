/**
 * The one output shape of an email event (bounce, unsubscribe), whichever part of the package emits it: Bounce →
 * Get Many, Unsubscribe → Get Many, the polling trigger and the webhook trigger. Flat camelCase fields for the facts users map
 * (`email`, `eventTime`, `smtpCode`, …) and the record exactly as the service gave it under `raw`.
 */
import type { IDataObject } from 'n8n-workflow';

import { dateToServiceTime, serviceTimeToDate } from '../values/serviceTime';
import { isRecord, recordList } from '../values/objects';
import { numberOrNull, serviceNumber, textOrNull, totalIn } from './values';

/** 5xx (or a 5.x.x subcode) is a permanent failure, 4xx a temporary one. */
export function bounceType(code: unknown, subcode: unknown): 'hard' | 'soft' | 'unknown' {
	const codeClass = String(code ?? '')
		.trim()
		.charAt(0);
	const digit =
		codeClass === '4' || codeClass === '5'
			? codeClass
			: String(subcode ?? '')
					.trim()
					.charAt(0);
	if (digit === '5') return 'hard';
	if (digit === '4') return 'soft';
	return 'unknown';
}

const toFlag = (value: unknown): boolean => value === true || serviceNumber(value) === 1;

/** `event`, `email`, `eventTime` (service wall-clock time) and `eventTimeIso` (that time in the account's zone). */
export function eventBase(
	event: string,
	email: unknown,
	time: unknown,
	timeZone: string,
): IDataObject {
	const instant = serviceTimeToDate(time, timeZone);
	return {
		event,
		email: String(email ?? ''),
		eventTime: textOrNull(time),
		eventTimeIso: instant ? instant.toISOString() : null,
	};
}

/** The SMTP answer of a failed delivery, the same fields wherever a bounce is emitted. */
export function smtpAnswer(code: unknown, subcode: unknown, message: unknown): IDataObject {
	return {
		smtpCode: numberOrNull(code),
		smtpSubcode: textOrNull(subcode),
		smtpMessage: textOrNull(message),
		bounceType: bounceType(code, subcode),
	};
}

/** A bounce record of GET /smtp/bounces/day (`email_to`, `send_date`, `smtp_answer_*`). */
export function bounceOutput(record: IDataObject, timeZone: string): IDataObject {
	return {
		...eventBase('bounce', record.email_to, record.send_date, timeZone),
		sender: textOrNull(record.sender),
		subject: textOrNull(record.subject),
		...smtpAnswer(record.smtp_answer_code, record.smtp_answer_subcode, record.smtp_answer_data),
		raw: record,
	};
}

/** An unsubscribed entry of GET /smtp/unsubscribe (`email`, `date`, 0/1 flags). */
export function unsubscribeOutput(record: IDataObject, timeZone: string): IDataObject {
	return {
		...eventBase('unsubscribe', record.email, record.date, timeZone),
		byLink: toFlag(record.unsubscribe_by_link),
		byUser: toFlag(record.unsubscribe_by_user),
		spamComplaint: toFlag(record.spam_complaint),
		raw: record,
	};
}

/**
 * GET /smtp/bounces/day answers `{total, emails, request_limit, found}` (a bare array is accepted too); undefined
 * when the answer holds no list of bounces, so the caller can report an unreadable answer.
 */
export function bounceList(body: unknown): { records: IDataObject[]; total?: number } | undefined {
	const records = recordList(isRecord(body) ? body.emails : body);
	if (!records) return undefined;
	return isRecord(body) ? { records, total: totalIn(body) } : { records };
}

/**
 * The service's webhook kinds (raw `event` values, docs/service-notes.md, Webhooks) and what each is called in the
 * output. Bounces get `event: 'bounce'` as in Bounce → Get Many and the polling trigger, with `bounceType` telling
 * hard from soft; unsubscribes get `event: 'unsubscribe'` as in the polling trigger. The service's own developer
 * docs (2026) spell three kinds differently from its clients (`hard_bounced`, `soft_bounced`, `spam`): both
 * spellings are the same event, everywhere (Events filter, output, repeat keys).
 */
export const WEBHOOK_KINDS = {
	delivered: 'delivered',
	undelivered: 'notDelivered',
	opened: 'opened',
	clicked: 'clicked',
	redirected: 'clicked',
	spam_by_user: 'spamComplaint',
	spam: 'spamComplaint',
	unsubscribed: 'unsubscribe',
	resubscribed: 'resubscribe',
	hard_bounces: 'bounce',
	hard_bounced: 'bounce',
	soft_bounces: 'bounce',
	soft_bounced: 'bounce',
} as const satisfies Record<string, string>;

export type WebhookKind = keyof typeof WEBHOOK_KINDS;

export const isWebhookKind = (kind: string): kind is WebhookKind =>
	Object.prototype.hasOwnProperty.call(WEBHOOK_KINDS, kind);

/** Other spellings of one kind → the spelling the Events filter uses. */
const KIND_ALIASES: Partial<Record<WebhookKind, WebhookKind>> = {
	redirected: 'clicked',
	spam: 'spam_by_user',
	hard_bounced: 'hard_bounces',
	soft_bounced: 'soft_bounces',
};

/** The Events filter's name of a kind (`hard_bounced` → `hard_bounces`); unknown kinds stay as they are. */
export const canonicalWebhookKind = (kind: string): string =>
	isWebhookKind(kind) ? (KIND_ALIASES[kind] ?? kind) : kind;

/** The service's verdict decides hard or soft (users unsubscribe on "hard"); the SMTP code is reported beside it. */
const BOUNCE_TYPE_OF_KIND: Partial<Record<string, 'hard' | 'soft'>> = {
	hard_bounces: 'hard',
	soft_bounces: 'soft',
};

const firstPresent = (record: IDataObject, ...keys: string[]): unknown => {
	for (const key of keys) if (record[key] !== undefined && record[key] !== null) return record[key];
	return undefined;
};

/** Where a webhook event names its recipient: `recipient` (most kinds), `email` (bounces), `email_to` (the lists). */
const ADDRESS_FIELDS = ['recipient', 'email', 'email_to'] as const;
/** Where a click names its link: the service posts `link_url` or `url` (docs/service-notes.md, Webhooks). */
const LINK_FIELDS = ['link_url', 'url'] as const;

const firstText = (record: IDataObject, keys: readonly string[]): string | undefined => {
	for (const key of keys) {
		const value = record[key];
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return undefined;
};

/** The recipient's address of a webhook event, or undefined when it names none (then it is no event). */
export const recipientOf = (record: IDataObject): string | undefined =>
	firstText(record, ADDRESS_FIELDS);

/** Whether an event is a click that names no link in a field the trigger reads (its `linkUrl` is then null). */
export const isClickWithoutLink = (record: IDataObject): boolean =>
	canonicalWebhookKind(String(record.event ?? '')) === 'clicked' &&
	firstPresent(record, ...LINK_FIELDS) === undefined;

/**
 * When a webhook event happened: `timestamp` is Unix seconds (docs/service-notes.md, Webhooks); a service date
 * string is accepted too. `eventTime` is the service's wall-clock form in the account's zone, as the lists give it.
 */
function webhookTime(
	value: unknown,
	timeZone: string,
): Pick<IDataObject, 'eventTime' | 'eventTimeIso'> {
	const seconds = serviceNumber(value);
	if (seconds !== undefined) {
		const instant = new Date(seconds * 1000);
		if (!Number.isNaN(instant.getTime()))
			return {
				eventTime: dateToServiceTime(instant, timeZone),
				eventTimeIso: instant.toISOString(),
			};
	}
	const { eventTime, eventTimeIso } = eventBase('', '', value, timeZone);
	return { eventTime, eventTimeIso };
}

/**
 * One event of the service's webhook POST, in the shape every email event of this package has. Field names vary
 * between kinds (`recipient` vs `email`, `link_url` vs `url`): both are read. Kinds this package does not know
 * keep their own name in `event`. Every field is present (null when the event lacks it), the event under `raw`.
 * A bounce's `bounceType` is the service's verdict (its event kind); a Not Delivered event, which has no verdict
 * of its own, gets it from the SMTP code.
 */
export function webhookEventOutput(record: IDataObject, timeZone: string): IDataObject {
	const kind = canonicalWebhookKind(String(record.event ?? ''));
	const event = isWebhookKind(kind) ? WEBHOOK_KINDS[kind] : kind;
	const code = firstPresent(record, 'smtp_server_response_code', 'smtp_answer_code');
	const subcode = firstPresent(record, 'smtp_server_response_subcode', 'smtp_answer_subcode');
	const message = firstPresent(record, 'smtp_server_response', 'smtp_answer_data');
	const smtp = smtpAnswer(code, subcode, message);
	const verdict = BOUNCE_TYPE_OF_KIND[kind];
	if (verdict) smtp.bounceType = verdict;
	else if (event !== 'notDelivered') smtp.bounceType = null;
	return {
		event,
		email: recipientOf(record) ?? '',
		...webhookTime(record.timestamp, timeZone),
		sender: textOrNull(record.sender),
		subject: textOrNull(record.subject),
		messageId: textOrNull(firstPresent(record, 'message_id', 'messageId')),
		taskId: textOrNull(record.task_id),
		...smtp,
		linkUrl: textOrNull(firstPresent(record, ...LINK_FIELDS)),
		userAgent: textOrNull(firstPresent(record, 'user_agent', 'userAgent')),
		ip: textOrNull(record.ip),
		spamComplaint: kind === 'spam_by_user',
		raw: record,
	};
}
