import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readAccountTimeZone } from '../../values/account';
import {
	chosenEvents,
	DEFAULT_MAX_EVENTS_PER_POLL,
	readMaxEventsPerPoll,
} from '../../triggerSettings';
import type { EventType } from './state';

export interface EmailSettings {
	events: EventType[];
	includeLast24Hours: boolean;
	maxEventsPerPoll: number;
	timeZone: string;
}

/** The email events' settings, or undefined when neither Bounce nor Unsubscribe is chosen. */
export async function readEmailSettings(
	context: IPollFunctions,
): Promise<EmailSettings | undefined> {
	const node = context.getNode();
	const events = chosenEvents(context.getNodeParameter('events', [])).filter(
		(event): event is EventType => event === 'bounce' || event === 'unsubscribe',
	);
	if (events.length === 0) return undefined;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const timeZone = await readAccountTimeZone(context);
	const maxEventsPerPoll = readMaxEventsPerPoll(node, options, DEFAULT_MAX_EVENTS_PER_POLL);
	return {
		events: [...new Set(events)].sort(),
		includeLast24Hours: options.includeLast24Hours === true,
		maxEventsPerPoll,
		timeZone,
	};
}
