import { randomBytes } from 'node:crypto';

import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

import { invalidInput } from '../values/inputErrors';

/**
 * Each wait's own links. n8n signs a resume link over its path and query only, so a node that waits twice in one
 * execution (a loop: "ask again until approved") would send the same links twice, and round 1's Approve would
 * answer round 2. Every wait therefore draws a random value, puts it in its links (query parameter `w`, covered by
 * the signature) and keeps it in the execution's custom data (`customData`: saved with the execution, readable by
 * the resume webhook). The page answers only a link of the current wait; any other shows "No action required".
 */
export const WAIT_PARAMETER = 'w';

/** The custom data key of a node's current wait: letters, digits and underscores, at most 50 (n8n's rules). */
export function waitKey(nodeId: string): string {
	return `sendAndWait_${nodeId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 50);
}

/**
 * Starts a wait: a new value for this node's links, stored in the execution. n8n keeps at most 10 custom data
 * entries per execution and silently ignores an 11th; the wait is then refused before anything is sent rather
 * than sent with links that could answer a later question.
 */
export function startWait(context: IExecuteFunctions): string {
	const key = waitKey(context.getNode().id);
	const wait = randomBytes(9).toString('base64url');
	context.customData.set(key, wait);
	if (context.customData.get(key) !== wait)
		throw invalidInput(
			context,
			0,
			'Send and Wait',
			'the execution already holds 10 custom data entries, so this wait cannot be stored and its links could answer a later question',
			'Remove custom data entries (Execution Data node) set earlier in this execution.',
		);
	return wait;
}

/**
 * Whether a link belongs to the wait the execution is in now. A link without `w` comes from an execution that
 * started waiting before links carried it (no wait stored either): it is still answered.
 */
export function isCurrentWait(context: IWebhookFunctions, query: Record<string, unknown>): boolean {
	let current: string | undefined;
	try {
		current = context.customData.get(waitKey(context.getNode().id)) as string | undefined;
	} catch {
		current = undefined; // no execution data: nothing stored, only a link without `w` matches
	}
	const given = query[WAIT_PARAMETER];
	return given === undefined ? current === undefined : given === current;
}

/** How long an answer holds its wait against a second answer in this process (see claimAnswer). */
const CLAIM_MS = 60_000;
const claims = new Map<string, number>();

/**
 * Two answers to one wait may arrive at the same moment. n8n then resumes the execution once (the second
 * resumption finds it no longer waiting), but both requests reach the node before that, and the page must be
 * sent before n8n resumes. So this process remembers the waits it has answered for a minute: the second answer
 * arriving here is told the truth ("someone answered first"). An answer arriving at another n8n process (a
 * second webhook processor) cannot be seen; the answered page says so.
 */
export function claimAnswer(context: IWebhookFunctions, wait: unknown, now = Date.now()): boolean {
	const key = `${context.getExecutionId()}/${context.getNode().id}/${String(wait ?? '')}`;
	const claimed = claims.get(key);
	if (claimed !== undefined && now - claimed < CLAIM_MS) return false;
	if (claims.size > 1000)
		for (const [old, at] of claims) if (now - at >= CLAIM_MS) claims.delete(old);
	claims.set(key, now);
	return true;
}
