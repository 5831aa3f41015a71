import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingEmailTrigger } from '../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node';
import { forgetAllRepeats } from '../../nodes/MessagingEmailTrigger/dedupe';
import { CredentialStore } from '../harness/credentials';
import { WebhookHarness } from '../harness/webhook-harness';

export const trigger = new MessagingEmailTrigger();
export const NODE_TYPE = 'n8n-nodes-messaging.messagingEmailTrigger';

/** A harness serving the trigger with these parameters (all events by default) and a fresh random id. */
export async function startTrigger(
	parameters: INodeParameters = {},
	options: { webhookId?: string | null; timeZone?: string } = {},
): Promise<WebhookHarness> {
	forgetAllRepeats();
	const webhookId = options.webhookId === null ? undefined : (options.webhookId ?? randomUUID());
	return await new WebhookHarness({
		nodeType: trigger,
		nodeTypeName: NODE_TYPE,
		parameters: { events: trigger.description.properties[1].default, ...parameters },
		webhookId,
		// The credential is optional on this node; a test that gives Account Time Zone gets one.
		...(options.timeZone === undefined
			? {}
			: { credentials: new CredentialStore({ apiKey: 'unused', timeZone: options.timeZone }) }),
	}).listen();
}

/** The production path of a harness (what n8n's panel shows, without the host). */
export const productionPath = (harness: WebhookHarness) =>
	new URL(harness.productionUrl()).pathname;

export const jsonItems = (harness: WebhookHarness): IDataObject[] =>
	harness.emitted().map((item) => item.json);
