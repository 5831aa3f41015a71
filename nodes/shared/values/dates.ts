import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from './inputErrors';
import { quoteValue } from './objects';
import { calendarDayProblem, dateToServiceTime, serviceTimeToDate } from './serviceTime';

/**
 * The service takes dates as `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD`) with no zone, in the account's time zone (the
 * credential's Account Time Zone, account.ts readAccountTimeZone). n8n's date pickers give a wall-clock time
 * meant in the workflow's zone, expressions may give instants: both become the account's wall-clock time.
 */
export function toServiceDateTime(value: string | Date, timeZone: string): string {
	const date = value instanceof Date ? value : parseDateInput(value);
	if (!date) throw new Error(`"${String(value)}" is not a date`);
	return dateToServiceTime(date, timeZone);
}

/**
 * The date forms a date parameter takes, all ISO 8601 with a four-digit year: `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`,
 * `YYYY-MM-DD HH:MM:SS` (a `T` instead of the space, fractions of a second allowed), each optionally followed by
 * `Z` or an offset (`+01:00`, `+0100`, `+01`). Nothing else is guessed: `06/01/2027` is 6 January in a European
 * sheet and 1 June in an American one, and JavaScript's own parser reads such text at the server's local midnight
 * and lets years like +275760 through.
 */
const ISO_DATE =
	/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** What a refused date is told, after `"<value>" is not a date`. */
export const DATE_FORMS =
	'write it as YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601 with a zone (2027-01-06T09:00:00+01:00)';

/** Years a date parameter may name: four digits, as the service's `YYYY-MM-DD` has. */
function inFourDigitYears(date: Date): boolean {
	const year = date.getUTCFullYear();
	return year >= 1 && year <= 9999;
}

/**
 * Accepts what n8n date pickers and expressions produce: the ISO forms of ISO_DATE, or a Luxon DateTime / Date
 * (anything with toISO / toISOString). A value without a zone is read as UTC here; callers that mean wall-clock
 * time in the workflow's zone should pass it through unchanged instead (see isWallClock).
 */
