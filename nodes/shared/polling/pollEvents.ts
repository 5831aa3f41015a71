import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { chosenEvents, DEFAULT_MAX_EVENTS_PER_POLL } from '../triggerSettings';
import { emailHandover, pollEmail } from './email/poller';
import { sampleEmail } from './email/sample';
import { STATE_KEY } from './email/state';
import { dropHandover, settleHandover } from './handover';
import { pollSms, readSmsSettings, sampleSms, smsHandover, type SmsSettings } from './sms/poller';
import { SMS_STATE_KEY, writeSmsState } from './sms/state';
import { smsEventOptions } from './sms/fields';
import type { SmsEventType } from '../records/sms';

/**
 * Email events (bounce, unsubscribe) and SMS delivery events are two pollers with their own state. The SMS poll
 * runs first and its state is written last: when the email poll fails, neither state moves. Each state has its own
 * handover (handover.ts), settled once the whole poll succeeded: whether n8n saves a poll depends on whether the
 * poll as a whole emits.
 */
export async function pollMessagingEvents(
	context: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const watchesEmail = chosenEvents(context.getNodeParameter('events', [])).some(
		(event) => event === 'bounce' || event === 'unsubscribe',
	);
	const sms = await readSmsSettings(context, DEFAULT_MAX_EVENTS_PER_POLL);
	if (!watchesEmail && sms.events.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Events: choose at least one event', {
			description: 'The trigger needs at least one event type to watch.',
		});
	}
	if (context.getMode() === 'manual')
		return await sampleMessagingEvents(context, watchesEmail, sms);

	const stored = context.getWorkflowStaticData('node');
	const smsPoll = sms.events.length > 0 ? await pollSms(context, stored, sms) : undefined;
	const emailPoll = watchesEmail ? await pollEmail(context, stored) : undefined;
	// Events no longer watched: their state and handover go, so choosing them again starts them from now.
	if (!emailPoll) {
		delete stored[STATE_KEY];
		dropHandover(context, emailHandover);
	}
	if (smsPoll) writeSmsState(stored, smsPoll.state);
	else {
		delete stored[SMS_STATE_KEY];
		dropHandover(context, smsHandover);
	}
	const items = [...(emailPoll?.items ?? []), ...(smsPoll?.items ?? [])];
	const emitted = items.length > 0;
	if (emailPoll)
		settleHandover(context, stored, emailHandover, { ownState: emailPoll.ownState, emitted });
	if (smsPoll)
		settleHandover(context, stored, smsHandover, { ownState: smsPoll.ownState, emitted });
	return emitted ? [items] : null;
}

/** "Fetch Test Event": the most recent events of each watched kind; no state touched. */
async function sampleMessagingEvents(
	context: IPollFunctions,
	watchesEmail: boolean,
	sms: SmsSettings,
): Promise<INodeExecutionData[][]> {
	if (sms.events.length === 0) return await sampleEmail(context);
	const { items: smsItems, notChosen } = await sampleSms(context, sms);
	let emailItems: INodeExecutionData[] = [];
	if (watchesEmail) {
		const email = await sampleEmail(context).then(
			(result) => ({ items: result[0] ?? [] }),
			(error: unknown) => ({ error }),
		);
		// With SMS events to show, an empty bounce window (or an inactive email area) is no reason to fail.
		if ('error' in email && smsItems.length === 0) throw email.error;
		if ('items' in email) emailItems = email.items;
	}
	if (emailItems.length + smsItems.length === 0) throw noSmsSample(context, sms, notChosen);
	return [[...emailItems, ...smsItems]];
}

const smsEventName = (event: SmsEventType) =>
	smsEventOptions.find((option) => option.value === event)?.name ?? event;

/**
 * Fetch Test Event found nothing to show: say whether the recent campaigns hold no statuses yet, or hold statuses
 * of events not chosen (a user watching "Not delivered" while every phone was delivered).
 */
function noSmsSample(
	context: IPollFunctions,
	sms: SmsSettings,
	notChosen: Partial<Record<SmsEventType, number>>,
): NodeOperationError {
	const others = (Object.entries(notChosen) as Array<[SmsEventType, number]>).map(
		([event, count]) => `${count} ${smsEventName(event)}`,
	);
	const chosen = sms.events.map(smsEventName).join(' or ');
	if (others.length === 0) {
		return new NodeOperationError(
			context.getNode(),
			`No SMS delivery statuses in the campaigns of the last ${sms.lookBackDays} days`,
			{
				description:
					'Send an SMS campaign (Messaging SMS → Campaign → Send to Numbers) and fetch again once its send time has passed.',
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`No ${chosen} status in the campaigns of the last ${sms.lookBackDays} days; their phones reached other statuses (${others.join(', ')})`,
		{
			description: `The trigger is working: none of the recent phones reached a chosen event yet. Fetch again once one does, or add the other events to Events to see a sample.`,
		},
	);
}
