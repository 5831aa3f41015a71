import { NodeOperationError, type IDataObject, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { MessagingClient } from '../shared/transport/client';
import { DEFAULT_REQUESTS_PER_SECOND, RequestPacer } from '../shared/transport/pacer';
import { fetchBouncePage, fetchUnsubscribePage, listBounce, listUnsubscribe, PAGE_SIZE, toOutput, type ListedEvent } from './events';
import {
	readState,
	SeenSet,
	STATE_VERSION,
	writeState,
	type BounceState,
	type EventType,
	type TriggerState,
	type UnsubscribeState,
} from './state';
import { assertTimeZone, DAY_MS, dateToServiceTime, daysBetween, isServiceTime, shiftServiceTime } from './time';

const HOUR_MS = 3_600_000;
/** Bounce digests are kept for the service's 24-hour window plus an hour (a DST change shifts wall-clock time). */
const BOUNCE_RETENTION_MS = 25 * HOUR_MS;
/** Yesterday's unsubscribes are re-read until 03:00 service time: events written just before midnight, clock skew. */
const UNSUBSCRIBE_GRACE_MS = 3 * HOUR_MS;
/** After a longer pause, only this many days of unsubscribes are caught up. */
const MAX_UNSUBSCRIBE_DAYS = 31;
/** A pause longer than the bounce window may have lost bounces upstream. */
const GAP_MS = 24 * HOUR_MS;
/** Hard stop for one list in one poll (200,000 records). */
const MAX_PAGES = 2000;
/** Share of n8n's poll budget spent fetching before the poll returns what it has. */
const BUDGET_SHARE = 0.8;
const DEFAULT_BUDGET_MS = 5 * 60_000;
export const DEFAULT_MAX_EVENTS_PER_POLL = 1000;
export const SAMPLE_SIZE = 5;

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

export function readSettings(context: IPollFunctions): TriggerSettings {
	const node = context.getNode();
	const rawEvents = context.getNodeParameter('events', []) as unknown;
	const events = (Array.isArray(rawEvents) ? rawEvents : [rawEvents]).filter(
		(event): event is EventType => event === 'bounce' || event === 'unsubscribe',
	);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Events: choose Bounce, Unsubscribe or both', {
			description: 'The trigger needs at least one event type to watch.',
		});
	}
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const timeZone = String(options.serviceTimeZone ?? '').trim() || 'UTC';
	try {
		assertTimeZone(timeZone);
	} catch {
		throw new NodeOperationError(node, `Service Time Zone: "${timeZone}" is not a time zone name`, {
			description: "Use an IANA zone name such as UTC or Europe/Berlin: the zone of your account on the service.",
		});
	}
	const maxEventsPerPoll = Number(options.maxEventsPerPoll ?? DEFAULT_MAX_EVENTS_PER_POLL);
	if (!Number.isInteger(maxEventsPerPoll) || maxEventsPerPoll < 1) {
		throw new NodeOperationError(node, `Max Events per Poll: must be a whole number of at least 1, not ${String(options.maxEventsPerPoll)}`);
	}
	return {
		events: [...new Set(events)].sort(),
		includeLast24Hours: options.includeLast24Hours === true,
		maxEventsPerPoll,
		timeZone,
	};
}

function createClient(context: IPollFunctions): MessagingClient {
	const requestOptions = context.getNodeParameter('requestOptions', {}) as IDataObject;
	const perSecond = Number(requestOptions.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND);
	return new MessagingClient(context, new RequestPacer(Number.isFinite(perSecond) ? perSecond : DEFAULT_REQUESTS_PER_SECOND, 1));
}

function pollDeadline(context: IPollFunctions, startedAt: number): number {
	const budget = typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	return startedAt + Math.max(1000, budget * BUDGET_SHARE);
}

