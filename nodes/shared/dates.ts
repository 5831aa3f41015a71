import type { IExecuteFunctions } from 'n8n-workflow';

import { invalidInput } from './items';

/**
 * The service takes dates as `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD`) with no zone, in the account's time zone.
 * n8n date pickers give ISO strings; they are converted in the workflow's time zone (`this.getTimezone()`).
 */
export function toServiceDateTime(value: string | Date, timeZone: string): string {
	const date = value instanceof Date ? value : parseDateInput(value);
	if (!date) throw new Error(`"${String(value)}" is not a date`);
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(date)
			.map((part) => [part.type, part.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

export function toServiceDay(value: string | Date, timeZone: string): string {
	return toServiceDateTime(value, timeZone).slice(0, 10);
}

/**
 * Accepts what n8n date pickers and expressions produce: ISO 8601 (with or without zone), `YYYY-MM-DD`,
 * `YYYY-MM-DD HH:MM:SS`, or a Luxon DateTime / Date (anything with toISO / toISOString).
 * A value without a zone is read as UTC here; callers that mean wall-clock time in the workflow's zone
 * should pass it through unchanged instead (see isWallClock).
 */
export function parseDateInput(value: unknown): Date | undefined {
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		return parseDateInput((value as { toISO: () => string }).toISO());
	}
	if (typeof value !== 'string' || !value.trim()) return undefined;
	const text = value.trim().replace(' ', 'T');
	const date = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) || !text.includes('T') ? text : `${text}Z`);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` / ISO without a zone: a wall-clock time to send as it is. */
export function isWallClock(value: unknown): value is string {
	return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value.trim());
}

/**
 * n8n's dateTime parameter gives wall-clock values without a zone (meant in the workflow's zone) or full ISO
 * strings from expressions. Wall-clock values pass through reformatted; zoned ones are converted.
 */
export function dateParameterToService(value: unknown, timeZone: string, dayOnly = false): string {
	let result: string;
	if (isWallClock(value)) {
		const [day, time = '00:00:00'] = value.trim().split(/[ T]/);
		result = `${day} ${time.slice(0, 8).padEnd(8, ':00')}`.replace(/^(\S+ \d{2}:\d{2})$/, '$1:00');
	} else {
		const date = parseDateInput(value);
		if (!date) throw new Error(`"${String(value)}" is not a date`);
		result = toServiceDateTime(date, timeZone);
	}
	return dayOnly ? result.slice(0, 10) : result;
}

/**
 * A date parameter in the service's format, converted in the workflow's time zone; undefined when empty.
 * A value that is not a date fails the item, naming the parameter.
 */
export function readDateParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	displayName: string,
	dayOnly = false,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	try {
		return dateParameterToService(value, context.getTimezone(), dayOnly);
	} catch {
		throw invalidInput(context, itemIndex, displayName, `${JSON.stringify(value)} is not a date`);
	}
}
