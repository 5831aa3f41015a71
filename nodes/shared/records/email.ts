import type { IDataObject } from 'n8n-workflow';

import { serviceNumber, withIsoTwins } from './values';

const toIdString = (value: unknown): unknown => (typeof value === 'number' ? String(value) : value);

function numbersIn(record: IDataObject, keys: string[]): IDataObject {
	const result: IDataObject = { ...record };
	for (const key of keys)
		if (key in result)
			result[key] = (serviceNumber(result[key]) ?? result[key]) as IDataObject[string];
	return result;
}

/**
 * A sent-email record: the service sends `total_size` and `smtp_answer_code` as strings in the single-email answer
 * and as numbers in lists; here they are always numbers, the id always a string. Everything else is kept; its
 * times (`send_date`, each tracking entry's `action_date`) get their ISO twins.
 */
export function normaliseEmailRecord(raw: unknown, timeZone: string): IDataObject {
	if (typeof raw !== 'object' || raw === null) return { value: raw as IDataObject[string] };
	const record = numbersIn(raw as IDataObject, ['total_size', 'smtp_answer_code']);
	if ('id' in record) record.id = toIdString(record.id) as string;
	if (
		typeof record.tracking === 'object' &&
		record.tracking !== null &&
		!Array.isArray(record.tracking)
	) {
		const tracking = numbersIn(record.tracking as IDataObject, ['click', 'open']);
		for (const list of ['client_info', 'link'])
			if (Array.isArray(tracking[list]))
				tracking[list] = (tracking[list] as unknown[]).map((entry) =>
					typeof entry === 'object' && entry !== null && !Array.isArray(entry)
						? withIsoTwins({ ...(entry as IDataObject) }, ['action_date'], timeZone)
						: entry,
				) as IDataObject[];
		record.tracking = tracking;
	}
	return withIsoTwins(record, ['send_date'], timeZone);
}

/**
 * A sending domain: ids as strings (as every id in this package), the other numeric fields as numbers, its times
 * (`expire_date`, `ssl_expired`: null until the service sets them) with ISO twins.
 */
export function normaliseDomain(raw: unknown, timeZone: string): IDataObject {
	if (typeof raw !== 'object' || raw === null) return { value: raw as IDataObject[string] };
	const record = numbersIn(raw as IDataObject, [
		'service_type',
		'status',
		'auto_free_prolong',
		'ssl_type',
		'ssl_generated',
	]);
	for (const key of ['id', 'user_id'])
		if (key in record) record[key] = toIdString(record[key]) as string;
	return withIsoTwins(record, ['expire_date', 'ssl_expired'], timeZone);
}
