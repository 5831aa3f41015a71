import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodePropertyOptions,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { pollRequestOptionsField } from '../shared/transport/requestOptions';
import {
	checkChosenEvents,
	eventsSubtitle,
	maxEventsPerPollOption,
} from '../shared/triggerSettings';
import { CREDENTIAL_TEST_NAME, testMessagingCredential } from '../shared/transport/credentialTest';
import { pollMessagingEvents } from '../shared/polling/pollEvents';
import { smsEventOptions, smsOptionFields } from '../shared/polling/sms/fields';

const EVENT_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Bounce', value: 'bounce', description: 'An email could not be delivered' },
	{
		name: 'Unsubscribe',
		value: 'unsubscribe',
		description: 'A recipient unsubscribed or complained about spam',
	},
	...smsEventOptions,
];

export class MessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		// One name everywhere (the editor's node list drops "Trigger": it shows "Messaging Email & SMS").
		displayName: 'Messaging Email & SMS Trigger',
		name: 'messagingTrigger',
		icon: {
			light: 'file:../shared/icons/messaging.svg',
			dark: 'file:../shared/icons/messaging.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: eventsSubtitle(EVENT_OPTIONS),
		description:
			'Starts the workflow once for each new SendPulse email bounce or unsubscribe, and once for each SMS delivery status (polling). Nothing to set up in SendPulse; for opens, clicks and bounces as they happen, use Messaging Email Trigger (webhook)',
		defaults: { name: 'Messaging Email & SMS Trigger' },
		credentials: [
			{ name: 'messagingServiceApi', required: true, testedBy: 'messagingServiceApiTest' },
		],
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName:
					'The service lists bounces for the last 24 hours only: while this workflow is inactive for longer, bounces from that time are lost (the next event then carries a warning)',
				name: 'windowNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { events: ['bounce'] } },
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['bounce', 'unsubscribe'],
				options: EVENT_OPTIONS,
				description:
					'Which events start the workflow. Changing this starts the newly chosen events from now.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [
					{
						displayName: 'Include Last 24 Hours on First Run',
						name: 'includeLast24Hours',
						type: 'boolean',
						default: false,
						description:
							'Whether the first poll after the first activation also emits the events of the last 24 hours (once). Off: only events that happen after activation.',
					},
					maxEventsPerPollOption,
					...smsOptionFields,
				],
			},
			pollRequestOptionsField,
		],
	};

	methods = { credentialTest: { [CREDENTIAL_TEST_NAME]: testMessagingCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		checkChosenEvents(this.getNode(), this.getNodeParameter('events', []), EVENT_OPTIONS);
		return await pollMessagingEvents(this);
	}
}
