import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { pollRequestOptionsField } from '../shared/transport/requestOptions';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';
import {
	checkChosenEvents,
	eventsSubtitle,
	maxEventsPerPollOption,
} from '../shared/triggerSettings';
import { pollMessagingEvents } from '../shared/polling/pollEvents';
import { smsEventOptions, smsOptionFields } from '../shared/polling/sms/fields';

/**
 * The SMS delivery events of the Messaging Trigger as a node of their own. n8n's editor lists a trigger among an
 * action node's triggers when its type name is that node's name + "Trigger" (messagingSms → messagingSmsTrigger),
 * so this is what "Messaging SMS" shows under Triggers. Same poller, same state, same output.
 */
export class MessagingSmsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging SMS Trigger',
		name: 'messagingSmsTrigger',
		icon: {
			light: 'file:../shared/icons/messagingSms.svg',
			dark: 'file:../shared/icons/messagingSms.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(smsEventOptions),
		// The editor's node list shows this text for "Messaging SMS" too (a merged trigger's description wins there).
		description:
			'SendPulse bulk SMS: campaigns, phone lists, blacklist and sender IDs; starts on each phone’s delivery status',
		defaults: { name: 'Messaging SMS Trigger' },
		// The action nodes' credential test (n8n's lint wants every node using the credential to name one).
		credentials: [
			{ name: 'messagingServiceApi', required: true, testedBy: 'messagingServiceApiTest' },
		],
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['smsDelivered', 'smsNotDelivered'],
				options: smsEventOptions,
				description:
					'Which statuses start the workflow, once per phone each. Changing this starts the newly chosen events from now.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [...smsOptionFields, maxEventsPerPollOption],
			},
			pollRequestOptionsField,
		],
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testMessagingCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		checkChosenEvents(this.getNode(), this.getNodeParameter('events', []), smsEventOptions);
		return await pollMessagingEvents(this);
	}
}
