import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { clientForPoll } from '../pollClient';
import { smsOutput, type SmsEventType } from '../../records/sms';
import { DAY_MS, dateToServiceTime } from '../../values/serviceTime';
import type { PollSample } from '../poller';
import { SAMPLE_SIZE } from '../pollRun';
import { currentEvent, listCampaigns, readCampaign, readFailure, sortedPhones } from './events';
import { smsEventOptions } from './fields';
import type { SmsSettings } from './settings';

/** Campaigns Fetch Test Event reads at the most. */
const SAMPLE_CAMPAIGNS = 5;

/**
 * "Fetch Test Event" for the SMS events: the statuses of the newest campaigns whose send date has passed; no state
 * touched. With nothing to show, `nothing` says whether they hold statuses of events not chosen.
 */
export async function sampleSms(
	context: IPollFunctions,
	settings: SmsSettings,
): Promise<PollSample> {
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
	const notChosen: NotChosen = {};
	campaigns: for (const campaign of newest) {
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
			if (items.length >= SAMPLE_SIZE) break campaigns;
		}
	}
	return { items, nothing: noSmsSample(context, settings, notChosen) };
}

/** How many statuses of events not chosen the sample passed over (for its empty message). */
type NotChosen = Partial<Record<SmsEventType, number>>;

const smsEventName = (event: SmsEventType) =>
	smsEventOptions.find((option) => option.value === event)?.name ?? event;

/**
 * Fetch Test Event found nothing to show: say whether the recent campaigns hold no statuses yet, or hold statuses
 * of events not chosen (a user watching "Not delivered" while every phone was delivered).
 */
function noSmsSample(
	context: IPollFunctions,
	settings: SmsSettings,
	notChosen: NotChosen,
): NodeOperationError {
	const others = (Object.entries(notChosen) as Array<[SmsEventType, number]>).map(
		([event, count]) => `${count} ${smsEventName(event)}`,
	);
	const chosen = settings.events.map(smsEventName).join(' or ');
	if (others.length === 0) {
		return new NodeOperationError(
			context.getNode(),
			`No SMS delivery statuses in the campaigns of the last ${settings.lookBackDays} days`,
			{
				description:
					'Send an SMS campaign (Messaging SMS → Campaign → Send to Numbers) and fetch again once its send time has passed.',
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`No ${chosen} status in the campaigns of the last ${settings.lookBackDays} days; their phones reached other statuses (${others.join(', ')})`,
		{
			description: `The trigger is working: none of the recent phones reached a chosen event yet. Fetch again once one does, or add the other events to Events to see a sample.`,
		},
	);
}
