import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import type { MessagingClient } from '../../transport/client';
import { readAccountTimeZone } from '../../account';
import { clientForPoll } from '../../clientFactory';
import {
	chosenEvents,
	DEFAULT_MAX_EVENTS_PER_POLL,
	readMaxEventsPerPoll,
} from '../../triggerSettings';
import {
	fetchBouncePage,
	fetchBounceTotal,
	fetchUnsubscribePage,
	listBounce,
	listUnsubscribe,
	PAGE_SIZE,
	toOutput,
	type ListedEvent,
} from './events';
import { readHandover, type Handover } from '../handover';
import { SAMPLE_SIZE, pollDeadline, pollWarner } from '../pollRun';
import {
	readState,
	SeenSet,
	STATE_KEY,
	STATE_VERSION,
	writeState,
	type BounceState,
	type EventType,
	type StoredState,
	type TriggerState,
	type UnsubscribeState,
} from './state';
import {
	DAY_MS,
	dateToServiceTime,
	daysBetween,
	isServiceTime,
	shiftServiceTime,
	HOUR_MS,
} from '../../serviceTime';

/** Bounce digests are kept for the service's 24-hour window plus an hour (a DST change shifts wall-clock time). */
const BOUNCE_RETENTION_MS = 25 * HOUR_MS;
/** Yesterday's unsubscribes are re-read until 03:00 service time: events written just before midnight, clock skew. */
export const UNSUBSCRIBE_GRACE_MS = 3 * HOUR_MS;
/** After a longer pause, only this many days of unsubscribes are caught up. */
const MAX_UNSUBSCRIBE_DAYS = 31;
/** A pause longer than the bounce window may have lost bounces upstream. */
const GAP_MS = 24 * HOUR_MS;
/**
 * Between full reads, polls trust counts (bounces) and one-entry probes (unsubscribes); every 6 hours the lists are
 * read in full anyway, so a change those cannot see (a bounce the service dropped from the window while another
 * arrived, an unsubscribe back-dated while another was removed) waits 6 hours at most.
 */
const FULL_READ_EVERY_MS = 6 * HOUR_MS;
/**
 * New bounces are looked for among those sent up to 30 minutes before the newest one held (a bounce arrives some
 * time after its email was sent); one sent earlier than that makes the poll read the whole list.
 */
const LATE_BOUNCE_MS = 30 * 60_000;
/** Hard stop for one list in one poll (200,000 records). */
const MAX_PAGES = 2000;

export interface TriggerSettings {
	events: EventType[];
	includeLast24Hours: boolean;
	maxEventsPerPoll: number;
	timeZone: string;
}

/**
 * How a stream treats records it has not handled yet: `new` emits them, `baseline` only remembers them (first
 * activation: "start from now"), `all` emits them too (first activation with "include the last 24 hours").
 */
type ScanMode = 'new' | 'baseline' | 'all';

interface Candidate extends ListedEvent {
	bucket: string;
}

interface ScanResult {
	candidates: Candidate[];
	/** False when the scan stopped early (cap, page limit, time budget): more may be waiting. */
	complete: boolean;
}

async function readSettings(context: IPollFunctions): Promise<TriggerSettings> {
	const node = context.getNode();
	const events = chosenEvents(context.getNodeParameter('events', [])).filter(
		(event): event is EventType => event === 'bounce' || event === 'unsubscribe',
	);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Events: choose Bounce, Unsubscribe or both', {
			description: 'The trigger needs at least one event type to watch.',
		});
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const timeZone = await readAccountTimeZone(context);
	const maxEventsPerPoll = readMaxEventsPerPoll(node, options, DEFAULT_MAX_EVENTS_PER_POLL);
	return {
		events: [...new Set(events)].sort(),
		includeLast24Hours: options.includeLast24Hours === true,
		maxEventsPerPoll,
		timeZone,
	};
}

/** The email events' state as its handover (handover.ts) reads it: whole, and made for the same watched events. */
export const emailHandover: Handover<StoredState & { kind: 'valid' }> = {
	stateKey: STATE_KEY,
	label: 'email events',
	read: (stored) => {
		const read = readState(stored);
		return read.kind === 'valid' && Object.keys(read.damage).length === 0 ? read : undefined;
	},
	signature: (read) => read.state.events,
};

/** "Fetch Test Event" for the email events: the most recent ones, no state touched. */
export async function sampleEmail(context: IPollFunctions): Promise<INodeExecutionData[][]> {
	const settings = await readSettings(context);
	return await sample(context, clientForPoll(context), settings);
}

