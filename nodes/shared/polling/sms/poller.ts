import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { clientForPoll } from '../pollClient';
import { smsOutput } from '../../records/sms';
import {
	DAY_MS,
	HOUR_MS,
	dateToServiceTime,
	isServiceTime,
	shiftServiceTime,
} from '../../values/serviceTime';
import type { MessagingClient } from '../../transport/client';
import { readHandover } from '../handover';
import type { EventPoller, PollOutcome } from '../poller';
import { pollDeadline, pollWarner } from '../pollRun';
import {
	listCampaigns,
	readCampaign,
	readFailure,
	sortedPhones,
	stepsTo,
	type CampaignPhone,
} from './events';
import { nextPace } from './pace';
import { sampleSms } from './sample';
import { readSmsSettings, type SmsSettings } from './settings';
import {
	isFinalLevel,
	LEVEL,
	phoneListDigest,
	readSmsState,
	smsHandover,
	SMS_STATE_VERSION,
	writeSmsState,
	type SmsCampaignState,
	type SmsState,
	type StoredSmsState,
} from './state';

/**
 * One poll of the SMS delivery events: list the campaigns created within the look-back (1 request), then read the
 * details of each followed campaign whose send date has passed and whose phones are not all final (1 request each,
 * oldest first), and emit each phone's newly reached statuses once. A campaign whose read fails keeps its state for
 * the next poll and holds back no other. "Fetch Test Event" is sample.ts; the settings are read in settings.ts, the
 * state in state.ts.
 */

/** SMS delivery events as an event source of the polling triggers (poller.ts). */
export const smsPoller: EventPoller<SmsSettings, SmsState> = {
	readSettings: readSmsSettings,
	poll: pollSms,
	writeState: writeSmsState,
	sample: sampleSms,
	handover: smsHandover,
};

/**
 * How long after its send date a campaign may list no phones (the service is still forming it), or keep every
 * phone at 0 "Ready to send", before it is taken as never sent (cancelled, or never started) and no longer read.
 */
export const UNSENT_AFTER_MS = 6 * HOUR_MS;
/** Polls in a row a campaign the campaign list cannot vouch for may answer 404 before it is taken as deleted. */
export const GONE_AFTER_FAILED_POLLS = 3;

const LOST_STATE =
	'its phones are taken as they are now; statuses they reached before this poll are not emitted';

/**
 * One scheduled (or activation) poll, step by step. Nothing is written here: the caller writes `state` once the
 * whole poll succeeded, so a failed poll repeats, it never skips.
 */
async function pollSms(
	context: IPollFunctions,
	stored: IDataObject,
	settings: SmsSettings,
): Promise<PollOutcome<SmsState>> {
	const run = startPoll(context, stored, settings);
	const listed = await listCampaigns(run.client, run.listFrom);
	const campaigns = followListedCampaigns(run, listed);
	dropCampaignsPastLookBack(run, campaigns);
	await readDueCampaigns(run, campaigns);
	return finishPoll(run, campaigns);
}

/** What the steps of one poll share. */
interface SmsPollRun {
	context: IPollFunctions;
	settings: SmsSettings;
	/** The node's name, for the log. */
	node: string;
	client: MessagingClient;
	/** The state the poll continues from (the node's static data, or a handover). */
	previous: StoredSmsState;
	/** The node's static data held an SMS state. */
	ownState: boolean;
	startedAt: number;
	deadline: number;
	/** The poll's start and the look-back's start, in service time. */
	now: string;
	listFrom: string;
	/** Campaign ids the campaign list showed in this poll. */
	listedIds: Set<string>;
	warnings: string[];
	warn: (message: string) => void;
	items: INodeExecutionData[];
	/** Statuses or campaigns left for the next poll (the cap, the deadline, or `stopped`). */
	more: boolean;
	/** Why the campaigns not read yet wait for the next poll (the service is out of reach, or rate-limits). */
	stopped?: string;
}

/** The state to continue from (or its handover), the client at the learned pace, and the warnings about the state. */
function startPoll(
	context: IPollFunctions,
	stored: IDataObject,
	settings: SmsSettings,
): SmsPollRun {
	const startedAt = Date.now();
	const found = readSmsState(stored);
	const handedOver = found.kind === 'absent' ? readHandover(context, smsHandover) : undefined;
	const previous: StoredSmsState = handedOver ? { kind: 'valid', state: handedOver } : found;
	const warnings = previous.kind === 'valid' ? [...(previous.state.warnings ?? [])] : [];
	const warn = pollWarner(context, warnings);
	const lookBackMs = settings.lookBackDays * DAY_MS;
	const learnedPace = previous.kind === 'valid' ? previous.state.pace : undefined;
	const run: SmsPollRun = {
		context,
		settings,
		node: context.getNode().name,
		client: clientForPoll(context, learnedPace?.perSecond),
		previous,
		ownState: found.kind !== 'absent',
		startedAt,
		deadline: pollDeadline(context, startedAt),
		now: dateToServiceTime(startedAt, settings.timeZone),
		listFrom: dateToServiceTime(startedAt - lookBackMs, settings.timeZone),
		listedIds: new Set(),
		warnings,
		warn,
		items: [],
		more: false,
	};
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
	for (const [id, reason] of Object.entries(damagedCampaigns(previous)))
		warn(
			`The saved SMS delivery state of campaign ${id} could not be read (${reason}): ${LOST_STATE}`,
		);
	return run;
}