export async function poll(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(context);
	const client = createClient(context);
	if (context.getMode() === 'manual') return await sample(context, client, settings);

	const startedAt = Date.now();
	const deadline = pollDeadline(context, startedAt);
	const stored = context.getWorkflowStaticData('node');
	const previous = readState(stored);
	const signature = settings.events.join(',');
	const watches = (type: EventType) => settings.events.includes(type);
	const warnings = [...(previous?.warnings ?? [])];
	const warn = (message: string) => {
		context.logger.warn(`${context.getNode().name}: ${message}`, { node: context.getNode().name, workflowId: context.getWorkflow().id });
		warnings.push(message);
	};

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

	const modeFor = (existing: unknown): ScanMode =>
		existing !== undefined ? 'new' : previous === undefined && settings.includeLast24Hours ? 'all' : 'baseline';
	const cap = settings.maxEventsPerPoll;

	const bounceSeen = new SeenSet(previous?.bounce?.seen);
	let bounceNewest = previous?.bounce?.newest;
	let bounceScan: ScanResult = { candidates: [], complete: true };
	if (watches('bounce')) {
		// A send time more than a day ahead of n8n's clock is bad data: it must not drag the retention floor along.
		const plausible = dateToServiceTime(startedAt + DAY_MS, settings.timeZone);
		const scan = await scanBounces(context, client, bounceSeen, bounceNewest, modeFor(previous?.bounce), { cap, deadline, plausible });
		bounceScan = scan;
		bounceNewest = scan.newest;
	}

	const unsubscribeSeen = new SeenSet(previous?.unsubscribe?.seen);
	let unsubscribeFrom = previous?.unsubscribe?.from;
	let unsubscribeScan: ScanResult = { candidates: [], complete: true };
	if (watches('unsubscribe')) {
		const scan = await scanUnsubscribes(context, client, unsubscribeSeen, previous?.unsubscribe, modeFor(previous?.unsubscribe), {
			cap,
			deadline,
			now: startedAt,
			timeZone: settings.timeZone,
			warn,
		});
		unsubscribeScan = scan;
		unsubscribeFrom = scan.from;
	}

	// Oldest first across both lists (service times share one zone, so the strings sort chronologically).
	const candidates = [...bounceScan.candidates, ...unsubscribeScan.candidates].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
	const emitted = candidates.slice(0, cap);
	for (const event of emitted) (event.type === 'bounce' ? bounceSeen : unsubscribeSeen).add(event.bucket, event.key);
	const unsubscribesLeft = !unsubscribeScan.complete || candidates.slice(cap).some((event) => event.type === 'unsubscribe');
	if (candidates.length > emitted.length || !bounceScan.complete || !unsubscribeScan.complete) {
		context.logger.info(`${context.getNode().name}: emitted ${emitted.length} events; more are waiting for the next poll`);
	}

	const state: TriggerState = { version: STATE_VERSION, events: signature, lastPollAt: startedAt };
	if (watches('bounce')) state.bounce = finishBounces(bounceSeen, bounceNewest);
	if (watches('unsubscribe') && unsubscribeFrom !== undefined) {
		state.unsubscribe = finishUnsubscribes(unsubscribeSeen, unsubscribeFrom, unsubscribesLeft, startedAt, settings.timeZone);
	}

	const items: INodeExecutionData[] = emitted.map((event) => ({ json: toOutput(event, settings.timeZone) }));
	if (items.length > 0 && warnings.length > 0) {
		items[0].json.metadata = { warnings };
	} else if (warnings.length > 0) {
		state.warnings = warnings;
	}
	// Only now, after every request succeeded: a failed poll leaves the previous state exactly as it was.
	writeState(stored, state);
	return items.length > 0 ? [items] : null;
}

async function scanBounces(
	context: IPollFunctions,
	client: MessagingClient,
	seen: SeenSet,
	newest: string | undefined,
	mode: ScanMode,
	limits: { cap: number; deadline: number; plausible: string },
): Promise<ScanResult & { newest?: string }> {
	const { cap, deadline, plausible } = limits;
	// Anything older than the retention floor was handled (or the service can no longer list it): never again.
	const floor = newest === undefined ? undefined : shiftServiceTime(newest, -BOUNCE_RETENTION_MS);
	const occurrences = new Map<string, number>();
	const candidates: Candidate[] = [];
	let offset = 0;
	for (let pages = 0; ; pages++) {
		if (pages >= MAX_PAGES || (mode !== 'baseline' && pages > 0 && Date.now() > deadline)) {
			return { candidates, complete: false, newest };
		}
		const page = await fetchBouncePage(context, client, offset);
		for (const record of page.records) {
			const event = listBounce(record);
			const valid = isServiceTime(event.time);
			if (valid && floor !== undefined && event.time < floor) continue;
			if (valid && event.time <= plausible && (newest === undefined || event.time > newest)) newest = event.time;
			const bucket = valid ? event.time.slice(0, 13) : 'unknown';
			const occurrence = (occurrences.get(bucket + event.key) ?? 0) + 1;
			occurrences.set(bucket + event.key, occurrence);
			if (occurrence <= seen.count(bucket, event.key)) continue;
			if (mode === 'baseline') {
				seen.add(bucket, event.key);
				continue;
			}
			candidates.push({ ...event, bucket });
			if (candidates.length >= cap) return { candidates, complete: false, newest };
		}
		if (page.records.length < PAGE_SIZE) return { candidates, complete: true, newest };
		offset += page.records.length;
	}
}

function finishBounces(seen: SeenSet, newest: string | undefined): BounceState {
	if (newest !== undefined) {
		const floor = shiftServiceTime(newest, -BOUNCE_RETENTION_MS);
		if (floor !== undefined) seen.prune((hour) => `${hour}:59:59` >= floor);
	}
	return { ...(newest !== undefined ? { newest } : {}), seen: seen.toJSON() };
}

