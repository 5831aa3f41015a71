import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { WEBHOOK_KINDS, isWebhookKind, webhookEventOutput } from '../shared/records/emailEvents';
import { readAccountTimeZone } from '../shared/account';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';
import { checkChosenEvents, chosenEvents } from '../shared/triggerSettings';
import { readBatch } from './body';
import { RepeatFilter, eventKey } from './dedupe';
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
		description: 'The recipient complained; the service also unsubscribes them',
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
		description: 'Delivery failed for good (unknown address, domain)',
	},
	{
		name: 'Soft Bounce',
		value: 'soft_bounces',
		description: 'Delivery failed for now (mailbox full, server busy)',
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
	'Copy this node’s Production URL (Webhook URLs, above). Its random part is the secret: share it with nobody.',
	'In the service: Account Settings → API → create webhook, paste the URL as the handler URL.',
	'Tick the events you want there (Delivered, Not delivered, Opened, Link clicked, Marked as spam, Unsubscribed, Resubscribed, Hard bounce, Soft bounce).',
	'Opens and clicks need the account’s tracking on.',
	'Publish (activate) this workflow. Requests without the right URL get 404 and start nothing.',
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
			'SendPulse transactional email: send, and manage bounces, unsubscribes, senders and domains; starts on the email events SendPulse posts (webhook)',
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
				// Without it n8n 2.40 answers a started run with the text "firstEntryJson"; the service needs only a 2xx.
				responseData: 'noData',
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
							'Whether an event that arrives again within 24 hours (the service re-posts a batch it got no 2xx for) is dropped',
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
								'Open the workflow in the n8n editor and save it (n8n then gives the node its ID), or add the node anew.',
						},
					);
				// Settings an expression or imported JSON can set to unknown values fail the activation, naming them.
				checkChosenEvents(this.getNode(), this.getNodeParameter('events', []), EVENT_OPTIONS);
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
		if (!batch.ok) return answer(this, batch.status, { message: batch.message });

		const chosen = new Set(chosenEvents(this.getNodeParameter('events', [])).map(String));
		const options = this.getNodeParameter('options', {}) as IDataObject;
		// Thrown before any key is remembered: n8n answers 500, so the service posts the batch again later.
		const timeZone = await readAccountTimeZone(this);

		const wanted = batch.events.filter((raw) => {
			const kind = String(raw.event ?? '');
			return chosen.has(isWebhookKind(kind) ? canonicalKind(kind) : 'other');
		});
		const repeats =
			options.dropRepeats === false
				? undefined
				: new RepeatFilter(`${this.getWorkflow().id}:${node.id}:${this.getMode()}`, Date.now());
		const fresh = repeats ? wanted.filter((raw) => repeats.isNew(eventKey(raw))) : wanted;
		const summary = { received: batch.events.length, emitted: fresh.length };
		if (fresh.length === 0) return { webhookResponse: summary };

		const outputs = fresh.map((raw) => webhookEventOutput(raw, timeZone));
		const items = options.oneItemPerBatch
			? [{ json: { count: outputs.length, events: outputs } }]
			: outputs.map((json) => ({ json }));
		return { workflowData: [items] };
	}
}

/** `redirected` (a click, in some clients) counts as Link Clicked. */
const canonicalKind = (kind: keyof typeof WEBHOOK_KINDS): string =>
	kind === 'redirected' ? 'clicked' : kind;