/** A damaged campaign entry was dropped: listed again, the campaign is taken as it is (never emitted twice). */
const damagedCampaigns = (previous: StoredSmsState): Record<string, string> =>
	previous.kind === 'valid' ? (previous.damagedCampaigns ?? {}) : {};

/**
 * The campaign list merged into the followed campaigns: a new one is followed (taken as it is where it is old news),
 * a known one takes its rescheduled send date.
 */
function followListedCampaigns(
	run: SmsPollRun,
	listed: IDataObject[],
): Record<string, SmsCampaignState> {
	const { previous, settings, listFrom } = run;
	// New campaigns on the first activation (or after damage) are taken as they are; later ones emit everything.
	const baselineNew =
		previous.kind === 'damaged' || (previous.kind === 'absent' && !settings.includeLookBack);
	const damaged = damagedCampaigns(previous);
	const campaigns: Record<string, SmsCampaignState> =
		previous.kind === 'valid' ? previous.state.campaigns : {};
	// A longer look-back (an edit) lists campaigns that were already followed and dropped: taken as they are.
	const coveredFrom = previous.kind === 'valid' ? previous.state.listFrom : undefined;
	for (const campaign of listed) {
		const id = String(campaign.id ?? '');
		// Dry-run campaigns (id 0) are never stored by the service; anything else without an id cannot be read.
		if (!/^[1-9]\d*$/.test(id)) continue;
		run.listedIds.add(id);
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
		const started = !(sendDate > run.now);
		if (
			started &&
			(baselineNew || id in damaged || (coveredFrom !== undefined && created < coveredFrom))
		)
			campaigns[id].baseline = true;
	}
	return campaigns;
}

/** Campaigns created and sent before the look-back are no longer followed. */
function dropCampaignsPastLookBack(
	run: SmsPollRun,
	campaigns: Record<string, SmsCampaignState>,
): void {
	for (const [id, campaign] of Object.entries(campaigns)) {
		if (campaign.created < run.listFrom && campaign.sendDate < run.listFrom) {
			if (!campaign.done)
				run.context.logger.info(
					`${run.node}: SMS campaign ${id} sent ${campaign.sendDate} left the look-back with phones not final: no longer followed`,
				);
			delete campaigns[id];
		}
	}
}

/** Campaigns whose last read failed go last (so they hold back no other), then oldest send date first. */
const readOrder = ([idA, a]: [string, SmsCampaignState], [idB, b]: [string, SmsCampaignState]) =>
	(a.failed ? 1 : 0) - (b.failed ? 1 : 0) ||
	(a.sendDate < b.sendDate ? -1 : a.sendDate > b.sendDate ? 1 : Number(idA) - Number(idB));

/**
 * The details of each campaign due (sending begun, not done), in read order, until the cap or the deadline: a
 * baseline campaign is read whatever the cap (it emits nothing).
 */
async function readDueCampaigns(
	run: SmsPollRun,
	campaigns: Record<string, SmsCampaignState>,
): Promise<void> {
	const due = Object.entries(campaigns)
		.filter(([, campaign]) => !campaign.done && !(campaign.sendDate > run.now))
		.sort(readOrder);
	for (const [id, campaign] of due) {
		const quiet = campaign.baseline === true;
		// Once the cap is reached (or the time is up) the rest waits: reading it now would be a wasted request.
		if (
			run.stopped ||
			(!quiet && (run.items.length >= run.settings.maxEventsPerPoll || Date.now() > run.deadline))
		) {
			run.more = true;
			continue;
		}
		const read = await readCampaign(run.client, id).then(
			(detail) => ({ detail }),
			(error: unknown) => ({ error }),
		);
		if ('error' in read) campaignReadFailed(run, campaigns, id, read.error);
		else takeCampaign(run, campaigns, id, read.detail);
	}
}

/**
 * A campaign's read failed: a fatal failure fails the poll; a rate limit or an unreachable service leaves every
 * campaign not read yet for the next poll; a campaign the list no longer vouches for that answers 404 is taken as
 * deleted; any other failure keeps the campaign's state for the next poll.
 */
