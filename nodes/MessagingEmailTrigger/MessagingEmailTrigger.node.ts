import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	canonicalWebhookKind,
	isClickWithoutLink,
	isWebhookKind,
	webhookEventOutput,
} from '../shared/records/emailEvents';
import { readAccountTimeZone } from '../shared/values/account';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';
import { chosenEvents } from '../shared/triggerSettings';
import { isRecord } from '../shared/values/objects';
import { readBatch } from './body';
import { RepeatMemory, eventKey } from './dedupe';
import { WEBHOOK_PATH, secretMatches, secretOfRequestPath } from './secret';

/** The Events choices: the settings page's nine, plus kinds this package does not know. */
const EVENT_OPTIONS = [
	{ name: 'Delivered', value: 'delivered', description: 'The receiving server accepted the email' },
	{ name: 'Not Delivered', value: 'undelivered', description: 'The email could not be delivered' },
	{ name: 'Opened', value: 'opened', description: 'The recipient opened the email (tracking on)' },
	{
		name: 'Link Clicked',
		value: 'clicked',
		description: 'The recipient clicked a link (tracking on)',
	},
	{
		name: 'Marked as Spam',
		value: 'spam_by_user',
		description:
			'The recipient complained; the service also unsubscribes them (event spam_by_user or spam)',
	},
	{
		name: 'Unsubscribed',
		value: 'unsubscribed',
		description: 'The recipient unsubscribed (the link in the email, or a list header)',
	},
	{
		name: 'Resubscribed',
		value: 'resubscribed',
		description: 'An unsubscribed address was subscribed again',
	},
	{
		name: 'Hard Bounce',
		value: 'hard_bounces',
		description:
			'Delivery failed for good: unknown address or domain (event hard_bounces or hard_bounced)',
	},
	{
		name: 'Soft Bounce',
		value: 'soft_bounces',
		description:
			'Delivery failed for now: mailbox full, server busy (event soft_bounces or soft_bounced)',
	},
	{
		name: 'Other Kinds',
		value: 'other',
		description: 'Events of a kind this node does not know, passed on as they are',
	},
];

// n8n's notice keeps only <a>, <ul> and <li> (its HTML sanitiser), so the steps are list items (their bullet is the
// only marker).
const SETUP_STEPS = `Set-up (the service has no API for its webhooks):<ul>${[
	'Save the workflow, then copy this node’s Production URL (Webhook URLs, above). Its random part is the secret: share it with nobody.',
	'In the service: Account Settings → API → create webhook, paste the URL as the handler URL.',
	'Tick the events you want there (Delivered, Not delivered, Opened, Link clicked, Marked as spam, Unsubscribed, Resubscribed, Hard bounce, Soft bounce).',
	'Opens and clicks need the account’s tracking on.',
	'Publish (activate) this workflow. Requests without the right URL get 404 and start nothing; each batch is answered with what became of its entries (emitted, kind not chosen, repeats, not events).',
	'To change the secret: add a new Messaging Email Trigger (n8n gives every new node a new random ID), put its URL in the service, delete the old handler and node.',
]
	.map((step) => `<li>${step}</li>`)
	.join('')}</ul>`;

type ResponseLike = {
	writeHead(status: number, headers: object): unknown;
	end(body: string): unknown;
};

