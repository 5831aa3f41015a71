import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { copyJson } from '../values/objects';

/**
 * n8n 2.x with durable poll cursors (N8N_POLLER_DURABLE_CURSORS_ENABLED) gives a poll a copy of the node's static
 * data and saves it only when the poll emits, or for a scheduled poll that emits nothing; an activation poll that
 * emits nothing is not saved. The first baseline would then be lost, and the first scheduled poll would take a new
 * one, swallowing every event in between. n8n does save the workflow's global static data after activating the
 * workflow (ActiveWorkflowManager.add → WorkflowStaticDataService.saveStaticData) and hands it to every scheduled
 * poll, so a poll without a state of its own hands its state over there, under a key of the state and this node's
 * id, until a poll with a state of its own removes it. Each state the trigger keeps (email events, SMS delivery
 * events) has its own handover.
 */
export interface Handover<S> {
	/** The state's key in the node's static data. */
	stateKey: string;
	/** What the log calls the state's events. */
	label: string;
	/** The state as the node's static data would hold it (under `stateKey`), when it can be continued from. */
	read(stored: IDataObject): S | undefined;
	/** What a state was made for (e.g. the watched events): a handover made for something else is not taken. */
	signature?(state: S): string;
}

/** The handover's key in the workflow's global static data. */
function handoverKey<S>(context: IPollFunctions, handover: Handover<S>): string {
	return `${handover.stateKey}.activation.${context.getNode().id}`;
}

/** For a poll whose node static data holds no state: the state an earlier poll handed over, if it fits. */
export function readHandover<S>(
	context: IPollFunctions,
	handover: Handover<S>,
	signature?: string,
): S | undefined {
	const saved = context.getWorkflowStaticData('global')[handoverKey(context, handover)];
	if (saved === undefined) return undefined;
	const state = handover.read({ [handover.stateKey]: saved } as IDataObject);
	if (state === undefined) return undefined;
	if (handover.signature && handover.signature(state) !== signature) return undefined;
	context.logger.info(
		`${context.getNode().name}: continuing ${handover.label} from the activation poll (n8n did not save its state: durable poll cursors)`,
	);
	return state;
}

/**
 * Once the whole poll succeeded and its state is written to `stored`: a poll that had no state of its own (none in
 * the node's static data, whether or not it took a handover) and emits nothing on a per-poll copy may not be saved,
 * so its state is handed over; any other poll drops a handover left over. `emitted` is the whole poll's: n8n
 * commits every state of the node with an emit.
 */
export function settleHandover<S>(
	context: IPollFunctions,
	stored: IDataObject,
	handover: Handover<S>,
	outcome: { ownState: boolean; emitted: boolean },
): void {
	const global = context.getWorkflowStaticData('global');
	const key = handoverKey(context, handover);
	const state = stored[handover.stateKey];
	// n8n's own static data (observable, saved with the workflow) keeps the state already; a per-poll copy does not.
	const perPollCopy = !('__dataChanged' in stored);
	if (!outcome.ownState && !outcome.emitted && perPollCopy && state !== undefined) {
		global[key] = copyJson(state) as IDataObject;
	} else if (global[key] !== undefined) {
		delete global[key];
	}
}

/** The state is dropped (its events are no longer watched): its handover goes too, so they start from now again. */
export function dropHandover<S>(context: IPollFunctions, handover: Handover<S>): void {
	const global = context.getWorkflowStaticData('global');
	const key = handoverKey(context, handover);
	if (global[key] !== undefined) delete global[key];
}
