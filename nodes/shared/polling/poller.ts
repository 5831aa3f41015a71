import type {
	IDataObject,
	INodeExecutionData,
	IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';

import type { Handover } from './handover';

/**
 * The one contract of an event source of the polling triggers (email events, SMS delivery events): pollEvents.ts
 * loops over the pollers, so a new source is one more `EventPoller` in its own folder. Its members are methods so
 * that pollers of different settings and states share one list.
 */
export interface EventPoller<Settings, State> {
	/**
	 * The source's settings from the node's parameters, or undefined when none of its events is chosen. Refuses a
	 * bad option (naming the parameter) before any request of the poll.
	 */
	readSettings(context: IPollFunctions): Promise<Settings | undefined>;
	/**
	 * One scheduled (or activation) poll. Writes nothing: the caller writes `state` once every poller succeeded, so
	 * a failed poll repeats, it never skips.
	 */
	poll(
		context: IPollFunctions,
		stored: IDataObject,
		settings: Settings,
	): Promise<PollOutcome<State>>;
	/** Writes the state a poll returned into the node's static data (under `handover.stateKey`). */
	writeState(stored: IDataObject, state: State): void;
	/** "Fetch Test Event": the most recent events of the chosen kinds; no state touched. */
	sample(context: IPollFunctions, settings: Settings): Promise<PollSample>;
	/** The state's key in the node's static data and its handover (handover.ts). */
	handover: Handover<unknown>;
}

export interface PollOutcome<State> {
	items: INodeExecutionData[];
	/** To be written (`writeState`) only once the whole poll succeeded. */
	state: State;
	/** The node's static data held a state of this source (for settleHandover, once the whole poll is known). */
	ownState: boolean;
}

export interface PollSample {
	items: INodeExecutionData[];
	/** What Fetch Test Event says when no chosen source has anything to show. */
	nothing: NodeOperationError;
}
