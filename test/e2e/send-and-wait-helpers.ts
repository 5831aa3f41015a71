import type { OutboxMessage } from '../../sandbox/outbox';
import type { N8nInstance } from '../../scripts/n8n/instance';
import { waitFor, type ApiExecution } from './helpers';

/**
 * Driving Send and Wait in a running n8n from outside, as a recipient does: start the workflow through its
 * webhook, read the message from the sandbox's outbox, open or answer its link, and follow the execution through
 * n8n's public API. Used by send-and-wait.e2e.ts and ai-agent.e2e.ts.
 */

/** Every message the sandbox has sent (email and SMS), with the links found in each. */
export async function outboxOf(sandboxUrl: string): Promise<OutboxMessage[]> {
	return (await (await fetch(`${sandboxUrl}/__sandbox/outbox`)).json()) as OutboxMessage[];
}

/** Tells outbox messages apart across two reads (the outbox's times have whole seconds). */
export const outboxKey = (message: OutboxMessage) => `${message.kind} ${message.id}`;

/** The execution a Send and Wait link answers: n8n's waiting links are `/webhook-waiting/<execution id>/…`. */
export const executionIdOf = (link: string) => new URL(link).pathname.split('/')[2];

/**
 * POSTs `body` as JSON to a published workflow's webhook and expects 200. n8n answers REST before it has registered
 * every published workflow's webhook: 404 until then, so a 404 is asked again (for up to 60 s).
 */
export async function postToWebhook(
	n8n: N8nInstance,
	path: string,
	body: unknown,
	what: string,
): Promise<void> {
	await waitFor(
		what,
		async () => {
			const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (response.status === 404) return undefined;
			expect(response.status).toBe(200);
			return true;
		},
		60_000,
		500,
	);
}

/** One execution with its data, through n8n's public API. */
export async function executionOf(n8n: N8nInstance, id: string): Promise<ApiExecution> {
	return (await n8n.api('GET', `/executions/${id}?includeData=true`)) as ApiExecution;
}

/** Resolves once the execution is saved as waiting (for up to 30 s). */
export async function untilWaiting(n8n: N8nInstance, id: string, what: string): Promise<void> {
	await waitFor(
		what,
		async () => ((await executionOf(n8n, id)).status === 'waiting' ? true : undefined),
		30_000,
		250,
	);
}

/** The execution once it has finished or failed (for up to 90 s). */
export async function finishedExecution(n8n: N8nInstance, id: string): Promise<ApiExecution> {
	return await waitFor(
		`execution ${id} to finish`,
		async () => {
			const run = await executionOf(n8n, id);
			return run.finished || run.status === 'error' ? run : undefined;
		},
		90_000,
		500,
	);
}

/** The items a node gave in its last run of an execution. */
export const lastItemsOf = (run: ApiExecution, node: string) =>
	(run.data?.resultData.runData[node]?.at(-1)?.data?.main[0] ?? []).map((item) => item.json);

/**
 * A Send and Wait page as a recipient's client reaches it: GET (or HEAD) opens it, POST with a form body
 * (`approved=true`, `field-0=…`) answers it. Redirects are not followed, so a redirect shows as its own status.
 */
export async function requestPage(
	url: string,
	method: 'GET' | 'HEAD' | 'POST' = 'GET',
	form?: string,
) {
	const response = await fetch(url, {
		method,
		redirect: 'manual',
		headers: form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: form,
	});
	return { status: response.status, text: await response.text(), headers: response.headers };
}
