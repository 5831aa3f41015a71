import type { IDataObject } from 'n8n-workflow';

import { phoneToString } from './phones';

/** Service records made consistent for n8n: ids and phones as strings, numbers as numbers, the raw record kept. */

export const PHONE_STATUS_NAMES: Record<number, string> = { 0: 'Ready to send', 1: 'Sent', 2: 'Delivered', 12: 'Not delivered' };
export const SENDER_STATUS_NAMES: Record<number, string> = { 0: 'In moderation', 1: 'Active', 2: 'Rejected' };

const CYRILLIC_COUNTRY_CODE = '\u0441ountry_code';

function asString(value: unknown): string | undefined {
	return value === undefined || value === null ? undefined : String(value);
}

function asNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
	return undefined;
}

function set(record: IDataObject, key: string, value: unknown) {
	if (value !== undefined) record[key] = value as IDataObject[string];
}

export function campaignListItem(raw: IDataObject): IDataObject {
	const record: IDataObject = { ...raw };
	set(record, 'id', asString(raw.id));
	set(record, 'address_book_id', asString(raw.address_book_id));
	set(record, 'company_price', asNumber(raw.company_price));
	return record;
}

export function phoneInfo(raw: IDataObject): IDataObject {
	const record: IDataObject = { ...raw };
	delete record[CYRILLIC_COUNTRY_CODE];
	record.phone = phoneToString(raw.phone);
	const status = asNumber(raw.status);
	set(record, 'status', status);
	if (status !== undefined) record.status_name = PHONE_STATUS_NAMES[status] ?? String(raw.status_explain ?? 'Unknown');
	record.country_code = String(raw.country_code ?? raw[CYRILLIC_COUNTRY_CODE] ?? '');
	set(record, 'money_spent', asNumber(raw.money_spent));
	return record;
}

export function campaignDetail(raw: IDataObject): IDataObject {
	const record = campaignListItem(raw);
	const phones = Array.isArray(raw.task_phones_info) ? (raw.task_phones_info as IDataObject[]) : [];
	record.task_phones_info = phones.map(phoneInfo);
	return record;
}

export function senderId(raw: IDataObject): IDataObject {
	const record: IDataObject = { ...raw };
	set(record, 'id', asString(raw.id));
	const status = asNumber(raw.status);
	set(record, 'status', status);
	if (status !== undefined) record.status_name = SENDER_STATUS_NAMES[status] ?? String(raw.status_explain ?? 'Unknown');
	return record;
}

export function blacklistEntry(raw: IDataObject): IDataObject {
	return { ...raw, phone: phoneToString(raw.phone) };
}

/** `{result, data: [...]}` or a bare array → the records. */
export function dataList(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const data = (body as IDataObject | undefined)?.data;
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}