function parseDateInput(value: unknown): Date | undefined {
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) || !inFourDigitYears(value) ? undefined : value;
	if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		return parseDateInput((value as { toISO: () => string }).toISO());
	}
	if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
	const text = value.trim().replace(' ', 'T');
	const date = new Date(
		/[zZ]|[+-]\d{2}(:?\d{2})?$/.test(text) || !text.includes('T') ? text : `${text}Z`,
	);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` / ISO without a zone: a wall-clock time to send as it is. */
function isWallClock(value: unknown): value is string {
	return (
		typeof value === 'string' &&
		/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value.trim())
	);
}

/** Why a value is not a date; readDateParameter puts it after the parameter's name. */
export class DateProblem extends Error {}

/**
 * A date written as `YYYY-MM-DD…` must be a real calendar value: JavaScript's Date quietly turns 2030-02-30 into
 * March 2 and the service would answer with an error that names no parameter. Undefined when it is real (or not
 * written that way: other forms are left to the parser).
 */
function calendarProblem(text: string): string | undefined {
	const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?/.exec(
		text,
	);
	if (!match) return undefined;
	const dayProblem = calendarDayProblem(Number(match[1]), Number(match[2]), Number(match[3]));
	if (dayProblem) return dayProblem;
	if (match[4] !== undefined) {
		const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
		if (hour > 23 || minute > 59 || second > 59)
			return `${match[4]}:${match[5]}${match[6] === undefined ? '' : `:${match[6]}`} is not a time of day`;
	}
	return undefined;
}

/** The zones a date parameter is read between. */
export interface DateZones {
	/** The workflow's zone (n8n's settings): a wall-clock value from the date picker means a time there. */
	workflow: string;
	/** The account's zone (the credential's Account Time Zone): what the service's wall-clock times mean. */
	account: string;
}

/**
 * n8n's dateTime parameter gives wall-clock values without a zone (meant in the workflow's zone) or full ISO
 * strings from expressions. Both are converted to the account's wall-clock time. A day alone (`dayOnly`, the
 * Day filter) names the account's calendar day as written: moving it through midnight would pick another day.
 */
function dateParameterToService(value: unknown, zones: DateZones, dayOnly = false): string {
	if (typeof value === 'string') {
		const problem = calendarProblem(value.trim());
		if (problem) throw new DateProblem(`${JSON.stringify(value)} is not a real date: ${problem}`);
	}
	let result: string;
	if (isWallClock(value)) {
		const [day, time = '00:00:00'] = value.trim().split(/[ T]/);
		const wall = `${day} ${time.slice(0, 8).padEnd(8, ':00')}`.replace(
			/^(\S+ \d{2}:\d{2})$/,
			'$1:00',
		);
		if (dayOnly) return wall.slice(0, 10);
		const instant = serviceTimeToDate(wall, zones.workflow);
		if (!instant) throw new Error(`"${value}" is not a date`);
		result = toServiceDateTime(instant, zones.account);
	} else {
		const date = parseDateInput(value);
		if (!date) throw new Error(`${quoteValue(value)} is not a date: ${DATE_FORMS}`);
		result = toServiceDateTime(date, zones.account);
	}
	return dayOnly ? result.slice(0, 10) : result;
}

/**
 * A date parameter in the service's format: the account's wall-clock time (see dateParameterToService);
 * undefined when empty. A value that is not a date fails the item, naming the parameter.
 */
export function readDateParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	displayName: string,
	accountZone: string,
	dayOnly = false,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	try {
		const zones = { workflow: context.getTimezone(), account: accountZone };
		return dateParameterToService(value, zones, dayOnly);
	} catch (error) {
		const problem =
			error instanceof DateProblem
				? error.message
				: `${quoteValue(value)} is not a date: ${DATE_FORMS}`;
		throw invalidInput(context, itemIndex, displayName, problem);
	}
}

/** One end of a date-range filter: its parameter name is also the service's query key. */
export interface DateBound {
	name: string;
	displayName: string;
	description: string;
}

/** The two date pickers of a list's Filters collection (Sent After/Before, Created After/Before). */
export function dateRangeOptions(after: DateBound, before: DateBound): INodeProperties[] {
	return [after, before].map(({ name, displayName, description }) => ({
		displayName,
		name,
		type: 'dateTime',
		default: '',
		description,
	}));
}

/**
 * Both ends of a date range read from `filters`, in the service's `YYYY-MM-DD HH:MM:SS` (so text order is time
 * order), keyed by the service's query names; refused when the start is after the end.
 */
export function readDateRange(
	context: IExecuteFunctions,
	itemIndex: number,
	filters: IDataObject,
	after: DateBound,
	before: DateBound,
	accountZone: string,
): IDataObject {
	const from = readDateParameter(
		context,
		itemIndex,
		filters[after.name],
		after.displayName,
		accountZone,
	);
	const to = readDateParameter(
		context,
		itemIndex,
		filters[before.name],
		before.displayName,
		accountZone,
	);
	if (from && to && from > to) {
		throw invalidInput(
			context,
			itemIndex,
			after.displayName,
			`${from} is later than ${before.displayName} (${to})`,
			`${after.displayName} must be at or before ${before.displayName}.`,
		);
	}
	return { ...(from ? { [after.name]: from } : {}), ...(to ? { [before.name]: to } : {}) };
}

/**
 * A time to send at (the account's wall-clock time, from readDateParameter), refused when it has passed (more
 * than a minute ago): the service would send at once, silently. `sendNowIfPassed` (an explicit option, off by
 * default) sends now instead.
 */
export function futureSendTime(
	context: IExecuteFunctions,
	itemIndex: number,
	serviceTime: string,
	displayName: string,
	sendNowIfPassed: boolean,
	accountZone: string,
	now = new Date(),
): string | undefined {
	const graceMs = 60_000;
	const earliest = toServiceDateTime(new Date(now.getTime() - graceMs), accountZone);
	if (serviceTime >= earliest) return serviceTime;
	if (sendNowIfPassed) return undefined;
	throw invalidInput(
		context,
		itemIndex,
		displayName,
		`${serviceTime} has passed (it is now ${toServiceDateTime(now, accountZone)} in ${accountZone}, the account's time zone)`,
		'Give a time in the future, leave it empty to send now, or turn on "Send Now If Send At Has Passed".',
	);
}
