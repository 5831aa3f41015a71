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
/**
 * A day whose probe finds entries after the last one held is read from there on when it holds more entries than
 * this; a shorter day is read whole again (at most 10 pages, and every entry checked, as a full read checks it).
 * Re-reading a long day would make every taking poll cost the whole day's pages (1,000 at 100,000 a day).
 */
const TAIL_READ_ABOVE_ENTRIES = 10 * PAGE_SIZE;

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
		const probed = known === undefined ? undefined : await probeDay(client, day, known);
		if (probed === 'unchanged') {
			pages++;
			fullRead = false;
			continue;
		}
		if (
			known !== undefined &&
			probed === 'appended' &&
			heldEntries(known) > TAIL_READ_ABOVE_ENTRIES
		) {
			pages++;
			const tail = await readNewEnd(client, day, known, seen, {
				cap: cap - candidates.length,
				deadline,
				pagesLeft: MAX_PAGES - pages,
			});
			pages += tail.pages;
			if (tail.kind === 'stopped') {
				candidates.push(...tail.candidates);
				return { candidates, complete: false, from, listed, fullRead: false };
			}
			if (tail.kind === 'read') {
				candidates.push(...tail.candidates);
				listed[day] = tail.listed;
				fullRead = false;
				continue;
			}
			// 'unsure': the new end lists a record already held; the whole day decides, as below.
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

const heldEntries = (known: string) => Number(known.split(':')[0]);

/**
 * One request for a day already read: the entries from the last one held on. The day is unchanged when exactly
 * that entry comes back; entries were appended when it comes back first with another after it (new entries come
 * after it; a removal or an earlier-dated entry moves it); anything else is a change the whole day must show.
 */
async function probeDay(
	client: MessagingClient,
	day: string,
	known: string,
): Promise<'unchanged' | 'appended' | 'changed'> {
	const [count, last] = known.split(':');
	const entries = Number(count);
	if (entries === 0) {
		return (await fetchUnsubscribePage(client, day, 0, 1)).records.length === 0
			? 'unchanged'
			: 'changed';
	}
	const page = await fetchUnsubscribePage(client, day, entries - 1, 2);
	if (page.records.length === 0 || listUnsubscribe(page.records[0]).key !== last) return 'changed';
	return page.records.length === 1 ? 'unchanged' : 'appended';
}

type NewEnd =
	| { kind: 'read'; candidates: Candidate[]; listed: string; pages: number }
	| { kind: 'stopped'; candidates: Candidate[]; pages: number }
	| { kind: 'unsure'; pages: number };

/**
 * Reads a day from the first entry after the ones held (`known`: `<entries>:<last digest>`, every one of them
 * handled). Each entry there is new, unless its digest is held already: a record listed twice (or one that moved),
 * which only the whole day can count, so the scan answers 'unsure'. Between full reads (every 6 hours) the entries
 * held are trusted as the probe trusts them.
 */
async function readNewEnd(
	client: MessagingClient,
	day: string,
	known: string,
	seen: SeenSet,
	limits: { cap: number; deadline: number; pagesLeft: number },
): Promise<NewEnd> {
	const start = heldEntries(known);
	const candidates: Candidate[] = [];
	let lastKey = '';
	let pages = 0;
	for (let offset = start; ;) {
		if (pages >= limits.pagesLeft || (pages > 0 && Date.now() > limits.deadline))
			return { kind: 'stopped', candidates, pages };
		const page = await fetchUnsubscribePage(client, day, offset);
		pages++;
		for (const record of page.records) {
			const event = listUnsubscribe(record);
			if (seen.count(day, event.key) > 0) return { kind: 'unsure', pages };
			lastKey = event.key;
			candidates.push({ ...event, bucket: day });
			// One beyond the cap proves something is left (as in the full read).
			if (candidates.length > limits.cap) return { kind: 'stopped', candidates, pages };
		}
		offset += page.records.length;
		if (page.records.length < PAGE_SIZE) break;
	}
	// The list moved between the probe and this read (the new end is gone): the whole day decides.
	if (candidates.length === 0) return { kind: 'unsure', pages };
	return { kind: 'read', candidates, listed: `${start + candidates.length}:${lastKey}`, pages };
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
