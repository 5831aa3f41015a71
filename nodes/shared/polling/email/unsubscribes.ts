import type { MessagingClient } from '../../transport/client';
import { DAY_MS, dateToServiceTime, daysBetween, HOUR_MS } from '../../values/serviceTime';
import { fetchUnsubscribePage, listUnsubscribe, PAGE_SIZE } from './events';
import {
	FULL_READ_EVERY_MS,
	MAX_PAGES,
	type Candidate,
	type ScanMode,
	type ScanResult,
} from './scan';
import type { SeenSet, UnsubscribeState } from './state';

/** Yesterday's unsubscribes are re-read until 03:00 service time: events written just before midnight, clock skew. */
export const UNSUBSCRIBE_GRACE_MS = 3 * HOUR_MS;
/** After a longer pause, only this many days of unsubscribes are caught up. */
const MAX_UNSUBSCRIBE_DAYS = 31;

export interface UnsubscribeScan extends ScanResult {
	from: string;
	/** Days read in full this poll → `<entries>:<last digest>`. */
	listed: Record<string, string>;
	/** Every day was read in full. */
	fullRead: boolean;
}

export async function scanUnsubscribes(
	client: MessagingClient,
	seen: SeenSet,
	previous: UnsubscribeState | undefined,
	mode: ScanMode,
	settings: {
		cap: number;
		deadline: number;
		now: number;
		timeZone: string;
		warn: (message: string) => void;
	},
): Promise<UnsubscribeScan> {
	const { cap, deadline, now, timeZone } = settings;
	const today = dateToServiceTime(now, timeZone).slice(0, 10);
	// "Include the last 24 hours": yesterday and today are read; entries older than 24 hours are only remembered.
	const emitFrom = mode === 'all' ? dateToServiceTime(now - DAY_MS, timeZone) : undefined;
	let from =
		previous?.from ??
		dateToServiceTime(now - (mode === 'all' ? DAY_MS : UNSUBSCRIBE_GRACE_MS), timeZone).slice(
			0,
			10,
		);
	let days = daysBetween(from, today > from ? today : from);
	if (days.length > MAX_UNSUBSCRIBE_DAYS) {
		settings.warn(
			`Unsubscribes are caught up for the last ${MAX_UNSUBSCRIBE_DAYS} days only; those from ${from} to ` +
				`${days[days.length - MAX_UNSUBSCRIBE_DAYS - 1]} were skipped`,
		);
		days = days.slice(-MAX_UNSUBSCRIBE_DAYS);
		from = days[0];
	}
	// Probing a day's list is trusted only between full reads of every day, and when nothing was left over.
	const fullReadAt = previous?.fullReadAt;
	const mayProbe =
		mode === 'new' &&
		previous?.pending !== true &&
		fullReadAt !== undefined &&
		now >= fullReadAt &&
		now - fullReadAt < FULL_READ_EVERY_MS;
	const candidates: Candidate[] = [];
	const listed: Record<string, string> = {};
	let fullRead = true;
	let pages = 0;
	for (const day of days) {
		const known = mayProbe ? previous?.listed?.[day] : undefined;
		if (known !== undefined && (await dayUnchanged(client, day, known))) {
			pages++;
			fullRead = false;
			continue;
		}
		const occurrences = new Map<string, number>();
		let lastKey = '';
		let entries = 0;
		for (let offset = 0; ; pages++) {
			if (pages >= MAX_PAGES || (mode !== 'baseline' && pages > 0 && Date.now() > deadline)) {
				return { candidates, complete: false, from, listed, fullRead: false };
			}
			const page = await fetchUnsubscribePage(client, day, offset);
			for (const record of page.records) {
				const event = listUnsubscribe(record);
				entries++;
				lastKey = event.key;
				const occurrence = (occurrences.get(event.key) ?? 0) + 1;
				occurrences.set(event.key, occurrence);
				if (occurrence <= seen.count(day, event.key)) continue;
				if (mode === 'baseline' || (emitFrom !== undefined && event.time < emitFrom)) {
					seen.add(day, event.key);
					continue;
				}
				candidates.push({ ...event, bucket: day });
				// One beyond the cap proves something is left; exactly the cap at the end leaves nothing pending.
				if (candidates.length > cap)
					return { candidates, complete: false, from, listed, fullRead: false };
			}
			if (page.records.length < PAGE_SIZE) break;
			offset += page.records.length;
		}
		listed[day] = `${entries}:${lastKey}`;
		pages++;
	}
	return { candidates, complete: true, from, listed, fullRead };
}

/**
 * One request for a day already read in full: the entries from the last one held on. The day is unchanged when
 * exactly that entry comes back (new entries come after it; a removal moves it).
 */
async function dayUnchanged(client: MessagingClient, day: string, known: string): Promise<boolean> {
	const [count, last] = known.split(':');
	const entries = Number(count);
	if (entries === 0) {
		return (await fetchUnsubscribePage(client, day, 0, 1)).records.length === 0;
	}
	const page = await fetchUnsubscribePage(client, day, entries - 1, 2);
	return page.records.length === 1 && listUnsubscribe(page.records[0]).key === last;
}

export function finishUnsubscribes(
	seen: SeenSet,
	scan: UnsubscribeScan,
	left: boolean,
	context: { previous: UnsubscribeState | undefined; now: number; timeZone: string },
): UnsubscribeState {
	const { previous, now, timeZone } = context;
	// Days before `from` are never read again, so their digests go. `from` moves only when nothing is left over.
	const candidate = dateToServiceTime(now - UNSUBSCRIBE_GRACE_MS, timeZone).slice(0, 10);
	const next = !left && candidate > scan.from ? candidate : scan.from;
	seen.prune((day) => day >= next);
	const state: UnsubscribeState = { from: next, seen: seen.toJSON() };
	if (left) {
		state.pending = true;
		return state;
	}
	const listed: Record<string, string> = {};
	for (const [day, value] of Object.entries({ ...(previous?.listed ?? {}), ...scan.listed }))
		if (day >= next) listed[day] = value;
	state.listed = listed;
	const fullReadAt = scan.fullRead ? now : previous?.fullReadAt;
	if (fullReadAt !== undefined) state.fullReadAt = fullReadAt;
	return state;
}