/** Answers the service directly (no workflow run) with a status and a short JSON body. */
function answer(
	context: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const response = context.getResponseObject() as unknown as ResponseLike;
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

export class MessagingEmailTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Email Trigger',
		name: 'messagingEmailTrigger',
		icon: {
			light: 'file:../shared/icons/messaging.svg',
			dark: 'file:../shared/icons/messaging.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + [].concat($parameter["events"] || []).length + " email event kinds"}}',
		description:
			'Starts on the email events SendPulse posts (webhook): opens, clicks, spam complaints, bounces and more, as they happen. Needs its URL pasted in SendPulse; without that, Messaging Email & SMS Trigger polls bounces and unsubscribes',
		defaults: { name: 'Messaging Email Trigger' },
		// Optional: only its Account Time Zone is read, for Event Time (UTC without a credential).
		credentials: [
			{ name: 'messagingServiceApi', required: false, testedBy: 'messagingServiceApiTest' },
		],
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// The service posts a batch every 30 s; it gets its 200 before the workflow runs.
				responseMode: 'onReceived',
				// Empty: n8n 2.40 answers a started run with the node's `webhookResponse` (the batch's summary), once
				// the run is started (undefined would answer the text "firstEntryJson").
				responseData: '',
				path: WEBHOOK_PATH,
			},
		],
		properties: [
			{ displayName: SETUP_STEPS, name: 'setupNotice', type: 'notice', default: '' },
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [
					'delivered',
					'undelivered',
					'opened',
					'clicked',
					'spam_by_user',
					'unsubscribed',
					'resubscribed',
					'hard_bounces',
					'soft_bounces',
					'other',
				],
				options: EVENT_OPTIONS,
				description:
					'Which events start the workflow. Others are acknowledged and dropped. Tick the same ones in the service.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Drop Repeats',
						name: 'dropRepeats',
						type: 'boolean',
						default: true,
						description:
							"Whether an event that arrives again within 24 hours, or among the newest 150,000 events if fewer, is dropped (the service re-posts a batch it got no 2xx for). Remembered in the workflow's static data: across restarts and every n8n process.",
					},
					{
						displayName: 'One Item per Batch',
						name: 'oneItemPerBatch',
						type: 'boolean',
						default: false,
						description:
							'Whether each request gives one item holding all its events (under "events") instead of one item per event',
					},
				],
			},
		],
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testMessagingCredential } };

	webhookMethods = {
		default: {
			/** Without n8n's random id the URL would be `<workflow id>/<node name>/…`: guessable, so refuse to start. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (!this.getNode().webhookId)
					throw new NodeOperationError(
						this.getNode(),
						'This node has no random webhook ID, so its URL would be guessable',
						{
							description:
								"n8n's CLI import (n8n import:workflow) gives none. In the editor, delete this trigger and add a new Messaging Email Trigger (or paste the workflow's JSON), save, then publish and copy the Production URL.",
						},
					);
				// Settings an expression or imported JSON can set to unknown values fail the activation, naming them.
				chosenKinds(this.getNode(), this.getNodeParameter('events', []));
				await readAccountTimeZone(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const node = this.getNode();
		// n8n's request (express) also carries the bytes it read and the parsed content type.
		const request = this.getRequestObject() as ReturnType<IWebhookFunctions['getRequestObject']> & {
			rawBody?: Buffer;
			contentType?: string;
		};
		const received = secretOfRequestPath(request.originalUrl ?? request.url ?? '');
		if (!secretMatches(received, node.webhookId))
			return answer(this, 404, { message: 'Not found' });

		const batch = readBatch(
			request.body,
			request.rawBody,
			request.contentType ?? request.headers?.['content-type'],
		);
		if (!batch.ok)
			return answer(this, batch.status, {
				message: batch.message,
				...(batch.notEvents === undefined ? {} : { notEvents: batch.notEvents }),
			});

		const chosen = chosenKinds(node, this.getNodeParameter('events', []));
		const options = this.getNodeParameter('options', {}) as IDataObject;
		// Thrown before any key is remembered: n8n answers 500, so the service posts the batch again later.
		const timeZone = await readAccountTimeZone(this);

		const wanted = batch.events.filter((raw) => {
			const kind = canonicalWebhookKind(String(raw.event));
			return chosen.has(isWebhookKind(kind) ? kind : 'other');
		});
		let fresh = wanted;
		if (options.dropRepeats !== false) {
			const mode = this.getMode();
			const memory = new RepeatMemory(
				repeatScope(this.getWorkflow().id, node, mode),
				Date.now(),
				mode === 'manual' ? undefined : this.getWorkflowStaticData('node'),
			);
			const isNew = memory.newAmong(wanted.map(eventKey));
			fresh = wanted.filter((_, index) => isNew[index]);
			// Saved only when no run starts: n8n's WorkflowRunner.run resets the static data's change flag before it
			// answers (docs/webhook-trigger.md); the run saves the keys instead (execute below).
			memory.save();
		}
		// A click naming its link in a field the node does not read is emitted with linkUrl null: the answer says
		// so (only then, keeping the usual answer as it is), for whoever tests the set-up with their own events.
		const clicksWithoutLink = fresh.filter(isClickWithoutLink).length;
		const summary = {
			received: batch.events.length + batch.notEvents,
			emitted: fresh.length,
			kindNotChosen: batch.events.length - wanted.length,
			repeats: wanted.length - fresh.length,
			notEvents: batch.notEvents,
			...(clicksWithoutLink ? { clicksWithoutLink } : {}),
		};
		if (fresh.length === 0) return { webhookResponse: summary };

		const outputs = fresh.map((raw) => webhookEventOutput(raw, timeZone));
		const items = options.oneItemPerBatch
			? [{ json: { count: outputs.length, events: outputs } }]
			: outputs.map((json) => ({ json }));
		return { workflowData: [items], webhookResponse: summary };
	}

	/**
	 * The run n8n starts with the emitted items runs this first: it stores the keys of those events in the workflow's
	 * static data, which n8n saves when the run ends (and, in queue mode, on the worker). Items pass unchanged.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const mode = this.getMode();
		if (options.dropRepeats !== false && mode !== 'manual') {
			const memory = new RepeatMemory(
				repeatScope(this.getWorkflow().id, this.getNode(), mode),
				Date.now(),
				this.getWorkflowStaticData('node'),
			);
			memory.newAmong(items.flatMap((item) => rawEventsOf(item.json).map(eventKey)));
			memory.save();
		}
		return [items];
	}
}

/** What one process remembers together: a workflow's trigger node, production apart from test runs. */
const repeatScope = (workflowId: string | undefined, node: INode, mode: string) =>
	`${workflowId}:${node.id}:${mode}`;

/** The events an output item carries (one, or a batch's under `events` with One Item per Batch). */
function rawEventsOf(json: IDataObject): IDataObject[] {
	const events = Array.isArray(json.events) ? (json.events as IDataObject[]) : [json];
	return events.map((event) => event.raw).filter(isRecord);
}

const KNOWN_CHOICES = new Set(EVENT_OPTIONS.map((option) => option.value));

/**
 * The Events setting as the filter's names (either spelling of a kind is accepted). An unknown value (an
 * expression, imported JSON) is refused naming the setting: at activation, and for every batch.
 */
function chosenKinds(node: INode, raw: unknown): Set<string> {
	const chosen = new Set<string>();
	for (const value of chosenEvents(raw)) {
		const kind = canonicalWebhookKind(String(value));
		if (typeof value !== 'string' || !KNOWN_CHOICES.has(kind))
			throw new NodeOperationError(
				node,
				`Events: ${JSON.stringify(value)} is not an email event kind this trigger offers`,
				{ description: `Choose among: ${[...KNOWN_CHOICES].join(', ')}.` },
			);
		chosen.add(kind);
	}
	return chosen;
}