async function scanUnsubscribes(
	context: IPollFunctions,
	client: MessagingClient,
	seen: SeenSet,
	previous: UnsubscribeState | undefined,
	mode: ScanMode,
	settings: { cap: number; deadline: number; now: number; timeZone: string; warn: (message: string) => void },
): Promise<ScanResult & { from: string }> {
	const { cap, deadline, now, timeZone } = settings;
	const today = dateToServiceTime(now, timeZone).slice(0, 10);
	// "Include the last 24 hours": yesterday and today are read; entries older than 24 hours are only remembered.
	const emitFrom = mode === 'all' ? dateToServiceTime(now - DAY_MS, timeZone) : undefined;
	let from = previous?.from ?? dateToServiceTime(now - (mode === 'all' ? DAY_MS : UNSUBSCRIBE_GRACE_MS), timeZone).slice(0, 10);
	let days = daysBetween(from, today > from ? today : from);
	if (days.length > MAX_UNSUBSCRIBE_DAYS) {
		settings.warn(
			`Unsubscribes are caught up for the last ${MAX_UNSUBSCRIBE_DAYS} days only; those from ${from} to ` +
				`${days[days.length - MAX_UNSUBSCRIBE_DAYS - 1]} were skipped`,
		);
		days = days.slice(-MAX_UNSUBSCRIBE_DAYS);
		from = days[0];
	}
	const candidates: Candidate[] = [];
	let pages = 0;
	for (const day of days) {
		const occurrences = new Map<string, number>();
		for (let offset = 0; ; pages++) {
			if (pages >= MAX_PAGES || (mode !== 'baseline' && pages > 0 && Date.now() > deadline)) {
				return { candidates, complete: false, from };
			}
			const page = await fetchUnsubscribePage(context, client, day, offset);
			for (const record of page.records) {
				const event = listUnsubscribe(record);
				const occurrence = (occurrences.get(event.key) ?? 0) + 1;
				occurrences.set(event.key, occurrence);
				if (occurrence <= seen.count(day, event.key)) continue;
				if (mode === 'baseline' || (emitFrom !== undefined && event.time < emitFrom)) {
					seen.add(day, event.key);
					continue;
				}
				candidates.push({ ...event, bucket: day });
				if (candidates.length >= cap) return { candidates, complete: false, from };
			}
			if (page.records.length < PAGE_SIZE) break;
			offset += page.records.length;
		}
		pages++;
	}
	return { candidates, complete: true, from };
}

function finishUnsubscribes(seen: SeenSet, from: string, left: boolean, now: number, timeZone: string): UnsubscribeState {
	// Days before `from` are never read again, so their digests go. `from` moves only when nothing is left over.
	const candidate = dateToServiceTime(now - UNSUBSCRIBE_GRACE_MS, timeZone).slice(0, 10);
	const next = !left && candidate > from ? candidate : from;
	seen.prune((day) => day >= next);
	return { from: next, seen: seen.toJSON() };
}

/** "Fetch Test Event": the most recent events in the windows, cursors untouched. */
async function sample(context: IPollFunctions, client: MessagingClient, settings: TriggerSettings): Promise<INodeExecutionData[][]> {
	const events: ListedEvent[] = [];
	if (settings.events.includes('bounce')) {
		const first = await fetchBouncePage(context, client, 0);
		let records = first.records;
		if (first.total !== undefined && first.total > records.length) {
			records = (await fetchBouncePage(context, client, Math.max(0, first.total - SAMPLE_SIZE), SAMPLE_SIZE)).records;
		} else if (first.total === undefined && records.length === PAGE_SIZE) {
			records = await readAll((offset) => fetchBouncePage(context, client, offset), records);
		}
		events.push(...records.slice(-SAMPLE_SIZE).map(listBounce));
	}
	if (settings.events.includes('unsubscribe')) {
		const now = Date.now();
		const today = dateToServiceTime(now, settings.timeZone).slice(0, 10);
		const yesterday = dateToServiceTime(now - DAY_MS, settings.timeZone).slice(0, 10);
		let records = await readAll((offset) => fetchUnsubscribePage(context, client, today, offset));
		if (records.length < SAMPLE_SIZE) records = [...(await readAll((offset) => fetchUnsubscribePage(context, client, yesterday, offset))), ...records];
		events.push(...records.slice(-SAMPLE_SIZE).map(listUnsubscribe));
	}
	const recent = events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)).slice(-SAMPLE_SIZE);
	if (recent.length === 0) {
		const watched = settings.events.map((event) => (event === 'bounce' ? 'bounces' : 'unsubscribes')).join(' or ');
		throw new NodeOperationError(context.getNode(), `No ${watched} in the service's window right now`, {
			description:
				'Bounces are listed for the last 24 hours, unsubscribes for today and yesterday (service time). ' +
				'Send an email to an address that does not exist, or unsubscribe a test address, then fetch again.',
		});
	}
	return [recent.map((event) => ({ json: toOutput(event, settings.timeZone) }))];
}

async function readAll(fetchPage: (offset: number) => Promise<{ records: IDataObject[] }>, first?: IDataObject[]): Promise<IDataObject[]> {
	const records: IDataObject[] = [...(first ?? [])];
	let last = first;
	for (let pages = 0; pages < MAX_PAGES; pages++) {
		if (last && last.length < PAGE_SIZE) break;
		last = (await fetchPage(records.length)).records;
		records.push(...last);
	}
	return records;
}
