import type { MessagingClient } from '../../transport/client';
import { HOUR_MS, isServiceTime, shiftServiceTime } from '../../values/serviceTime';
import { fetchBouncePage, fetchBounceTotal, listBounce, PAGE_SIZE } from './events';
import {
	FULL_READ_EVERY_MS,
	MAX_PAGES,
	type Candidate,
	type ScanMode,
	type ScanResult,
} from './scan';
import type { BounceState, SeenSet } from './state';

/** Bounce digests are kept for the service's 24-hour window plus an hour (a DST change shifts wall-clock time). */
const BOUNCE_RETENTION_MS = 25 * HOUR_MS;
/**
 * New bounces are looked for among those sent up to 30 minutes before the newest one held (a bounce arrives some
 * time after its email was sent); one sent earlier than that makes the poll read the whole list.
 */
const LATE_BOUNCE_MS = 30 * 60_000;

export interface BounceScan extends ScanResult {
	newest?: string;
	/** n8n's clock at this poll when it read the whole list. */
	fullReadAt?: number;
}

export const secondOf = (time: string) =>
	Number(time.slice(14, 16)) * 60 + Number(time.slice(17, 19));

/**
 * Reads the bounces: by their count when the state allows it (an idle poll: 2 requests), else the whole list.
 */
export async function scanBounces(
	client: MessagingClient,
	seen: SeenSet,
	previous: BounceState | undefined,
	mode: ScanMode,
	limits: { cap: number; deadline: number; plausible: string; now: number },
): Promise<BounceScan> {
	const fullReadAt = previous?.fullReadAt;
	if (
		mode === 'new' &&
		fullReadAt !== undefined &&
		limits.now >= fullReadAt &&
		limits.now - fullReadAt < FULL_READ_EVERY_MS
	) {
		const counted = await countBounces(client, seen, previous?.newest, limits);
		if (counted) return counted;
	}
	return await readAllBounces(client, seen, previous?.newest, mode, limits);
}

/**
 * The window's count against what the state predicts. The list is ordered by send time, so its first record
 * shows where the 24-hour window starts now: the bounces held from that send time on are the ones the service
 * still lists (expiries included, without trusting either clock). Equal counts: nothing new. More: the new ones
 * are looked for in the end of the list, from the bounces sent shortly before the newest held one; when that part
 * holds all of them (as many as the count says), no other part can hold one. Anything else, or any doubt,
 * answers undefined and the whole list is read.
 */
async function countBounces(
	client: MessagingClient,
	seen: SeenSet,
	newestBefore: string | undefined,
	limits: { cap: number; deadline: number; plausible: string },
): Promise<BounceScan | undefined> {
	const total = await fetchBounceTotal(client);
	if (total === 0) return { candidates: [], complete: true, newest: newestBefore };
	const first = await fetchBouncePage(client, 0, 1);
	const oldest = first.records.length === 1 ? listBounce(first.records[0]).time : undefined;
	if (oldest === undefined || !isServiceTime(oldest)) return undefined;
	// The list moved between the two requests (or counts differently): no guessing.
	if (first.total !== undefined && first.total !== total) return undefined;
	const held = seen.countFrom(oldest);
	if (held === undefined || held > total) return undefined;
	if (held === total) return { candidates: [], complete: true, newest: newestBefore };

	const lateFrom =
		newestBefore === undefined ? undefined : shiftServiceTime(newestBefore, -LATE_BOUNCE_MS);
	const from = lateFrom !== undefined && lateFrom > oldest ? lateFrom : oldest;
	const heldFrom = seen.countFrom(from);
	if (heldFrom === undefined) return undefined;
	const expected = total - held;
	const floor =
		newestBefore === undefined ? undefined : shiftServiceTime(newestBefore, -BOUNCE_RETENTION_MS);
	let newest = newestBefore;
	const occurrences = new Map<string, number>();
	const candidates: Candidate[] = [];
	let offset = held - heldFrom;
	for (let pages = 0; ; pages++) {
		if (pages >= MAX_PAGES || (pages > 0 && Date.now() > limits.deadline))
			return { candidates, complete: false, newest };
		const page = await fetchBouncePage(client, offset);
		for (const record of page.records) {
			const event = listBounce(record);
			// Forgotten already (older than the retention floor) or without a time: the full read decides.
			if (!isServiceTime(event.time) || (floor !== undefined && event.time < floor))
				return undefined;
			const bucket = event.time.slice(0, 13);
			const occurrence = (occurrences.get(bucket + event.key) ?? 0) + 1;
			occurrences.set(bucket + event.key, occurrence);
			if (occurrence <= seen.count(bucket, event.key)) continue;
			// More copies listed than held: this one is new, wherever the held copies are.
			if (event.time <= limits.plausible && (newest === undefined || event.time > newest))
				newest = event.time;
			candidates.push({ ...event, bucket });
			if (candidates.length >= limits.cap) return { candidates, complete: false, newest };
		}
		if (page.records.length < PAGE_SIZE) {
			// Fewer new ones here than the count says: some were sent earlier; more: the count cannot be trusted.
			return candidates.length === expected ? { candidates, complete: true, newest } : undefined;
		}
		offset += page.records.length;
	}
}

