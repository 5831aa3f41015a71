import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { requestOptionsField } from '../shared/fields';
import { DEFAULT_MAX_EVENTS_PER_POLL, poll } from './poller';

export class MessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Trigger',
		name: 'messagingTrigger',
		icon: { light: 'file:messaging.svg', dark: 'file:messaging.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"On " + [].concat($parameter["events"] || []).join(" and ")}}',
		description: 'Starts the workflow once for each new email bounce or unsubscribe',
		defaults: { name: 'Messaging Trigger' },
		credentials: [{ name: 'messagingServiceApi', required: true }],
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
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['bounce', 'unsubscribe'],
				options: [
					{ name: 'Bounce', value: 'bounce', description: 'An email could not be delivered' },
					{ name: 'Unsubscribe', value: 'unsubscribe', description: 'A recipient unsubscribed or complained about spam' },
				],
				description: 'Which events start the workflow. Changing this starts the newly chosen events from now.',
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
					{
						displayName: 'Max Events per Poll',
						name: 'maxEventsPerPoll',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_MAX_EVENTS_PER_POLL,
						description: 'Most events one poll emits; the rest follow in the next polls, none is skipped',
					},
					{
						displayName: 'Service Time Zone',
						name: 'serviceTimeZone',
						type: 'string',
						default: 'UTC',
						placeholder: 'Europe/Berlin',
						description:
							"Time zone of your account on the service (IANA name). The service gives event times without a zone, in the account's zone; the trigger reads them in this zone for Event Time ISO and for which day's unsubscribes to read.",
					},
				],
			},
			requestOptionsField,
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
