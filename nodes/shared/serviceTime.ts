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
		return { ok: false, problem: `"${timeZone}" is not a time zone name` };
	}
	return { ok: true, timeZone };
}

/** Throws a RangeError for a zone name Intl does not know. */
export function assertTimeZone(timeZone: string): void {
	new Intl.DateTimeFormat('en-US', { timeZone }).format(0);
}

/** Milliseconds since epoch of a wall-clock string read as if it were UTC; undefined when malformed. */
function naiveMs(value: string): number | undefined {
	const match = SERVICE_TIME.exec(value.trim());
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
	const check = new Date(ms);
	return check.getUTCMonth() === +mo - 1 && check.getUTCDate() === +d ? ms : undefined;
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

/** The service's wall-clock string `YYYY-MM-DD HH:MM:SS` for an instant, in `timeZone`. */
export function dateToServiceTime(date: Date | number, timeZone: string): string {
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
