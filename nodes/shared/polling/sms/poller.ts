import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { readAccountTimeZone } from '../../values/account';
import { clientForPoll } from '../pollClient';
import { numberFromText } from '../../values/checks';
import { describeValue } from '../../values/objects';
import {
	DAY_MS,
	HOUR_MS,
	dateToServiceTime,
	isServiceTime,
	shiftServiceTime,
} from '../../values/serviceTime';
import { chosenEvents, readMaxEventsPerPoll } from '../../triggerSettings';
import { isSmsEvent, smsOutput, type SmsEventType } from '../../records/sms';
import { readHandover, type Handover } from '../handover';
import { SAMPLE_SIZE, pollDeadline, pollWarner } from '../pollRun';
import {
	currentEvent,
	listCampaigns,
	readCampaign,
	readFailure,
	sortedPhones,
	stepsTo,
} from './events';
import { nextPace } from './pace';
import {
	isFinalLevel,
	LEVEL,
	phoneListDigest,
	readSmsState,
	SMS_STATE_KEY,
	SMS_STATE_VERSION,
	type SmsCampaignState,
	type SmsState,
	type StoredSmsState,
} from './state';

export const DEFAULT_SMS_LOOK_BACK_DAYS = 3;
const MAX_SMS_LOOK_BACK_DAYS = 30;
const SAMPLE_CAMPAIGNS = 5;

export interface SmsSettings {
	events: SmsEventType[];
	lookBackDays: number;
	includeLookBack: boolean;
	maxEventsPerPoll: number;
	timeZone: string;
}

export async function readSmsSettings(
	context: IPollFunctions,
	defaultMaxEvents: number,
): Promise<SmsSettings> {
	const node = context.getNode();
	const events = chosenEvents(context.getNodeParameter('events', [])).filter(isSmsEvent);
	const options = context.getNodeParameter('options', {}) as IDataObject;
	// Days may be fractional (0.5); text holding a number is read as the other number options read it.
	const givenDays = options.smsLookBackDays ?? DEFAULT_SMS_LOOK_BACK_DAYS;
	const lookBackDays = numberFromText(givenDays);
	if (
		typeof lookBackDays !== 'number' ||
		!Number.isFinite(lookBackDays) ||
		lookBackDays <= 0 ||
		lookBackDays > MAX_SMS_LOOK_BACK_DAYS
	) {
		throw new NodeOperationError(
			node,
			`SMS Look-Back (Days): must be more than 0 and at most ${MAX_SMS_LOOK_BACK_DAYS} (got ${describeValue(givenDays)})`,
		);
	}
	const maxEventsPerPoll = readMaxEventsPerPoll(node, options, defaultMaxEvents);
	const timeZone = await readAccountTimeZone(context);
	return {
		events: [...new Set(events)],
		lookBackDays,
		includeLookBack: options.includeSmsLookBack === true,
		maxEventsPerPoll,
		timeZone,
	};
}

export interface SmsPollResult {
	items: INodeExecutionData[];
	/** To be written (writeSmsState) only once the whole poll succeeded. */
	state: SmsState;
	/** The node's static data held an SMS state (for settleHandover, once the whole poll is known). */
	ownState: boolean;
}

/** The SMS delivery state as its handover (handover.ts) reads it: valid in full (it is the same whatever is watched). */
export const smsHandover: Handover<SmsState> = {
	stateKey: SMS_STATE_KEY,
	label: 'SMS delivery events',
	read: (stored) => {
		const read = readSmsState(stored);
		return read.kind === 'valid' && !read.damagedCampaigns ? read.state : undefined;
	},
};

/**
 * How long after its send date a campaign may list no phones (the service is still forming it), or keep every
 * phone at 0 "Ready to send", before it is taken as never sent (cancelled, or never started) and no longer read.
 */
export const UNSENT_AFTER_MS = 6 * HOUR_MS;
/** Polls in a row a campaign the campaign list cannot vouch for may answer 404 before it is taken as deleted. */
export const GONE_AFTER_FAILED_POLLS = 3;

