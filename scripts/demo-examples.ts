/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { withFreshWebhookIds } from './n8n/webhook-ids';
import { WEBHOOK_PATH } from '../nodes/MessagingEmailTrigger/secret';

/** What the examples' sticky notes write where the sandbox's address goes; `npm start` puts the real one there. */
export const SANDBOX_URL_MARK = 'SANDBOX_URL';
const EMAIL_TRIGGER = 'n8n-nodes-messaging.messagingEmailTrigger';

type ExampleNode = { type: string; webhookId?: string; parameters?: Record<string, unknown> };
type Example = { name?: string; nodes?: ExampleNode[] };

/**
 * Every example workflow as `npm start` imports it: each webhook trigger with a fresh secret id, and the sticky
 * notes' SANDBOX_URL replaced by the sandbox's address (left as it is without a sandbox: the live service).
 */
export function demoExamples(folder: string, sandboxUrl?: string): object[] {
	return readdirSync(folder)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const workflow = withFreshWebhookIds(
				JSON.parse(readFileSync(join(folder, name), 'utf8')) as Example,
			);
			if (!sandboxUrl) return workflow;
			return {
				...workflow,
				nodes: workflow.nodes?.map((node) =>
					node.type === 'n8n-nodes-base.stickyNote' && typeof node.parameters?.content === 'string'
						? {
								...node,
								parameters: {
									...node.parameters,
									content: node.parameters.content.split(SANDBOX_URL_MARK).join(sandboxUrl),
								},
							}
						: node,
				),
			};
		});
}

/**
 * The handler the user would paste in the service's settings for the imported email-events trigger: its Production
 * URL under `webhookBaseUrl` (n8n's `/webhook/` address) and the kinds the trigger ticks.
 */
export function emailEventsHandler(
	workflows: object[],
	webhookBaseUrl: string,
): { url: string; events: string[] } | undefined {
	for (const workflow of workflows as Example[]) {
		const trigger = workflow.nodes?.find((node) => node.type === EMAIL_TRIGGER && node.webhookId);
		if (!trigger) continue;
		const events = trigger.parameters?.events;
		return {
			url: `${webhookBaseUrl}/${trigger.webhookId}/${WEBHOOK_PATH}`,
			events: Array.isArray(events) ? events.map(String) : [],
		};
	}
	return undefined;
}

/** Registers that handler with the sandbox (the control route a user's settings page stands for). */
export async function registerEmailEventsHandler(
	sandboxUrl: string,
	workflows: object[],
	webhookBaseUrl: string,
): Promise<string | undefined> {
	const handler = emailEventsHandler(workflows, webhookBaseUrl);
	if (!handler) return undefined;
	const response = await fetch(`${sandboxUrl}/__sandbox/email/webhooks`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(handler.events.length ? handler : { url: handler.url }),
	});
	if (!response.ok)
		throw new Error(`Registering the demo's webhook handler failed: ${await response.text()}`);
	return handler.url;
}
