import type { IPollFunctions } from 'n8n-workflow';

/** What the email and SMS pollers share about one poll: how long it may fetch, and how it warns. */

/** Share of n8n's poll budget spent fetching before the poll returns what it has. */
const BUDGET_SHARE = 0.8;
/** Events "Fetch Test Event" shows per kind. */
export const SAMPLE_SIZE = 5;
/** n8n versions that give no poll budget. */
const DEFAULT_BUDGET_MS = 5 * 60_000;

/** When this poll stops fetching (ms on `Date.now()`'s clock). */
export function pollDeadline(context: IPollFunctions, startedAt: number): number {
	const budget =
		typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	return startedAt + Math.max(1000, budget * BUDGET_SHARE);
}

/** A warning goes to n8n's log (with the node and workflow) and into `warnings`, which the poll keeps. */
export function pollWarner(context: IPollFunctions, warnings: string[]) {
	const node = context.getNode().name;
	return (message: string) => {
		context.logger.warn(`${node}: ${message}`, { node, workflowId: context.getWorkflow().id });
		warnings.push(message);
	};
}
