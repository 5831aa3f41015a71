import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { copyJson, isRecord } from '../../values/objects';
import type { Handover } from '../handover';

/**
 * What the trigger keeps between polls for SMS delivery events, under its own key of the node's static data.
 *
 * Per campaign still delivering: a digest of its sorted phone list and one character per phone (in that sorted
 * order) saying which status was last handled. One byte per phone, whatever the phone's length; the digest notices
 * a changed recipient list, where positions would no longer match. A finished campaign shrinks to its dates and
 * `done`, so it is not taken for a new one while the campaign list still shows it; it leaves the state with the
 * look-back.
 */
export const SMS_STATE_KEY = 'messagingTriggerSms';
export const SMS_STATE_VERSION = 1;

/** The last status handled for one phone. */
export const LEVEL = {
	none: '0',
	sent: '1',
	delivered: '2',
	notDelivered: 'n',
	/** Cancelled before sending: final, no event. */
	closed: 'x',
} as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

const LEVELS = new Set<string>(Object.values(LEVEL));
const FINAL = new Set<string>([LEVEL.delivered, LEVEL.notDelivered, LEVEL.closed]);
export const isFinalLevel = (level: string): boolean => FINAL.has(level);

export interface SmsCampaignState {
	/** `date_created` as the service gave it (service time). */
	created: string;
	/** `send_date` (service time): details are read only once it has passed. */
	sendDate: string;
	/** All phones reached a final status and were handled. */
	done?: true;
	/** Digest of the sorted phone list the levels belong to. */
	phones?: string;
	/** One level per phone, in sorted phone order. */
	levels?: string;
	/** Taken as it is at its next read, emitting nothing (first activation, damage, an older campaign listed anew). */
	baseline?: true;
	/** Polls in a row whose read of the details failed (the state above is kept; a 404 counts too). */
	failed?: number;
}

export interface SmsState {
	version: number;
	/** n8n's clock at the last successful poll (ms). */
	lastPollAt: number;
	/** Start of the campaign list that poll read (service time): older campaigns new to the state are old news. */
	listFrom?: string;
	/** Campaign id → what is known of it. */
	campaigns: Record<string, SmsCampaignState>;
	/** Warnings waiting for the next emitted item. */
	warnings?: string[];
	/**
	 * Requests per second the service allowed (set once it rate-limited a poll): the next poll's pace, below the node's
	 * Max Requests per Second. `calm`: busy polls in a row at that pace without a rate-limit answer (see pace.ts).
	 */
	pace?: { perSecond: number; calm: number };
}

export type StoredSmsState =
	| { kind: 'absent' }
	| { kind: 'damaged'; reason: string }
	| {
			kind: 'valid';
			state: SmsState;
			/** Campaign id → why its entry was dropped: that campaign is taken as it is now (a baseline). */
			damagedCampaigns?: Record<string, string>;
	  };

/** `phoneListDigest`'s form. */
const DIGEST = /^[\w-]{12}$/;
const isCount = (value: unknown, min: number) =>
	typeof value === 'number' && Number.isInteger(value) && value >= min;

function campaignProblem(id: string, value: unknown): string | undefined {
	if (!/^[1-9]\d*$/.test(id)) return `campaign id "${id}" is not a campaign id`;
	if (!isRecord(value)) return `campaign ${id} is not an object`;
	if (typeof value.created !== 'string' || typeof value.sendDate !== 'string')
		return `campaign ${id} has no dates`;
	if (value.done !== undefined && value.done !== true) return `campaign ${id}: bad "done"`;
	if ((value.phones === undefined) !== (value.levels === undefined))
		return `campaign ${id}: phones and levels go together`;
	if (value.done && value.levels !== undefined) return `campaign ${id}: done, yet with levels`;
	if (value.baseline !== undefined && value.baseline !== true)
		return `campaign ${id}: bad "baseline"`;
	if (value.failed !== undefined && !isCount(value.failed, 1))
		return `campaign ${id}: bad "failed"`;
	if (value.levels !== undefined) {
		if (typeof value.phones !== 'string' || !DIGEST.test(value.phones))
			return `campaign ${id}: bad phone digest`;
		// A campaign is stored with levels only once it listed phones: one level at least.
		if (typeof value.levels !== 'string' || value.levels === '') return `campaign ${id}: no levels`;
		if ([...value.levels].some((level) => !LEVELS.has(level)))
			return `campaign ${id}: unknown level in "${value.levels.slice(0, 20)}"`;
	}
	return undefined;
}

/**
 * The stored SMS state, checked in full: anything unexpected in its frame is "damaged" (the caller baselines every
 * campaign and warns); a damaged campaign entry is dropped and reported in `damagedCampaigns` (the caller baselines
 * that campaign and warns), the other campaigns go on exactly.
 */
export function readSmsState(stored: IDataObject): StoredSmsState {
	const candidate = stored[SMS_STATE_KEY];
	if (candidate === undefined) return { kind: 'absent' };
	if (!isRecord(candidate)) return { kind: 'damaged', reason: 'not an object' };
	if (candidate.version !== SMS_STATE_VERSION)
		return { kind: 'damaged', reason: `unknown version ${JSON.stringify(candidate.version)}` };
	if (typeof candidate.lastPollAt !== 'number' || !Number.isFinite(candidate.lastPollAt))
		return { kind: 'damaged', reason: 'no time of the last poll' };
	if (candidate.listFrom !== undefined && typeof candidate.listFrom !== 'string')
		return { kind: 'damaged', reason: 'bad list start' };
	if (!isRecord(candidate.campaigns)) return { kind: 'damaged', reason: 'no campaign map' };
	const pace = candidate.pace;
	if (
		pace !== undefined &&
		!(isRecord(pace) && isCount(pace.perSecond, 1) && isCount(pace.calm, 0))
	)
		return { kind: 'damaged', reason: 'bad pace' };
	if (
		candidate.warnings !== undefined &&
		!(
			Array.isArray(candidate.warnings) &&
			candidate.warnings.every((warning) => typeof warning === 'string')
		)
	)
		return { kind: 'damaged', reason: 'bad warnings' };
	const state = copyJson(candidate) as SmsState;
	const damagedCampaigns: Record<string, string> = {};
	for (const [id, value] of Object.entries(state.campaigns)) {
		const problem = campaignProblem(id, value);
		if (!problem) continue;
		damagedCampaigns[id] = problem;
		delete state.campaigns[id];
	}
	return Object.keys(damagedCampaigns).length > 0
		? { kind: 'valid', state, damagedCampaigns }
		: { kind: 'valid', state };
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

/** Writes the SMS state under its key, leaving the other keys (the email events' state) alone. */
export function writeSmsState(stored: IDataObject, state: SmsState): void {
	stored[SMS_STATE_KEY] = copyJson(state) as IDataObject;
}

/** Digest of a sorted phone list (12 base64url characters, 72 bits). */
export function phoneListDigest(sortedPhones: string[]): string {
	return createHash('sha256').update(sortedPhones.join(',')).digest('base64url').slice(0, 12);
}
