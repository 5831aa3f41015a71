import { randomUUID } from 'node:crypto';

/** Node types of the examples that n8n serves at `/webhook/<webhookId>/…`, the id being their secret. */
const SECRET_URL_NODE_TYPES = new Set([
	'n8n-nodes-messaging.messagingEmailTrigger',
	'@n8n/n8n-nodes-langchain.chatTrigger',
]);

/**
 * n8n's CLI import (`n8n import:workflow`, services/import.service.js) gives nodes an `id` but no `webhookId`;
 * the editor gives one only in memory when it opens such a workflow (not saved, so publishing fails and the URL
 * shown changes). The examples ship without one, so that no two users share a secret URL: the demo gives each
 * webhook node lacking one a fresh random id (UUID v4, as n8n's editor and REST API do) before it imports them.
 */
export function withFreshWebhookIds<T extends object>(workflow: T): T {
	const nodes = (workflow as { nodes?: Array<Record<string, unknown>> }).nodes;
	if (!nodes) return workflow;
	return {
		...workflow,
		nodes: nodes.map((node) =>
			SECRET_URL_NODE_TYPES.has(String(node.type)) && !node.webhookId
				? { ...node, webhookId: randomUUID() }
				: node,
		),
	};
}