export interface EmailPollResult {
	items: INodeExecutionData[];
	/** The node's static data held a state for the email events (for settleHandover, once the whole poll is known). */
	ownState: boolean;
}

/**
 * One scheduled (or activation) poll of the email events. Their state is written to `stored` once every request
 * succeeded; the caller settles the handover (handover.ts) once the whole poll succeeded.
 */
export async function pollEmail(
	context: IPollFunctions,
	stored: IDataObject,
): Promise<EmailPollResult> {
	const settings = await readSettings(context);
	const client = clientForPoll(context);
	const startedAt = Date.now();
	const deadline = pollDeadline(context, startedAt);
	const signature = settings.events.join(',');
	const watches = (type: EventType) => settings.events.includes(type);
	const warnings: string[] = [];
	const warn = pollWarner(context, warnings);

	const found = readState(stored);
	const read =
		(found.kind === 'absent' ? readHandover(context, emailHandover, signature) : undefined) ??
		found;
	if (read.kind === 'damaged') {
		warn(
			`The trigger's saved state could not be used (${read.reason}), so it started again from now: events ` +
				'that arrived since the last successful poll are not emitted (none is emitted twice)',
		);
	}
	const previous = read.kind === 'valid' ? read.state : undefined;
	for (const type of settings.events) {
		const damage = read.kind === 'valid' ? read.damage[type] : undefined;
		if (damage) {
			warn(
				`The trigger's saved ${type} state could not be used (${damage}), so ${type}s started again from now: ` +
					`${type}s that arrived since the last successful poll are not emitted (none is emitted twice)`,
			);
		}
	}
	warnings.unshift(...(previous?.warnings ?? []));

	if (previous && previous.events !== signature) {
		context.logger.info(
			`${context.getNode().name}: watched events changed from "${previous.events}" to "${signature}"; ` +
				'newly watched events start from now, unwatched ones are forgotten',
		);
	}
	if (previous?.bounce && watches('bounce') && startedAt - previous.lastPollAt > GAP_MS) {
		const hours = ((startedAt - previous.lastPollAt) / HOUR_MS).toFixed(1);
		warn(
			`No successful poll for ${hours} hours (more than 24): bounces from that time may have left the service's ` +
				'24-hour bounce window before they could be read, and are then missing from this output',
		);
	}

	// Only a first activation may emit the last 24 hours; a damaged state starts from now, never from the past.
	const modeFor = (existing: unknown): ScanMode =>
		existing !== undefined
			? 'new'
			: read.kind === 'absent' && settings.includeLast24Hours
				? 'all'
				: 'baseline';
	const cap = settings.maxEventsPerPoll;

	const bounceSeen = new SeenSet(previous?.bounce?.seen, previous?.bounce?.seconds);
	let bounceScan: BounceScan = { candidates: [], complete: true };
	if (watches('bounce')) {
		// A send time more than a day ahead of n8n's clock is bad data: it must not drag the retention floor along.
		const plausible = dateToServiceTime(startedAt + DAY_MS, settings.timeZone);
		bounceScan = await scanBounces(
			client,
			bounceSeen,
			previous?.bounce,
			modeFor(previous?.bounce),
			{ cap, deadline, plausible, now: startedAt },
		);
	}

	const unsubscribeSeen = new SeenSet(previous?.unsubscribe?.seen);
	let unsubscribeScan: UnsubscribeScan | undefined;
	if (watches('unsubscribe')) {
		unsubscribeScan = await scanUnsubscribes(
			client,
			unsubscribeSeen,
			previous?.unsubscribe,
			modeFor(previous?.unsubscribe),
			{
				cap,
				deadline,
				now: startedAt,
				timeZone: settings.timeZone,
				warn,
			},
		);
	}

	// Oldest first across both lists (service times share one zone, so the strings sort chronologically).
	const candidates = [...bounceScan.candidates, ...(unsubscribeScan?.candidates ?? [])].sort(
		(a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0),
	);
	const emitted = candidates.slice(0, cap);
	for (const event of emitted) {
		if (event.type === 'bounce') bounceSeen.add(event.bucket, event.key, secondOf(event.time));
		else unsubscribeSeen.add(event.bucket, event.key);
	}
	const unsubscribesLeft =
		unsubscribeScan !== undefined &&
		(!unsubscribeScan.complete ||
			candidates.slice(cap).some((event) => event.type === 'unsubscribe'));
	if (
		candidates.length > emitted.length ||
		!bounceScan.complete ||
		(unsubscribeScan !== undefined && !unsubscribeScan.complete)
	) {
		context.logger.info(
			`${context.getNode().name}: emitted ${emitted.length} events; more are waiting for the next poll`,
		);
	}

	const state: TriggerState = { version: STATE_VERSION, events: signature, lastPollAt: startedAt };
	if (watches('bounce')) {
		state.bounce = finishBounces(
			bounceSeen,
			bounceScan.newest ?? previous?.bounce?.newest,
			bounceScan.fullReadAt ?? previous?.bounce?.fullReadAt,
		);
	}
	if (unsubscribeScan !== undefined) {
		state.unsubscribe = finishUnsubscribes(unsubscribeSeen, unsubscribeScan, unsubscribesLeft, {
			previous: previous?.unsubscribe,
			now: startedAt,
			timeZone: settings.timeZone,
		});
	}

	const items: INodeExecutionData[] = emitted.map((event) => ({
		json: toOutput(event, settings.timeZone),
	}));
	if (items.length > 0 && warnings.length > 0) {
		items[0].json.metadata = { warnings };
	} else if (warnings.length > 0) {
		state.warnings = warnings;
	}
	// Only now, after every request succeeded: a failed poll leaves the previous state exactly as it was.
	writeState(stored, state);
	return { items, ownState: found.kind !== 'absent' };
}

