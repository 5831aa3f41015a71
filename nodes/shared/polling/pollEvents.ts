import { NodeOperationError, type INodeExecutionData, type IPollFunctions } from 'n8n-workflow';

import { emailPoller } from './email/poller';
import { dropHandover, settleHandover } from './handover';
import type { EventPoller, PollOutcome } from './poller';
import { smsPoller } from './sms/poller';

type AnyPoller = EventPoller<unknown, unknown>;

/**
 * The event sources of the polling triggers, each with its own state in the node's static data (poller.ts), in the
 * order they read their settings, poll and sample: SMS delivery events first.
 */
const POLLERS: readonly AnyPoller[] = [smsPoller, emailPoller];
/**
 * The order their states are written, their handovers settled and their items emitted: the reverse, so the SMS
 * state is written last and the email events come first in the output.
 */
const OUTPUT_ORDER: readonly AnyPoller[] = [...POLLERS].reverse();

interface Chosen {
	poller: AnyPoller;
	settings: unknown;
}

/**
 * One poll of the trigger: every poller whose events are chosen polls; only once all succeeded (when the email
 * poll fails, neither state moves) each state is written, and a poller whose events are no longer chosen drops its
 * state. Each state has its own handover (handover.ts), settled once the whole poll succeeded: whether n8n saves a
 * poll depends on whether the poll as a whole emits.
 */
export async function pollMessagingEvents(
	context: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const chosen = await choosePollers(context);
	if (context.getMode() === 'manual') return await sampleMessagingEvents(context, chosen);

	const stored = context.getWorkflowStaticData('node');
	const outcomes = new Map<AnyPoller, PollOutcome<unknown>>();
	for (const { poller, settings } of chosen)
		outcomes.set(poller, await poller.poll(context, stored, settings));
	for (const poller of OUTPUT_ORDER) {
		const outcome = outcomes.get(poller);
		if (outcome) poller.writeState(stored, outcome.state);
		else {
			// Events no longer watched: their state and handover go, so choosing them again starts them from now.
			delete stored[poller.handover.stateKey];
			dropHandover(context, poller.handover);
		}
	}
	const items = OUTPUT_ORDER.flatMap((poller) => outcomes.get(poller)?.items ?? []);
	const emitted = items.length > 0;
	for (const poller of OUTPUT_ORDER) {
		const outcome = outcomes.get(poller);
		if (outcome)
			settleHandover(context, stored, poller.handover, { ownState: outcome.ownState, emitted });
	}
	return emitted ? [items] : null;
}

/** The pollers whose events are chosen, with their settings; every poller's settings are checked before any request. */
async function choosePollers(context: IPollFunctions): Promise<Chosen[]> {
	const chosen: Chosen[] = [];
	for (const poller of POLLERS) {
		const settings = await poller.readSettings(context);
		if (settings !== undefined) chosen.push({ poller, settings });
	}
	if (chosen.length === 0) {
		throw new NodeOperationError(context.getNode(), 'Events: choose at least one event', {
			description: 'The trigger needs at least one event type to watch.',
		});
	}
	return chosen;
}

/**
 * "Fetch Test Event": the most recent events of each chosen source; no state touched. A source's failure fails the
 * fetch unless a source sampled before it has events to show (an empty bounce window, or an inactive email area, is
 * no reason to fail beside SMS statuses); with nothing to show at all, the last source sampled says why.
 */
async function sampleMessagingEvents(
	context: IPollFunctions,
	chosen: Chosen[],
): Promise<INodeExecutionData[][]> {
	const samples = new Map<AnyPoller, INodeExecutionData[]>();
	let nothing: NodeOperationError | undefined;
	for (const { poller, settings } of chosen) {
		const found = [...samples.values()].some((items) => items.length > 0);
		const sample = await poller.sample(context, settings).catch((error: unknown) => {
			if (!found) throw error;
			return undefined;
		});
		if (!sample) continue;
		samples.set(poller, sample.items);
		nothing = sample.nothing;
	}
	const items = OUTPUT_ORDER.flatMap((poller) => samples.get(poller) ?? []);
	if (items.length === 0 && nothing) throw nothing;
	return [items];
}