/** Campaigns whose last read failed go last (so they hold back no other), then oldest send date first. */
const readOrder = ([idA, a]: [string, SmsCampaignState], [idB, b]: [string, SmsCampaignState]) =>
	(a.failed ? 1 : 0) - (b.failed ? 1 : 0) ||
	(a.sendDate < b.sendDate ? -1 : a.sendDate > b.sendDate ? 1 : Number(idA) - Number(idB));

/** A campaign no longer read: only its dates stay, so the list does not bring it back as new. */
const finished = ({ created, sendDate }: SmsCampaignState): SmsCampaignState => ({
	created,
	sendDate,
	done: true,
});

const LOST_STATE =
	'its phones are taken as they are now; statuses they reached before this poll are not emitted';

/**
 * One scheduled poll: list the campaigns created within the look-back (1 request), then read the details of each
 * followed campaign whose send date has passed and whose phones are not all final (1 request each, oldest first),
 * and emit each phone's newly reached statuses once. A campaign whose read fails keeps its state for the next
 * poll and holds back no other. Nothing is written here: the caller stores `state` after the whole poll succeeded,
 * so a failed poll repeats, it never skips.
 */
export async function pollSms(
	context: IPollFunctions,
	stored: IDataObject,
	settings: SmsSettings,
): Promise<SmsPollResult> {
	const startedAt = Date.now();
	const deadline = pollDeadline(context, startedAt);
	const node = context.getNode().name;
	const found = readSmsState(stored);
	const handedOver = found.kind === 'absent' ? readHandover(context, smsHandover) : undefined;
	const previous: StoredSmsState = handedOver ? { kind: 'valid', state: handedOver } : found;
	const warnings = previous.kind === 'valid' ? [...(previous.state.warnings ?? [])] : [];
	const warn = pollWarner(context, warnings);
	const lookBackMs = settings.lookBackDays * DAY_MS;
	const learnedPace = previous.kind === 'valid' ? previous.state.pace : undefined;
	const client = clientForPoll(context, learnedPace?.perSecond);
	if (previous.kind === 'damaged') {
		warn(
			`The saved SMS delivery state could not be read (${previous.reason}): campaigns are followed again from ` +
				'now on; statuses reached before this poll are not emitted',
		);
	} else if (previous.kind === 'valid' && startedAt - previous.state.lastPollAt > lookBackMs) {
		const days = ((startedAt - previous.state.lastPollAt) / DAY_MS).toFixed(1);
		warn(
			`No successful poll for ${days} days (more than the SMS look-back of ${settings.lookBackDays}): ` +
				'campaigns created and finished in that time were not followed, their statuses are missing from this output',
		);
	}
	// A damaged campaign entry was dropped: listed again, the campaign is taken as it is (never emitted twice).
	const damaged = previous.kind === 'valid' ? (previous.damagedCampaigns ?? {}) : {};
	for (const [id, reason] of Object.entries(damaged))
		warn(
			`The saved SMS delivery state of campaign ${id} could not be read (${reason}): ${LOST_STATE}`,
		);
	// New campaigns on the first activation (or after damage) are taken as they are; later ones emit everything.
	const baselineNew =
		previous.kind === 'damaged' || (previous.kind === 'absent' && !settings.includeLookBack);
	const campaigns: Record<string, SmsCampaignState> =
		previous.kind === 'valid' ? previous.state.campaigns : {};
	// A longer look-back (an edit) lists campaigns that were already followed and dropped: taken as they are.
	const coveredFrom = previous.kind === 'valid' ? previous.state.listFrom : undefined;

	const now = dateToServiceTime(startedAt, settings.timeZone);
	const listFrom = dateToServiceTime(startedAt - lookBackMs, settings.timeZone);
	const listed = await listCampaigns(client, listFrom);
	const listedIds = new Set<string>();
	for (const campaign of listed) {
		const id = String(campaign.id ?? '');
		// Dry-run campaigns (id 0) are never stored by the service; anything else without an id cannot be read.
		if (!/^[1-9]\d*$/.test(id)) continue;
		listedIds.add(id);
		const sendDate = String(campaign.send_date ?? '');
		const known = campaigns[id];
		if (known) {
			if (isServiceTime(sendDate)) known.sendDate = sendDate; // rescheduled before sending
			continue;
		}
		const created = String(campaign.date_created ?? '');
		// The look-back applied here too: a campaign once followed and dropped must not come back as new.
		if (created < listFrom && sendDate < listFrom) continue;
		campaigns[id] = { created, sendDate };
		// A campaign whose sending has not begun has nothing to take as it is: all it shows later is new.
		const started = !(sendDate > now);
		if (
			started &&
			(baselineNew || id in damaged || (coveredFrom !== undefined && created < coveredFrom))
		)
			campaigns[id].baseline = true;
	}
	for (const [id, campaign] of Object.entries(campaigns)) {
		if (campaign.created < listFrom && campaign.sendDate < listFrom) {
			if (!campaign.done)
				context.logger.info(
					`${node}: SMS campaign ${id} sent ${campaign.sendDate} left the look-back with phones not final: no longer followed`,
				);
			delete campaigns[id];
		}
	}

	const items: INodeExecutionData[] = [];
	const cap = settings.maxEventsPerPoll;
	let more = false;
	/** Why the campaigns not read yet wait for the next poll (the service is out of reach, or rate-limits). */
	let stopped: string | undefined;
	const due = Object.entries(campaigns)
		.filter(([, campaign]) => !campaign.done && !(campaign.sendDate > now))
		.sort(readOrder);
	for (const [id, campaign] of due) {
		const quiet = campaign.baseline === true;
		// Once the cap is reached (or the time is up) the rest waits: reading it now would be a wasted request.
		if (stopped || (!quiet && (items.length >= cap || Date.now() > deadline))) {
			more = true;
			continue;
		}
		const read = await readCampaign(client, id).then(
			(detail) => ({ detail }),
			(error: unknown) => ({ error }),
		);
		if ('error' in read) {
			const failure = readFailure(read.error);
			const message = (read.error as Error).message;
			if (failure === 'fatal') throw read.error;
			if (failure === 'stop') {
				stopped = message;
				more = true;
				warn(`SMS campaigns not read in this poll (${message}): they are read at the next poll`);
				continue;
			}
			const failed = (campaign.failed ?? 0) + 1;
			// Only the campaign list says a campaign is gone: a 404 alone may be a proxy's, or a passing one.
			const listWouldShow = campaign.created >= listFrom;
			if (
				failure === 'notFound' &&
				!listedIds.has(id) &&
				(listWouldShow || failed >= GONE_AFTER_FAILED_POLLS)
			) {
				context.logger.info(`${node}: SMS campaign ${id} no longer exists (deleted): not followed`);
				delete campaigns[id];
				continue;
			}
			if (failed === 1)
				warn(
					`SMS campaign ${id}: its details could not be read (${message}); its statuses are read at the next poll, ` +
						'the other campaigns went on',
				);
			else
				context.logger.info(
					`${node}: SMS campaign ${id}: read failed again (${failed} polls in a row)`,
				);
			campaign.failed = failed;
			continue;
		}
		const { detail } = read;
		if (campaign.failed) {
			context.logger.info(
				`${node}: SMS campaign ${id}: read again after ${campaign.failed} failed polls`,
			);
			delete campaign.failed;
		}
		const phones = sortedPhones(detail);
		const unsentFor = shiftServiceTime(campaign.sendDate, UNSENT_AFTER_MS);
		const givenUp = unsentFor !== undefined && unsentFor < now;
		if (phones.length === 0) {
			// The service forms a campaign after its send date: its phones (already sent by then) come later.
			if (givenUp) {
				context.logger.info(
					`${node}: SMS campaign ${id} sent ${campaign.sendDate} still lists no phones: no longer followed`,
				);
				campaigns[id] = finished(campaign);
			}
			// Nothing shown yet, so nothing to take as it is: what it shows later is new.
			delete campaign.baseline;
			continue;
		}
		if (givenUp && phones.every((phone) => phone.status === 0 && !phone.cancelled)) {
			context.logger.info(
				`${node}: SMS campaign ${id} sent ${campaign.sendDate} has every phone still "Ready to send": taken as never sent (cancelled), no longer followed`,
			);
			for (const phone of phones) phone.cancelled = true;
		}
		const digest = phoneListDigest(phones.map((phone) => phone.phone));
		let levels = [...(campaign.levels ?? '')];
		let silent = quiet;
		if (campaign.phones !== digest) {
			if (levels.some((level) => level !== LEVEL.none)) {
				warn(
					`SMS campaign ${id}: its list of phones changed after sending began; its phones are taken as they ` +
						'are now (statuses reached since the last poll are not emitted)',
				);
				silent = true;
			}
			levels = phones.map(() => LEVEL.none);
		} else if (levels.length !== phones.length) {
			warn(
				`The saved SMS delivery state of campaign ${id} holds ${levels.length} statuses for its ${phones.length} phones: ${LOST_STATE}`,
			);
			silent = true;
			levels = phones.map(() => LEVEL.none);
		}
		phoneLoop: for (const [index, phone] of phones.entries()) {
			for (const step of stepsTo(levels[index], phone)) {
				if (!silent && step.event && settings.events.includes(step.event)) {
					if (items.length >= cap) {
						more = true;
						break phoneLoop;
					}
					items.push({
						json: smsOutput(step.event, id, detail, phone, startedAt, settings.timeZone),
					});
				}
				levels[index] = step.level;
			}
		}
		if (levels.every(isFinalLevel)) {
			campaigns[id] = finished(campaign);
		} else {
			delete campaign.baseline;
			campaign.phones = digest;
			campaign.levels = levels.join('');
		}
	}
	if (more && !stopped) {
		context.logger.info(
			`${node}: emitted ${items.length} SMS events; more are waiting for the next poll`,
		);
	}

	const state: SmsState = {
		version: SMS_STATE_VERSION,
		lastPollAt: startedAt,
		listFrom,
		campaigns,
	};
	const pace = nextPace(learnedPace, client.pacer, Date.now() - startedAt);
	if (pace) state.pace = pace;
	if (items.length > 0 && warnings.length > 0) items[0].json.metadata = { warnings };
	else if (warnings.length > 0) state.warnings = warnings;
	return { items, state, ownState: found.kind !== 'absent' };
}