function campaignReadFailed(
	run: SmsPollRun,
	campaigns: Record<string, SmsCampaignState>,
	id: string,
	error: unknown,
): void {
	const campaign = campaigns[id];
	const failure = readFailure(error);
	const message = (error as Error).message;
	if (failure === 'fatal') throw error;
	if (failure === 'stop') {
		run.stopped = message;
		run.more = true;
		run.warn(`SMS campaigns not read in this poll (${message}): they are read at the next poll`);
		return;
	}
	const failed = (campaign.failed ?? 0) + 1;
	// Only the campaign list says a campaign is gone: a 404 alone may be a proxy's, or a passing one.
	const listWouldShow = campaign.created >= run.listFrom;
	if (
		failure === 'notFound' &&
		!run.listedIds.has(id) &&
		(listWouldShow || failed >= GONE_AFTER_FAILED_POLLS)
	) {
		run.context.logger.info(
			`${run.node}: SMS campaign ${id} no longer exists (deleted): not followed`,
		);
		delete campaigns[id];
		return;
	}
	if (failed === 1)
		run.warn(
			`SMS campaign ${id}: its details could not be read (${message}); its statuses are read at the next poll, ` +
				'the other campaigns went on',
		);
	else
		run.context.logger.info(
			`${run.node}: SMS campaign ${id}: read failed again (${failed} polls in a row)`,
		);
	campaign.failed = failed;
}

/** A campaign no longer read: only its dates stay, so the list does not bring it back as new. */
const finished = ({ created, sendDate }: SmsCampaignState): SmsCampaignState => ({
	created,
	sendDate,
	done: true,
});

/**
 * A campaign's details were read: its phones' newly reached statuses are emitted (none for a baseline), and its
 * state moves on, or shrinks to `finished` once every phone is final or the campaign is taken as never sent.
 */
function takeCampaign(
	run: SmsPollRun,
	campaigns: Record<string, SmsCampaignState>,
	id: string,
	detail: IDataObject,
): void {
	const { context, node } = run;
	const campaign = campaigns[id];
	const quiet = campaign.baseline === true;
	if (campaign.failed) {
		context.logger.info(
			`${node}: SMS campaign ${id}: read again after ${campaign.failed} failed polls`,
		);
		delete campaign.failed;
	}
	const phones = sortedPhones(detail);
	const unsentFor = shiftServiceTime(campaign.sendDate, UNSENT_AFTER_MS);
	const givenUp = unsentFor !== undefined && unsentFor < run.now;
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
		return;
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
			run.warn(
				`SMS campaign ${id}: its list of phones changed after sending began; its phones are taken as they ` +
					'are now (statuses reached since the last poll are not emitted)',
			);
			silent = true;
		}
		levels = phones.map(() => LEVEL.none);
	} else if (levels.length !== phones.length) {
		run.warn(
			`The saved SMS delivery state of campaign ${id} holds ${levels.length} statuses for its ${phones.length} phones: ${LOST_STATE}`,
		);
		silent = true;
		levels = phones.map(() => LEVEL.none);
	}
	emitNewStatuses(run, id, detail, phones, levels, silent);
	if (levels.every(isFinalLevel)) {
		campaigns[id] = finished(campaign);
	} else {
		delete campaign.baseline;
		campaign.phones = digest;
		campaign.levels = levels.join('');
	}
}

/**
 * Each phone's statuses reached since its level, in order: a chosen event is emitted (not when `silent`) until the
 * cap, and the phone's level moves past each status handled. `levels` is updated in place.
 */
function emitNewStatuses(
	run: SmsPollRun,
	id: string,
	detail: IDataObject,
	phones: CampaignPhone[],
	levels: string[],
	silent: boolean,
): void {
	const { settings, items } = run;
	for (const [index, phone] of phones.entries()) {
		for (const step of stepsTo(levels[index], phone)) {
			if (!silent && step.event && settings.events.includes(step.event)) {
				if (items.length >= settings.maxEventsPerPoll) {
					run.more = true;
					return;
				}
				items.push({
					json: smsOutput(step.event, id, detail, phone, run.startedAt, settings.timeZone),
				});
			}
			levels[index] = step.level;
		}
	}
}

/** The state to write: the campaigns, the pace learned, and the warnings no emitted item carries yet. */
function finishPoll(
	run: SmsPollRun,
	campaigns: Record<string, SmsCampaignState>,
): PollOutcome<SmsState> {
	const { items, warnings, previous } = run;
	if (run.more && !run.stopped) {
		run.context.logger.info(
			`${run.node}: emitted ${items.length} SMS events; more are waiting for the next poll`,
		);
	}
	const state: SmsState = {
		version: SMS_STATE_VERSION,
		lastPollAt: run.startedAt,
		listFrom: run.listFrom,
		campaigns,
	};
	const learnedPace = previous.kind === 'valid' ? previous.state.pace : undefined;
	const pace = nextPace(learnedPace, run.client.pacer, Date.now() - run.startedAt);
	if (pace) state.pace = pace;
	if (items.length > 0 && warnings.length > 0) items[0].json.metadata = { warnings };
	else if (warnings.length > 0) state.warnings = warnings;
	return { items, state, ownState: run.ownState };
}
