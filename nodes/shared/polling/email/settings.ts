import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

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

export async function readEmailSettings(context: IPollFunctions): Promise<EmailSettings> {
	const node = context.getNode();
	const events = chosenEvents(context.getNodeParameter('events', [])).filter(
		(event): event is EventType => event === 'bounce' || event === 'unsubscribe',
	);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Events: choose Bounce, Unsubscribe or both', {
			description: 'The trigger needs at least one event type to watch.',
		});
	}
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