interface BounceScan extends ScanResult {
	newest?: string;
	/** n8n's clock at this poll when it read the whole list. */
	fullReadAt?: number;
}

const secondOf = (time: string) => Number(time.slice(14, 16)) * 60 + Number(time.slice(17, 19));

/**
 * Reads the bounces: by their count when the state allows it (an idle poll: 2 requests), else the whole list.
 */
async function scanBounces(
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

function finishBounces(
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

interface UnsubscribeScan extends ScanResult {
	from: string;
	/** Days read in full this poll → `<entries>:<last digest>`. */
	listed: Record<string, string>;
	/** Every day was read in full. */
	fullRead: boolean;
}

async function scanUnsubscribes(
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

function finishUnsubscribes(
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

/** "Fetch Test Event": the most recent events in the windows, cursors untouched. */
async function sample(
	context: IPollFunctions,
	client: MessagingClient,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	const events: ListedEvent[] = [];
	if (settings.events.includes('bounce')) {
		const first = await fetchBouncePage(client, 0);
		let records = first.records;
		if (first.total !== undefined && first.total > records.length) {
			records = (await fetchBouncePage(client, Math.max(0, first.total - SAMPLE_SIZE), SAMPLE_SIZE))
				.records;
		} else if (first.total === undefined && records.length === PAGE_SIZE) {
			records = await readAll((offset) => fetchBouncePage(client, offset), records);
		}
		events.push(...records.slice(-SAMPLE_SIZE).map(listBounce));
	}
	if (settings.events.includes('unsubscribe')) {
		const now = Date.now();
		const today = dateToServiceTime(now, settings.timeZone).slice(0, 10);
		const yesterday = dateToServiceTime(now - DAY_MS, settings.timeZone).slice(0, 10);
		let records = await readAll((offset) => fetchUnsubscribePage(client, today, offset));
		if (records.length < SAMPLE_SIZE)
			records = [
				...(await readAll((offset) => fetchUnsubscribePage(client, yesterday, offset))),
				...records,
			];
		events.push(...records.slice(-SAMPLE_SIZE).map(listUnsubscribe));
	}
	const recent = events
		.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
		.slice(-SAMPLE_SIZE);
	if (recent.length === 0) {
		const watched = settings.events
			.map((event) => (event === 'bounce' ? 'bounces' : 'unsubscribes'))
			.join(' or ');
		throw new NodeOperationError(
			context.getNode(),
			`No ${watched} in the service's window right now`,
			{
				description:
					'Bounces are listed for the last 24 hours, unsubscribes for today and yesterday (service time). ' +
					'To make one: send an email to an address that does not exist (with the sandbox: any address at bounce.test, e.g. someone@bounce.test), or add a test address with Messaging Email → Unsubscribe → Add, then fetch again.',
			},
		);
	}
	return [recent.map((event) => ({ json: toOutput(event, settings.timeZone) }))];
}

async function readAll(
	fetchPage: (offset: number) => Promise<{ records: IDataObject[] }>,
	first?: IDataObject[],
): Promise<IDataObject[]> {
	const records: IDataObject[] = [...(first ?? [])];
	let last = first;
	for (let pages = 0; pages < MAX_PAGES; pages++) {
		if (last && last.length < PAGE_SIZE) break;
		last = (await fetchPage(records.length)).records;
		records.push(...last);
	}
	return records;
}
