import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type INodeProperties,
} from 'n8n-workflow';

import { checkWholeNumber } from './fields';
import { describeValue } from './objects';
import { assertTimeZone } from './serviceTime';

/**
 * Settings of the three triggers. They are read without input items (at activation, per poll or per posted
 * batch), so an error names the setting only; each check is here once for all three.
 */

/** Events one poll emits at most when the option is not set (email events and SMS events each). */
export const DEFAULT_MAX_EVENTS_PER_POLL = 1000;

export const maxEventsPerPollOption: INodeProperties = {
	displayName: 'Max Events per Poll',
	name: 'maxEventsPerPoll',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_MAX_EVENTS_PER_POLL,
	description:
		'Most events one poll emits (email events and SMS events each); the rest follow in the next polls, none is skipped',
};

export const serviceTimeZoneOption: INodeProperties = {
	displayName: 'Service Time Zone',
	name: 'serviceTimeZone',
	type: 'string',
	default: 'UTC',
	placeholder: 'Europe/Berlin',
	description:
		"Time zone of your account on the service (IANA name). The service gives times without a zone, in the account's zone; the trigger reads them in this zone for the ISO times, for which day's unsubscribes to read and for which SMS campaigns are due.",
};

const ZONE_HINT =
	'Use an IANA zone name such as UTC or Europe/Berlin: the zone of your account on the service.';

/** Service Time Zone (Options), UTC when empty. */
export function readServiceTimeZone(node: INode, options: IDataObject): string {
	const given = options.serviceTimeZone ?? '';
	if (typeof given !== 'string')
		throw new NodeOperationError(
			node,
			`Service Time Zone: must be text, but the value is ${describeValue(given)}`,
			{ description: ZONE_HINT },
		);
	const timeZone = given.trim() || 'UTC';
	try {
		assertTimeZone(timeZone);
	} catch {
		throw new NodeOperationError(node, `Service Time Zone: "${timeZone}" is not a time zone name`, {
			description: ZONE_HINT,
		});
	}
	return timeZone;
}

/** Max Events per Poll (Options): a whole number of at least 1. */
export function readMaxEventsPerPoll(
	node: INode,
	options: IDataObject,
	defaultValue: number,
): number {
	return checkWholeNumber(
		options.maxEventsPerPoll ?? defaultValue,
		{ min: 1 },
		(problem) => new NodeOperationError(node, `Max Events per Poll: ${problem}`),
	);
}

/** The Events setting as a list (an expression may give one value). */
export const chosenEvents = (raw: unknown): unknown[] => ([] as unknown[]).concat(raw ?? []);
