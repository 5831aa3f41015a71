import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { checkWholeNumber } from './values/checks';
import { describeValue } from './values/objects';

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

/**
 * The trigger's subtitle: "On SMS Delivered and SMS Not Delivered" (the options' names, not their values).
 */
export function eventsSubtitle(offered: INodePropertyOptions[]): string {
	const names = JSON.stringify(
		Object.fromEntries(offered.map((option) => [String(option.value), option.name])),
	);
	return `={{"On " + [].concat($parameter["events"] || []).map(function (event) { return (${names})[event] || event; }).join(" and ")}}`;
}

/**
 * Refuses an Events value this trigger does not offer (given by an expression or imported JSON): it would otherwise
 * be dropped or, worse, watched by a trigger not made for it. Run where the trigger activates (its first poll,
 * its webhook's registration), so the workflow fails to activate with the setting named.
 */
export function checkChosenEvents(
	node: INode,
	raw: unknown,
	offered: INodePropertyOptions[],
): void {
	const known = new Set(offered.map((option) => option.value));
	const unknown = chosenEvents(raw).filter(
		(event) => typeof event !== 'string' || !known.has(event),
	);
	if (unknown.length === 0) return;
	throw new NodeOperationError(
		node,
		`Events: ${unknown.map((event) => (typeof event === 'string' ? JSON.stringify(event) : describeValue(event))).join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} of this trigger`,
		{
			description: `Choose from: ${offered.map((option) => `${option.name} (${String(option.value)})`).join(', ')}.`,
		},
	);
}
