import type { IDataObject } from 'n8n-workflow';

import { isRecord, recordList } from '../values/objects';
import { phoneToString } from '../values/phones';
import { serviceTimeToDate } from '../values/serviceTime';
import { numberOrNull, serviceNumber, textOrNull, withIsoTwins } from './values';

/**
 * Service records made consistent for n8n (the output vocabulary, docs/architecture.md): the service's fields keep
 * their names, ids and phones as strings, numbers as numbers; what the package adds is camelCase (`statusName`,
 * the ISO twins of times).
 */

const PHONE_STATUS_NAMES: Record<number, string> = {
	0: 'Ready to send',
	1: 'Sent',
	2: 'Delivered',
	12: 'Not delivered',
};
const SENDER_STATUS_NAMES: Record<number, string> = {
	0: 'In moderation',
	1: 'Active',
	2: 'Rejected',
};

const CYRILLIC_COUNTRY_CODE = '\u0441ountry_code';

/** Sets a field only when the service's value could be read (the raw value stays otherwise). */
function set(record: IDataObject, key: string, value: unknown) {
	if (value !== undefined && value !== null) record[key] = value as IDataObject[string];
}

export function campaignListItem(raw: IDataObject, timeZone: string): IDataObject {
	const record: IDataObject = { ...raw };
	set(record, 'id', textOrNull(raw.id));
	set(record, 'address_book_id', textOrNull(raw.address_book_id));
	set(record, 'company_price', serviceNumber(raw.company_price));
	return withIsoTwins(record, ['send_date', 'date_created'], timeZone);
}

export function phoneInfo(raw: IDataObject): IDataObject {
	const record: IDataObject = { ...raw };
	delete record[CYRILLIC_COUNTRY_CODE];
	record.phone = phoneToString(raw.phone);
	const status = serviceNumber(raw.status);
	set(record, 'status', status);
	if (status !== undefined)
		record.statusName = PHONE_STATUS_NAMES[status] ?? String(raw.status_explain ?? 'Unknown');
	record.country_code = String(raw.country_code ?? raw[CYRILLIC_COUNTRY_CODE] ?? '');
	set(record, 'money_spent', serviceNumber(raw.money_spent));
	return record;
}

/**
 * GET /sms/campaigns/info/{id} answers `[{ result: true, data: <campaign detail> }]` (the detail bare is read too):
 * the detail with its phones, or undefined when the answer holds none (for `client.requestValue`).
 */
export function campaignDetailIn(body: unknown): IDataObject | undefined {
	const detail = isRecord(body) && isRecord(body.data) ? body.data : body;
	return isRecord(detail) && recordList(detail.task_phones_info) ? detail : undefined;
}

export function campaignDetail(raw: IDataObject, timeZone: string): IDataObject {
	const record = campaignListItem(raw, timeZone);
	const phones = Array.isArray(raw.task_phones_info) ? (raw.task_phones_info as IDataObject[]) : [];
	record.task_phones_info = phones.map(phoneInfo);
	return record;
}

export function senderId(raw: IDataObject): IDataObject {
	const record: IDataObject = { ...raw };
	set(record, 'id', textOrNull(raw.id));
	const status = serviceNumber(raw.status);
	set(record, 'status', status);
	if (status !== undefined)
		record.statusName = SENDER_STATUS_NAMES[status] ?? String(raw.status_explain ?? 'Unknown');
	return record;
}

export function blacklistEntry(raw: IDataObject, timeZone: string): IDataObject {
	return withIsoTwins({ ...raw, phone: phoneToString(raw.phone) }, ['add_date'], timeZone);
}

/**
 * `{result, data: [...]}` or a bare array → the records; undefined when the answer holds no list of records (an
 * extractor for `client.requestList`, which makes that an error rather than an empty list).
 */
export function dataList(body: unknown): IDataObject[] | undefined {
	return recordList(Array.isArray(body) ? body : isRecord(body) ? body.data : undefined);
}

export type SmsEventType = 'smsSent' | 'smsDelivered' | 'smsNotDelivered';
const SMS_EVENT_TYPES: SmsEventType[] = ['smsDelivered', 'smsNotDelivered', 'smsSent'];
export const isSmsEvent = (value: unknown): value is SmsEventType =>
	SMS_EVENT_TYPES.includes(value as SmsEventType);

/** The phone status each event stands for (the reference's codes). */
const EVENT_STATUS: Record<SmsEventType, number> = {
	smsSent: 1,
	smsDelivered: 2,
	smsNotDelivered: 12,
};

/** One flat output item per phone and status, with the service's phone record under `raw`. */
export function smsOutput(
	event: SmsEventType,
	campaignId: string,
	detail: IDataObject,
	phone: { phone: string; raw: IDataObject },
	seenAt: number,
	timeZone: string,
): IDataObject {
	const info = phoneInfo(phone.raw);
	const status = EVENT_STATUS[event];
	const sendDate = textOrNull(detail.send_date);
	return {
		event,
		campaignId,
		phone: phone.phone,
		status,
		statusName: PHONE_STATUS_NAMES[status],
		countryCode: info.country_code === '' ? null : String(info.country_code),
		moneySpent: numberOrNull(phone.raw.money_spent),
		currency: textOrNull(detail.currency),
		senderName: textOrNull(detail.sender_name),
		sendDate,
		sendDateIso: serviceTimeToDate(sendDate, timeZone)?.toISOString() ?? null,
		statusSeenAt: new Date(seenAt).toISOString(),
		raw: phone.raw,
	};
}
