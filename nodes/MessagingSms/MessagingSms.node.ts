import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { requestOptionsField } from '../shared/fields';
import * as blacklist from './actions/blacklist';
import * as campaign from './actions/campaign';
import * as phoneNumber from './actions/phoneNumber';
import { router } from './actions/router';
import * as senderId from './actions/senderId';
import { getSenders } from './methods/loadOptions';

export class MessagingSms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging SMS',
		name: 'messagingSms',
		icon: { light: 'file:messagingSms.svg', dark: 'file:messagingSms.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Bulk SMS: phone numbers in mailing lists, blacklist, campaigns and sender IDs',
		defaults: { name: 'Messaging SMS' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingServiceApi', required: true }],
		properties: [
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
			...phoneNumber.description,
			...blacklist.description,
			...campaign.description,
			...senderId.description,
			requestOptionsField,
		],
	};

	methods = { loadOptions: { getSenders } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
