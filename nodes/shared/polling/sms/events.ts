import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { apiPath, type MessagingClient } from '../../transport/client';
import { RATE_LIMIT_ERROR_CODE } from '../../transport/errors';
import { campaignDetailIn, dataList, type SmsEventType } from '../../records/sms';
import { serviceNumber } from '../../records/values';
import { phoneToString } from '../../values/phones';
import { LEVEL, isFinalLevel, type Level } from './state';

/** GET /sms/campaigns/list?dateFrom=…: the campaigns created since `dateFrom` (`{result, data: […]}`). */
export async function listCampaigns(
	client: MessagingClient,
	dateFrom: string,
): Promise<IDataObject[]> {
	return await client.requestList(
		{ method: 'GET', path: '/sms/campaigns/list', query: { dateFrom } },
		dataList,
	);
}

/** GET /sms/campaigns/info/{id}: the campaign with its phones (`[{result, data}]` or bare). */
export async function readCampaign(client: MessagingClient, id: string): Promise<IDataObject> {
	return await client.requestValue(
		{ method: 'GET', path: apiPath`/sms/campaigns/info/${id}`, unwrapSingle: true },
		'campaign with its phones',
		campaignDetailIn,
	);
}

/**
 * What a failed read of one campaign's details means for the poll:
 * - `fatal`: the credential or the account is refused (401, 403), or not an answer at all: the poll fails;
 * - `stop`: the service is out of reach or still rate-limits after the client's retries: the campaigns not read yet
 *   wait for the next poll;
 * - `notFound`: 404, from the service ("Campaign not found") or from a proxy's page: deleted, or a failed read;
 * - `campaign`: anything else (5xx after retries, an answer without the campaign): this campaign only.
 */
export function readFailure(error: unknown): 'fatal' | 'stop' | 'notFound' | 'campaign' {
	if (!(error instanceof NodeApiError)) return 'fatal';
	const status = error.httpCode;
	if (status === '401' || status === '403') return 'fatal';
	if (
		!status ||
		status === '429' ||
		Number(error.context.serviceErrorCode) === RATE_LIMIT_ERROR_CODE
	)
		return 'stop';
	return status === '404' ? 'notFound' : 'campaign';
}

export interface CampaignPhone {
	phone: string;
	status?: number;
	/** Left at 0 for good: the service says the campaign was cancelled, or it never started (see the poller). */
	cancelled: boolean;
	raw: IDataObject;
}

/**
 * The campaign's phones sorted by number (the order levels are stored in), whatever order the service used. Only
 * what a poll needs of each phone is read here (its number, its status, whether it says cancelled): a poll goes
 * through every phone of a campaign still delivering, and copying each record would cost as much as parsing the
 * answer (an emitted phone's record is read in full by smsOutput). A list already in order is not sorted again.
 */
export function sortedPhones(detail: IDataObject): CampaignPhone[] {
	// campaignDetailIn let only a list of records through.
	const phones = (detail.task_phones_info as IDataObject[]).map((raw): CampaignPhone => ({
		phone: phoneToString(raw.phone),
		status: serviceNumber(raw.status),
		// A cancelled campaign keeps its phones at 0 "Ready to send" and says so only in status_explain.
		cancelled: /cancel/i.test(String(raw.status_explain ?? '')),
		raw,
	}));
	for (let index = 1; index < phones.length; index++) {
		if (phones[index - 1].phone > phones[index].phone)
			// Array.prototype.sort is stable: equal numbers keep the service's order.
			return phones.sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : 0));
	}
	return phones;
}

export interface Step {
	level: Level;
	/** The event this step emits, if any. */
	event?: SmsEventType;
}

/**
 * The steps from the last handled level to what the service shows now. A final status implies "sent" (a phone
 * can go 0 → 2 between two polls); a final level never changes again.
 */
export function stepsTo(current: string, phone: CampaignPhone): Step[] {
	if (isFinalLevel(current)) return [];
	const sent: Step[] = current === LEVEL.none ? [{ level: LEVEL.sent, event: 'smsSent' }] : [];
	switch (phone.status) {
		case 1:
			return sent;
		case 2:
			return [...sent, { level: LEVEL.delivered, event: 'smsDelivered' }];
		case 12:
			return [...sent, { level: LEVEL.notDelivered, event: 'smsNotDelivered' }];
		case 0:
			return phone.cancelled && current === LEVEL.none ? [{ level: LEVEL.closed }] : [];
		default:
			// Codes the reference does not list: nothing to emit; the campaign is followed until the look-back ends.
			return [];
	}
}

/** The event the phone's current status stands for ("Fetch Test Event" shows statuses as they are). */
export function currentEvent(phone: CampaignPhone): SmsEventType | undefined {
	return phone.status === 1
		? 'smsSent'
		: phone.status === 2
			? 'smsDelivered'
			: phone.status === 12
				? 'smsNotDelivered'
				: undefined;
}
