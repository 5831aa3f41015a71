/**
 * Service times are wall-clock strings `YYYY-MM-DD HH:MM:SS` without a zone, in the account's time zone. The
 * trigger compares and buckets them as strings (the format sorts chronologically) and converts them to instants
 * only for output and for the "last 24 hours" boundary, using the account's zone from the credential (Account Time Zone, default UTC).
 */
const SERVICE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * The credential's Account Time Zone read as a zone name: UTC when empty or absent (credentials saved before the
 * field existed); anything else must be an IANA name Intl knows.
 */
export function accountTimeZone(
	value: unknown,
): { ok: true; timeZone: string } | { ok: false; problem: string } {
	if (value === undefined || value === null) return { ok: true, timeZone: 'UTC' };
	if (typeof value !== 'string')
		return { ok: false, problem: `must be a zone name, but the value is ${typeof value}` };
	const timeZone = value.trim() || 'UTC';
	try {
		assertTimeZone(timeZone);
	} catch {
		const near = nearestTimeZone(timeZone);
		return {
			ok: false,
			problem: `"${timeZone}" is not a time zone name${near ? `: did you mean ${near}?` : ''}`,
		};
	}
	return { ok: true, timeZone };
}

/** Edits (insert, delete, replace one character) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++)
			current[j] = Math.min(
				previous[j] + 1,
				current[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		previous = current;
	}
	return previous[b.length];
}

/**
 * The zone a typo most likely meant (`Europe/Berln` → Europe/Berlin): the known name at most 2 edits away, case
 * ignored, when exactly one is that close; undefined otherwise (no guess beats a wrong guess).
 */
export function nearestTimeZone(typed: string): string | undefined {
	const wanted = typed.toLowerCase();
	let best: string[] = [];
	let bestDistance = 3;
	for (const zone of ['UTC', ...Intl.supportedValuesOf('timeZone')]) {
		if (Math.abs(zone.length - wanted.length) >= bestDistance) continue;
		const distance = editDistance(wanted, zone.toLowerCase());
		if (distance < bestDistance) [best, bestDistance] = [[zone], distance];
		else if (distance === bestDistance && !best.includes(zone)) best.push(zone);
	}
	return best.length === 1 ? best[0] : undefined;
}

/** Throws a RangeError for a zone name Intl does not know. */
export function assertTimeZone(timeZone: string): void {
	new Intl.DateTimeFormat('en-US', { timeZone }).format(0);
}

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];

/**
 * THE calendar check: why year-month-day is not a real day (JavaScript's Date quietly turns 2030-02-30 into
 * March 2), or undefined when it is. Service times, date parameters and SMS date variables all use it.
 */
export function calendarDayProblem(year: number, month: number, day: number): string | undefined {
	if (month < 1 || month > 12) return `there is no month ${month}`;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (day < 1 || day > days) return `${MONTHS[month - 1]} ${year} has no day ${day}`;
	return undefined;
}

/** Milliseconds since epoch of a wall-clock string read as if it were UTC; undefined when malformed. */
function naiveMs(value: string): number | undefined {
	const match = SERVICE_TIME.exec(value.trim());
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	if (calendarDayProblem(+y, +mo, +d) !== undefined || +h > 23 || +mi > 59 || +s > 59)
		return undefined;
	return Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
}

function formatNaive(ms: number): string {
	return dateToServiceTime(ms, 'UTC');
}

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
function zoneOffsetMs(ms: number, timeZone: string): number {
	const wall = naiveMs(dateToServiceTime(ms, timeZone))!;
	return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant a service time denotes in `timeZone`; undefined when the string is not a service time. */
export function serviceTimeToDate(value: unknown, timeZone: string): Date | undefined {
	if (typeof value !== 'string') return undefined;
	const wall = naiveMs(value);
	if (wall === undefined) return undefined;
	if (timeZone === 'UTC') return new Date(wall);
	let instant = wall - zoneOffsetMs(wall, timeZone);
	const corrected = wall - zoneOffsetMs(instant, timeZone);
	if (corrected !== instant) instant = corrected;
	return new Date(instant);
}

/** One formatter per zone: building one costs ~100 µs, a webhook batch formats 500 times. */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
	let format = wallClockFormats.get(timeZone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-CA', {
			timeZone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		});
		wallClockFormats.set(timeZone, format);
	}
	return format;
}

/** The service's wall-clock string `YYYY-MM-DD HH:MM:SS` for an instant, in `timeZone`. */
export function dateToServiceTime(date: Date | number, timeZone: string): string {
	const parts = Object.fromEntries(
		wallClockFormat(timeZone)
			.formatToParts(typeof date === 'number' ? new Date(date) : date)
			.map((part) => [part.type, part.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Wall-clock arithmetic on service strings (zone-free, so it never depends on the configured zone). */
export function shiftServiceTime(value: string, ms: number): string | undefined {
	const base = naiveMs(value);
	return base === undefined ? undefined : formatNaive(base + ms);
}

export function isServiceTime(value: unknown): value is string {
	return typeof value === 'string' && naiveMs(value) !== undefined;
}

/** The days from `from` to `to` inclusive (`YYYY-MM-DD`), oldest first. */
export function daysBetween(from: string, to: string): string[] {
	const start = naiveMs(from);
	const end = naiveMs(to);
	if (start === undefined || end === undefined) return [];
	const days: string[] = [];
	for (let ms = start; ms <= end; ms += DAY_MS) days.push(formatNaive(ms).slice(0, 10));
	return days;
}
