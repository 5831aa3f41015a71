import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { clientForPoll } from '../pollClient';
import { DAY_MS, dateToServiceTime, HOUR_MS } from '../../values/serviceTime';
import { readHandover } from '../handover';
import type { EventPoller, PollOutcome } from '../poller';
import { pollDeadline, pollWarner } from '../pollRun';
import { finishBounces, scanBounces, secondOf, type BounceScan } from './bounces';
import { toOutput } from './events';
import type { ScanMode } from './scan';
import { sampleEmail } from './sample';
import { readEmailSettings, type EmailSettings } from './settings';
import {
	emailHandover,
	readState,
	SeenSet,
	STATE_VERSION,
	writeState,
	type EventType,
	type TriggerState,
} from './state';
import { finishUnsubscribes, scanUnsubscribes, type UnsubscribeScan } from './unsubscribes';

/**
 * One poll of the email events: the bounce and unsubscribe scans (bounces.ts, unsubscribes.ts) merged oldest
 * first under the per-poll cap; the state to write once every request succeeded. "Fetch Test Event" is
 * sample.ts; the settings are read in settings.ts, the state in state.ts.
 */

/** A pause longer than the bounce window may have lost bounces upstream. */
const GAP_MS = 24 * HOUR_MS;

/** Email events (bounce, unsubscribe) as an event source of the polling triggers (poller.ts). */
export const emailPoller: EventPoller<EmailSettings, TriggerState> = {
	readSettings: readEmailSettings,
	poll: pollEmail,
	writeState,
	sample: sampleEmail,
	handover: emailHandover,
};

/**
 * One scheduled (or activation) poll of the email events. Nothing is written here: the caller writes `state` once
 * the whole poll succeeded, and settles the handover (handover.ts).
 */
async function pollEmail(
	context: IPollFunctions,
	stored: IDataObject,
	settings: EmailSettings,
): Promise<PollOutcome<TriggerState>> {
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
	return { items, state, ownState: found.kind !== 'absent' };
}
