/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createHmac } from 'node:crypto';

import { Container } from '@n8n/di';
import { InstanceSettings, WorkflowExecute } from 'n8n-core';
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { WebhookHarness } from '../harness/webhook-harness';
import type { RunNodeResult } from '../harness/run-node';

/** Email → Send and Wait for Response at its smallest: the sandbox's sender asks Ann "Refund?" (approval, default). */
export const REFUND_EMAIL: INodeParameters = {
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: 'sender@sandbox.test',
	to: 'ann@example.com',
	subject: 'Refund',
	message: 'Refund?',
};

/** The resume URL n8n-core signs for the test run's node (HMAC-SHA256 of path and query, n8n's secret). */
export function signedUrl(executionId: string, query: Record<string, string> = {}): string {
	const url = new URL(`http://127.0.0.1:5678/webhook-waiting//${executionId}/subject`);
	for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
	const secret = Container.get(InstanceSettings).hmacSignatureSecret;
	const signature = createHmac('sha256', secret)
		.update(`${url.pathname}${url.search}`)
		.digest('hex');
	url.searchParams.set('signature', signature);
	return url.toString();
}

/** The execution id of a run (runNode counts them). */
export function executionIdOf(result: RunNodeResult): string {
	return String((result.additionalData as unknown as { executionId: string }).executionId);
}

/** The value of the run's current wait, stored in its custom data; its links carry it as `w` (wait.ts). */
export function waitOf(result: RunNodeResult): string {
	const stored = result.run.data.resultData.metadata?.sendAndWait_subject;
	expect(stored).toMatch(/^[A-Za-z0-9_-]{12}$/);
	return String(stored);
}

/** What n8n's wait tracker does when the wait limit passes: runs the waiting execution on. */
export async function resumeAfterTimeout(result: RunNodeResult) {
	const run = await new WorkflowExecute(
		result.additionalData,
		'manual',
		result.run.data,
	).processRunExecutionData(result.workflow);
	return { run, items: run.data.resultData.runData.Node?.at(-1)?.data?.main?.[0] ?? [] };
}

/** The links (href values, unescaped) of an HTML document. */
export function hrefs(html: string): string[] {
	return [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
}

let pageExecutions = 0;

/** A resume webhook served over real HTTP, and how to request its page. */
export type PageServer = Awaited<ReturnType<typeof pageServer>>;

/**
 * For a test file: `servePage(...)` serves the node's resume webhook (pageServer's arguments); every server it
 * opened is closed after the file's tests.
 */
export function usePageServers(): typeof pageServer {
	const servers: PageServer[] = [];
	afterAll(
		async () => await Promise.all(servers.map(async (server) => await server.harness.close())),
	);
	return async (...args) => {
		const server = await pageServer(...args);
		servers.push(server);
		return server;
	};
}

/** Serves the node's resume webhook over real HTTP with the given parameters (n8n's signature check is n8n's). */
async function pageServer(
	nodeType: INodeType,
	nodeTypeName: string,
	parameters: INodeParameters,
	/** The waiting run the page belongs to (its stored execution: the current wait); undefined: none. */
	waiting?: RunNodeResult,
) {
	const harness = await new WebhookHarness({
		nodeType,
		nodeTypeName,
		parameters,
		webhookId: 'resume',
		// Each page server is its own waiting execution (an answer claims its wait for a minute, see wait.ts).
		executionId: `page-${++pageExecutions}`,
		...(waiting
			? {
					runExecutionData: waiting.run.data,
					nodeId: 'subject',
					executionId: executionIdOf(waiting),
				}
			: {}),
	}).listen();
	const request = async (method: 'GET' | 'HEAD' | 'POST', query = '', form?: string) => {
		const before = harness.hits.length;
		const response = await fetch(`${harness.url}/webhook-waiting/1/subject${query}`, {
			method,
			headers: form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: form,
		});
		const text = await response.text();
		const hit = harness.hits[before];
		return {
			status: response.status,
			text,
			headers: response.headers,
			/** The items n8n would resume the execution with (undefined: it goes on waiting). */
			items: hit?.items,
		};
	};
	return { harness, request };
}
