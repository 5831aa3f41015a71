import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import { runPerItem } from '../../../shared/items/engine';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { requiredString } from '../../helpers/fields';

const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const properties: INodeProperties[] = [
	{
		displayName: 'Domain',
		name: 'domain',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'mail.example.com',
		description: 'The domain to send from',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['sendingDomain'], operation: ['add'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const domain = requiredString(this, itemIndex, 'domain', 'Domain').toLowerCase();
			if (!DOMAIN_PATTERN.test(domain))
				throw invalidInput(this, itemIndex, 'Domain', `"${domain}" is not a domain name`);
			return domain;
		},
		// A refusal comes with HTTP 200 (`{data: {result: false, error: "domain exists"}}`); the transport raises it.
		send: async (domain, itemIndex) => {
			await client.request({
				method: 'POST',
				path: apiPath`/v2/email-service/smtp/sender_domains/${domain}`,
				itemIndex,
			});
			return { result: true, domain };
		},
	});
}
