import type { INodeProperties } from 'n8n-workflow';

export const campaignIdField: INodeProperties = {
	displayName: 'Campaign ID',
	name: 'campaignId',
	type: 'string',
	default: '',
	required: true,
	placeholder: '4051234',
};
