import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DEFAULT_SMS_LOOK_BACK_DAYS } from './settings';

/** The SMS events, as options of the trigger's Events field (the editor lists them as "On SMS Delivered", …). */
export const smsEventOptions: INodePropertyOptions[] = [
	{
		name: 'SMS Delivered',
		value: 'smsDelivered',
		description: 'A phone of a recent SMS campaign reached status 2 Delivered',
	},
	{
		name: 'SMS Not Delivered',
		value: 'smsNotDelivered',
		description: 'A phone of a recent SMS campaign reached status 12 Not delivered',
	},
	{
		name: 'SMS Sent',
		value: 'smsSent',
		description:
			'The SMS to a phone of a recent campaign left for the operator (status 1 Sent, or a later one)',
	},
];

/** Options of the SMS events, in the trigger's Options collection. */
export const smsOptionFields: INodeProperties[] = [
	{
		displayName: 'Include SMS Look-Back on First Run',
		name: 'includeSmsLookBack',
		type: 'boolean',
		default: false,
		description:
			'Whether the first poll after the first activation also emits the statuses the phones of campaigns in the SMS look-back already reached (once). Off: only statuses reached after activation.',
	},
	{
		displayName: 'SMS Look-Back (Days)',
		name: 'smsLookBackDays',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 30 },
		default: DEFAULT_SMS_LOOK_BACK_DAYS,
		description:
			'SMS campaigns created in these last days are followed until all their phones have a final status. Each poll reads the campaign list once and each campaign still delivering once.',
	},
];
