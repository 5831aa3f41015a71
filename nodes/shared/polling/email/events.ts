import type { IDataObject } from 'n8n-workflow';

import type { MessagingClient } from '../../transport/client';
import { digest, type EventType } from './state';
import { bounceList, bounceOutput, unsubscribeOutput } from '../../records/emailEvents';
import { unsubscribeList } from '../../records/unsubscribes';
import { totalIn } from '../../records/values';

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

/**
 * GET /smtp/bounces/day answers `{total, emails, request_limit, found}`; a bare array is accepted too. An answer
 * without the list is the client's unreadable-answer error (as in the action nodes), and the poll moves nothing.
 */
export async function fetchBouncePage(
	client: MessagingClient,
	offset: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	return await client.requestValue(
		{ method: 'GET', path: '/smtp/bounces/day', query: { limit, offset } },
		'list of bounces',
		bounceList,
	);
}

/** GET /smtp/bounces/day/total answers `{ total: int }`: how many bounces the 24-hour window holds right now. */
export async function fetchBounceTotal(client: MessagingClient): Promise<number> {
	return await client.requestValue(
		{ method: 'GET', path: '/smtp/bounces/day/total' },
		'count of bounces',
		totalIn,
	);
}

/** GET /smtp/unsubscribe?date=YYYY-MM-DD answers a bare array of that day's entries (records/unsubscribes.ts). */
export async function fetchUnsubscribePage(
	client: MessagingClient,
	day: string,
	offset: number,
	limit = PAGE_SIZE,
): Promise<Page> {
	const records = await client.requestValue(
		{ method: 'GET', path: '/smtp/unsubscribe', query: { date: day, limit, offset } },
		'list of unsubscribed entries',
		unsubscribeList,
	);
	return { records };
}

const BOUNCE_FIELDS = [
	'email_to',
	'sender',
	'send_date',
	'subject',
	'smtp_answer_code',
	'smtp_answer_subcode',
	'smtp_answer_data',
];
const UNSUBSCRIBE_FIELDS = [
	'email',
	'date',
	'unsubscribe_by_link',
	'unsubscribe_by_user',
	'spam_complaint',
];

/** Bounce records have no id: the key is every field of the record (so two bounces differing only in time differ). */
export function listBounce(record: IDataObject): ListedEvent {
	const time = String(record.send_date ?? '');
	return {
		type: 'bounce',
		record,
		time,
		key: digest(BOUNCE_FIELDS.map((field) => normaliseForKey(record[field]))),
	};
}

export function listUnsubscribe(record: IDataObject): ListedEvent {
	const time = String(record.date ?? '');
	return {
		type: 'unsubscribe',
		record,
		time,
		key: digest(UNSUBSCRIBE_FIELDS.map((field) => normaliseForKey(record[field]))),
	};
}

/** `550` and `"550"` are the same answer code (the service is not consistent about number types). */
function normaliseForKey(value: unknown): unknown {
	if (typeof value === 'number') return String(value);
	return value ?? null;
}

/** One flat output item per event, the package's one shape for bounces and unsubscribes. */
export function toOutput(event: ListedEvent, timeZone: string): IDataObject {
	return event.type === 'bounce'
		? bounceOutput(event.record, timeZone)
		: unsubscribeOutput(event.record, timeZone);
}
