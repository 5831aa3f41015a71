import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { describeValue } from './parameters';
import { assertTimeZone } from './serviceTime';

/**
 * Settings of the three triggers. They are read without input items (at activation, per poll or per posted
 * batch), so an error names the setting only; each check is here once for all three.
 */

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
	const maxEventsPerPoll = Number(options.maxEventsPerPoll ?? defaultValue);
	if (!Number.isInteger(maxEventsPerPoll) || maxEventsPerPoll < 1) {
		throw new NodeOperationError(
			node,
			`Max Events per Poll: must be a whole number of at least 1, not ${String(options.maxEventsPerPoll)}`,
		);
	}
	return maxEventsPerPoll;
}

/** The Events setting as a list (an expression may give one value). */
export const chosenEvents = (raw: unknown): unknown[] => ([] as unknown[]).concat(raw ?? []);