/** "Fetch Test Event": the statuses of the newest campaigns whose send date has passed; the state is untouched. */
/** Fetch Test Event's SMS sample, and how many statuses of events not chosen it passed over (for its empty message). */
export interface SmsSample {
	items: INodeExecutionData[];
	notChosen: Partial<Record<SmsEventType, number>>;
}

export async function sampleSms(
	context: IPollFunctions,
	settings: SmsSettings,
): Promise<SmsSample> {
	const client = clientForPoll(context);
	const startedAt = Date.now();
	const now = dateToServiceTime(startedAt, settings.timeZone);
	const listFrom = dateToServiceTime(startedAt - settings.lookBackDays * DAY_MS, settings.timeZone);
	const newest = (await listCampaigns(client, listFrom))
		.map((campaign) => ({
			id: String(campaign.id ?? ''),
			sendDate: String(campaign.send_date ?? ''),
		}))
		.filter((campaign) => /^[1-9]\d*$/.test(campaign.id) && !(campaign.sendDate > now))
		.sort((a, b) =>
			a.sendDate > b.sendDate ? -1 : a.sendDate < b.sendDate ? 1 : Number(b.id) - Number(a.id),
		)
		.slice(0, SAMPLE_CAMPAIGNS);
	const items: INodeExecutionData[] = [];
	const notChosen: SmsSample['notChosen'] = {};
	for (const campaign of newest) {
		const detail = await readCampaign(client, campaign.id).catch((error: unknown) => {
			// A deleted campaign (or a proxy's 404) has nothing to show; anything else is the sample's failure.
			if (readFailure(error) === 'notFound') return undefined;
			throw error;
		});
		if (!detail) continue;
		for (const phone of sortedPhones(detail)) {
			const event = currentEvent(phone);
			if (event && !settings.events.includes(event)) notChosen[event] = (notChosen[event] ?? 0) + 1;
			if (!event || !settings.events.includes(event)) continue;
			items.push({
				json: smsOutput(event, campaign.id, detail, phone, startedAt, settings.timeZone),
			});
			if (items.length >= SAMPLE_SIZE) return { items, notChosen };
		}
	}
	return { items, notChosen };
}
