import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { requiredString } from '../../helpers/fields';
import { normaliseEmailRecord } from '../../../shared/records/email';
import { readAccountTimeZone } from '../../../shared/values/account';

const properties: INodeProperties[] = [
	{
		displayName: 'Email ID',
		name: 'emailId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'pzkic9-0afezp-fc',
		description: 'ID of a sent email, as Send returned it',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['email'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => requiredString(this, itemIndex, 'emailId', 'Email ID'),
		send: async (id, itemIndex) =>
			normaliseEmailRecord(
				await client.request<IDataObject>({
					method: 'GET',
					path: apiPath`/smtp/emails/${id}`,
					itemIndex,
				}),
				accountZone,
			),
	});
}
