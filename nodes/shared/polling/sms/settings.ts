import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { readAccountTimeZone } from '../../values/account';
import { numberFromText } from '../../values/checks';
import { describeValue } from '../../values/objects';
import { isSmsEvent, type SmsEventType } from '../../records/sms';
import {
	chosenEvents,
	DEFAULT_MAX_EVENTS_PER_POLL,
	readMaxEventsPerPoll,
} from '../../triggerSettings';

export const DEFAULT_SMS_LOOK_BACK_DAYS = 3;
const MAX_SMS_LOOK_BACK_DAYS = 30;

export interface SmsSettings {
	events: SmsEventType[];
	lookBackDays: number;
	includeLookBack: boolean;
	maxEventsPerPoll: number;
	timeZone: string;
}

/**
 * The SMS events' settings, or undefined when no SMS event is chosen. The SMS options are checked whatever is chosen
 * (an SMS Look-Back out of range is refused on an email-only trigger too).
 */
export async function readSmsSettings(context: IPollFunctions): Promise<SmsSettings | undefined> {
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
	const maxEventsPerPoll = readMaxEventsPerPoll(node, options, DEFAULT_MAX_EVENTS_PER_POLL);
	const timeZone = await readAccountTimeZone(context);
	if (events.length === 0) return undefined;
	return {
		events: [...new Set(events)],
		lookBackDays,
		includeLookBack: options.includeSmsLookBack === true,
		maxEventsPerPoll,
		timeZone,
	};
}
