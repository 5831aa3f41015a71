import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { requestOptionsField } from '../shared/transport/requestOptions';
import { sendAndWaitTooltip, sendAndWaitWebhooks } from '../shared/sendAndWait/fields';
import { sendAndWaitWebhook } from '../shared/sendAndWait/webhook';
import { actionSubtitle } from '../shared/items/subtitle';
import { resources } from './actions/resources';
import { router } from './actions/router';
import { listSearch, loadOptions } from './methods';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Bounce', value: 'bounce' },
			{ name: 'Email', value: 'email' },
			{ name: 'Resubscribe', value: 'resubscribe' },
			{ name: 'Sender Address', value: 'senderAddress' },
			{ name: 'Sending Domain', value: 'sendingDomain' },
			{ name: 'Sending IP', value: 'sendingIp' },
			{ name: 'Unsubscribe', value: 'unsubscribe' },
		],
		default: 'email',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
	requestOptionsField,
];

export class MessagingEmail implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Email',
		name: 'messagingEmail',
		icon: { light: 'file:messagingEmail.svg', dark: 'file:messagingEmail.dark.svg' },
		group: ['output'],
		// 1.1: Send's attachments in one place (Binary Attachments left Options; see helpers/attachments.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: actionSubtitle(properties),
		description:
			'SendPulse transactional email (SMTP API): send, and manage bounces, unsubscribes, senders and sending domains',
		defaults: { name: 'Messaging Email' },
		usableAsTool: true,
		// n8n's own nodes use the typed constant; the legacy lint rule predates it.
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Send and Wait for Response: n8n's resume webhooks (see sendAndWait/fields.ts), never registered on the service.
		webhooks: sendAndWaitWebhooks,
		waitingNodeTooltip: sendAndWaitTooltip,
		// A test of its own, so Test/Retry judges the values typed, not a token from earlier ones. A string literal:
		// n8n's lint (credential-test-required) reads it from the source.
		credentials: [
			{ name: 'messagingServiceApi', required: true, testedBy: 'messagingServiceApiTest' },
		],
		properties,
	};

	methods = {
		listSearch,
		loadOptions,
		credentialTest: { [CREDENTIAL_TEST_NAME]: testMessagingCredential },
	};

	webhook = sendAndWaitWebhook;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
