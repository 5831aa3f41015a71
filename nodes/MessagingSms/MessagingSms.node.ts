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
import { listSearch } from './methods';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Blacklist', value: 'blacklist' },
			{ name: 'Campaign', value: 'campaign' },
			{ name: 'Phone Number', value: 'phoneNumber' },
			{ name: 'Sender ID', value: 'senderId' },
		],
		default: 'campaign',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
	requestOptionsField,
];

export class MessagingSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging SMS',
		name: 'messagingSms',
		icon: {
			light: 'file:../shared/icons/messagingSms.svg',
			dark: 'file:../shared/icons/messagingSms.dark.svg',
		},
		group: ['output'],
		version: 1,
		subtitle: actionSubtitle(properties),
		description:
			'SendPulse bulk SMS: phone numbers in mailing lists, blacklist, campaigns and sender IDs',
		defaults: { name: 'Messaging SMS' },
		usableAsTool: true,
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

	methods = { listSearch, credentialTest: { [CREDENTIAL_TEST_NAME]: testMessagingCredential } };

	webhook = sendAndWaitWebhook;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
