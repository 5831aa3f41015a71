import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IPollFunctions,
} from 'n8n-workflow';

import { apiPath, type MessagingClient } from '../shared/transport/client';
import { phoneInfo, type SmsEventType } from '../shared/records/sms';
import { LEVEL, isFinalLevel, type Level } from './smsState';
import { isRecord } from '../shared/objects';

function unreadable(
	context: IPollFunctions,
	client: MessagingClient,
	what: string,
	body: unknown,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Unexpected answer from ${what}`, {
		description: `The service answered: ${client.quoteAnswer(body)}`,
	});
}

/** GET /sms/campaigns/list?dateFrom=…: the campaigns created since `dateFrom` (`{result, data: […]}`). */
export async function listCampaigns(
	context: IPollFunctions,
	client: MessagingClient,
	dateFrom: string,
): Promise<IDataObject[]> {
	const body = await client.request<unknown>({
		method: 'GET',
		path: '/sms/campaigns/list',
		query: { dateFrom },
	});
	const list = Array.isArray(body) ? body : isRecord(body) ? body.data : undefined;
	if (!Array.isArray(list) || !list.every(isRecord))
		throw unreadable(context, client, 'GET /sms/campaigns/list: no list of campaigns in it', body);
	return list;
}

/**
 * GET /sms/campaigns/info/{id}: the campaign with its phones (`[{result, data}]` or bare). `gone` when the service
 * no longer knows the campaign (deleted meanwhile).
 */
export async function readCampaign(
	context: IPollFunctions,
	client: MessagingClient,
	id: string,
): Promise<IDataObject | 'gone'> {
	// The client's errors are NodeApiError/NodeOperationError already: only "not found" is an answer here.
	const answer = await client
		.request<unknown>({
			method: 'GET',
			path: apiPath`/sms/campaigns/info/${id}`,
			unwrapSingle: true,
		})
		.then(
			(body) => ({ body }),
			(error: unknown) => ({ error }),
		);
	if ('error' in answer) {
		if (answer.error instanceof NodeApiError && answer.error.httpCode === '404') return 'gone';
		throw answer.error;
	}
	const body = answer.body;
	const detail = isRecord(body) && isRecord(body.data) ? body.data : body;
	if (!isRecord(detail) || !Array.isArray(detail.task_phones_info))
		throw unreadable(context, client, `GET /sms/campaigns/info/${id}: no phones in it`, body);
	return detail;
}

export interface CampaignPhone {
	phone: string;
	status?: number;
	cancelled: boolean;
	raw: IDataObject;
}

/** The campaign's phones sorted by number (the order levels are stored in), whatever order the service used. */
export function sortedPhones(detail: IDataObject): CampaignPhone[] {
	return (detail.task_phones_info as unknown[])
		.filter(isRecord)
		.map((raw, index) => {
			const info = phoneInfo(raw);
			return {
				index,
				phone: String(info.phone),
				status: typeof info.status === 'number' ? info.status : undefined,
				// A cancelled campaign keeps its phones at 0 "Ready to send" and says so only in status_explain.
				cancelled: /cancel/i.test(String(raw.status_explain ?? '')),
				raw,
			};
		})
		.sort((a, b) => (a.phone < b.phone ? -1 : a.phone > b.phone ? 1 : a.index - b.index))
		.map(({ index: _index, ...phone }) => phone);
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
