import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import type { PollOutcome } from '../harness/poll-harness';
import { requestsSince } from './helpers';

/** Creates a campaign through the service API (POST /sms/send), like any client; returns its id as a string. */
/** Every SMS delivery event the trigger offers. */
export const ALL_SMS = ['smsDelivered', 'smsNotDelivered', 'smsSent'];

export async function sendCampaign(
	sandbox: Sandbox,
	phones: string[],
	extra: IDataObject = {},
): Promise<string> {
	const response = await fetch(`${sandbox.url}/sms/send`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ sender: 'Sandbox', phones, body: 'Your order has shipped', ...extra }),
	});
	const body = (await response.json()) as { campaign_id?: number };
	if (response.status !== 200 || !body.campaign_id)
		throw new Error(`POST /sms/send → ${response.status} ${JSON.stringify(body)}`);
	return String(body.campaign_id);
}

export async function cancelCampaign(sandbox: Sandbox, id: string) {
	const response = await fetch(`${sandbox.url}/sms/campaigns/cancel/${id}`, {
		method: 'PUT',
		headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
	});
	if (response.status !== 200) throw new Error(`cancel ${id} → ${response.status}`);
}

export async function deleteCampaign(sandbox: Sandbox, id: string) {
	const response = await fetch(`${sandbox.url}/sms/campaigns`, {
		method: 'DELETE',
		headers: {
			Authorization: `Bearer ${sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ id: Number(id) }),
	});
	if (response.status !== 200) throw new Error(`delete ${id} → ${response.status}`);
}

/** `event campaignId phone` per emitted item, after checking the poll did not fail. */
export function smsEvents(outcome: PollOutcome): string[] {
	expect(outcome.error).toBeUndefined();
	return outcome.items.map(
		(item) =>
			`${String(item.json.event)} ${String(item.json.campaignId)} ${String(item.json.phone)}`,
	);
}

/** The SMS requests since `since`, as `GET path dateFrom` lines (the list's only parameter is dateFrom). */
export function smsCalls(sandbox: Sandbox, since: number): string[] {
	return requestsSince(sandbox, since).map(
		(entry) =>
			`${entry.method} ${entry.path}${entry.query.dateFrom ? ` dateFrom=${String(entry.query.dateFrom)}` : ''} ${entry.status}`,
	);
}

export const listCall = (dateFrom: string) => `GET /sms/campaigns/list dateFrom=${dateFrom} 200`;
export const infoCall = (id: string, status = 200) => `GET /sms/campaigns/info/${id} ${status}`;

/** n phones of the form 3806700xxxxx (UA), some ending in 0 (the sandbox does not deliver those). */
export const uaPhones = (count: number, start = 0): string[] =>
	Array.from({ length: count }, (_, index) => `38067${String(start + index).padStart(7, '0')}`);

/** A phone's way through the statuses, in seconds after the send time (null: stays where it is). */
export interface PhoneWay {
	sentAfterSeconds: number | null;
	finalAfterSeconds: number | null;
	final?: 2 | 12;
}

/** Gives a campaign's phones their own timelines (and a forming time) through the sandbox's control API. */
export async function setTimeline(
	sandbox: Sandbox,
	id: string,
	phones: Record<string, PhoneWay>,
	formingSeconds?: number,
) {
	const response = await fetch(`${sandbox.url}/__sandbox/sms/campaigns/${id}/timeline`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ phones, ...(formingSeconds === undefined ? {} : { formingSeconds }) }),
	});
	if (response.status !== 200)
		throw new Error(`timeline ${id} → ${response.status} ${await response.text()}`);
}