async function readAllBounces(
	client: MessagingClient,
	seen: SeenSet,
	newestBefore: string | undefined,
	mode: ScanMode,
	limits: { cap: number; deadline: number; plausible: string; now: number },
): Promise<BounceScan> {
	const { cap, deadline, plausible } = limits;
	let newest = newestBefore;
	// Anything older than the retention floor was handled (or the service can no longer list it): never again.
	const floor = newest === undefined ? undefined : shiftServiceTime(newest, -BOUNCE_RETENTION_MS);
	const occurrences = new Map<string, number>();
	const candidates: Candidate[] = [];
	let offset = 0;
	for (let pages = 0; ; pages++) {
		if (pages >= MAX_PAGES || (mode !== 'baseline' && pages > 0 && Date.now() > deadline)) {
			return { candidates, complete: false, newest };
		}
		const page = await fetchBouncePage(client, offset);
		for (const record of page.records) {
			const event = listBounce(record);
			const valid = isServiceTime(event.time);
			if (valid && floor !== undefined && event.time < floor) continue;
			if (valid && event.time <= plausible && (newest === undefined || event.time > newest))
				newest = event.time;
			const bucket = valid ? event.time.slice(0, 13) : 'unknown';
			const second = valid ? secondOf(event.time) : undefined;
			const occurrence = (occurrences.get(bucket + event.key) ?? 0) + 1;
			occurrences.set(bucket + event.key, occurrence);
			if (occurrence <= seen.count(bucket, event.key)) {
				if (second !== undefined) seen.learn(bucket, event.key, second);
				continue;
			}
			if (mode === 'baseline') {
				seen.add(bucket, event.key, second);
				continue;
			}
			candidates.push({ ...event, bucket });
			if (candidates.length >= cap) return { candidates, complete: false, newest };
		}
		if (page.records.length < PAGE_SIZE)
			return { candidates, complete: true, newest, fullReadAt: limits.now };
		offset += page.records.length;
	}
}

export function finishBounces(
	seen: SeenSet,
	newest: string | undefined,
	fullReadAt: number | undefined,
): BounceState {
	if (newest !== undefined) {
		const floor = shiftServiceTime(newest, -BOUNCE_RETENTION_MS);
		if (floor !== undefined) seen.prune((hour) => `${hour}:59:59` >= floor);
	}
	return {
		...(newest !== undefined ? { newest } : {}),
		seen: seen.toJSON(),
		seconds: seen.secondsJSON(),
		...(fullReadAt !== undefined ? { fullReadAt } : {}),
	};
}
