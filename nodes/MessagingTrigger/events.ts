import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import type { MessagingClient } from '../shared/transport/client';
import { digest, type EventType } from './state';
import { serviceTimeToDate } from './time';

/** The service's maximum page size for both lists. */
export const PAGE_SIZE = 100;

/** One record as listed, with what the trigger derives from it. */
export interface ListedEvent {
	type: EventType;
	record: IDataObject;
	/** Service time string (`send_date` / `date`), as the service gave it. */
	time: string;
	/** Digest of the composite key. */
	key: string;
}

export interface Page {
	records: IDataObject[];
	/** Records in the whole window (bounces only). */
	total?: number;
}

const asRecords = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? value.filter((entry): entry is IDataObject => typeof entry === 'object' && entry !== null && !Array.isArray(entry)) : [];

/** GET /smtp/bounces/day answers `{total, emails, request_limit, found}`; a bare array is accepted too. */
export async function fetchBouncePage(context: IPollFunctions, client: MessagingClient, offset: number, limit = PAGE_SIZE): Promise<Page> {
	const body = await client.request<unknown>({ method: 'GET', path: '/smtp/bounces/day', query: { limit, offset } });
	if (Array.isArray(body)) return { records: asRecords(body) };
	if (typeof body === 'object' && body !== null && Array.isArray((body as IDataObject).emails)) {
		const total = Number((body as IDataObject).total);
		return { records: asRecords((body as IDataObject).emails), total: Number.isFinite(total) ? total : undefined };
	}
	throw new NodeOperationError(context.getNode(), 'Unexpected answer from GET /smtp/bounces/day: no list of bounces in it', {
		description: `The service answered: ${JSON.stringify(body).slice(0, 300)}`,
	});
}

/** GET /smtp/unsubscribe?date=YYYY-MM-DD answers a bare array of that day's entries. */
export async function fetchUnsubscribePage(
	context: IPollFunctions,
	client: MessagingClient,
	day: string,
	offset: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	const body = await client.request<unknown>({ method: 'GET', path: '/smtp/unsubscribe', query: { date: day, limit, offset } });
	if (Array.isArray(body)) return { records: asRecords(body) };
	if (typeof body === 'object' && body !== null && Array.isArray((body as IDataObject).data)) {
		return { records: asRecords((body as IDataObject).data) };
	}
	throw new NodeOperationError(context.getNode(), 'Unexpected answer from GET /smtp/unsubscribe: no list of unsubscribed entries in it', {
		description: `The service answered: ${JSON.stringify(body).slice(0, 300)}`,
	});
}

const BOUNCE_FIELDS = ['email_to', 'sender', 'send_date', 'subject', 'smtp_answer_code', 'smtp_answer_subcode', 'smtp_answer_data'];
const UNSUBSCRIBE_FIELDS = ['email', 'date', 'unsubscribe_by_link', 'unsubscribe_by_user', 'spam_complaint'];

/** Bounce records have no id: the key is every field of the record (so two bounces differing only in time differ). */
export function listBounce(record: IDataObject): ListedEvent {
	const time = String(record.send_date ?? '');
	return { type: 'bounce', record, time, key: digest(BOUNCE_FIELDS.map((field) => normaliseForKey(record[field]))) };
}

export function listUnsubscribe(record: IDataObject): ListedEvent {
	const time = String(record.date ?? '');
	return { type: 'unsubscribe', record, time, key: digest(UNSUBSCRIBE_FIELDS.map((field) => normaliseForKey(record[field]))) };
}

/** `550` and `"550"` are the same answer code (the service is not consistent about number types). */
function normaliseForKey(value: unknown): unknown {
	if (typeof value === 'number') return String(value);
	return value ?? null;
}

/** 5xx (or a 5.x.x subcode) is a permanent failure, 4xx a temporary one. */
export function bounceType(code: unknown, subcode: unknown): 'hard' | 'soft' | 'unknown' {
	const codeClass = String(code ?? '').trim().charAt(0);
	const digit = codeClass === '4' || codeClass === '5' ? codeClass : String(subcode ?? '').trim().charAt(0);
	if (digit === '5') return 'hard';
	if (digit === '4') return 'soft';
	return 'unknown';
}

const toNumberOrNull = (value: unknown): number | null => {
	if (value === null || value === undefined || value === '') return null;
	const number = Number(value);
	return Number.isFinite(number) ? number : null;
};

const toFlag = (value: unknown): boolean => value === true || Number(value) === 1;

/** One flat output item per event. Fields the trigger does not know are passed through unchanged. */
export function toOutput(event: ListedEvent, timeZone: string): IDataObject {
	const instant = serviceTimeToDate(event.time, timeZone);
	const common: IDataObject = {
		event: event.type,
		email: String((event.type === 'bounce' ? event.record.email_to : event.record.email) ?? ''),
		eventTime: event.time,
		eventTimeIso: instant ? instant.toISOString() : null,
	};
	const known = new Set(event.type === 'bounce' ? BOUNCE_FIELDS : UNSUBSCRIBE_FIELDS);
	const extra = Object.fromEntries(Object.entries(event.record).filter(([field]) => !known.has(field) && !(field in common)));
	if (event.type === 'bounce') {
		const { record } = event;
		return {
			...common,
			sender: (record.sender as string | undefined) ?? null,
			subject: (record.subject as string | undefined) ?? null,
			smtpCode: toNumberOrNull(record.smtp_answer_code),
			smtpSubcode: record.smtp_answer_subcode === undefined || record.smtp_answer_subcode === null ? null : String(record.smtp_answer_subcode),
			smtpMessage: (record.smtp_answer_data as string | undefined) ?? null,
			bounceType: bounceType(record.smtp_answer_code, record.smtp_answer_subcode),
			...extra,
		};
	}
	return {
		...common,
		byLink: toFlag(event.record.unsubscribe_by_link),
		byUser: toFlag(event.record.unsubscribe_by_user),
		spamComplaint: toFlag(event.record.spam_complaint),
		...extra,
	};
}
