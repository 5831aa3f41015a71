import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { withServiceHint } from '../../../shared/transport/errors';
import { requiredEmail } from '../../helpers/fields';
import { senderAddressLocator } from '../../helpers/senders';
import { readParameter } from '../../../shared/items/parameters';

/** The service's documented limit for POST /smtp/resubscribe. */
const RESUBSCRIBE_LIMIT_PER_DAY = 5;

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'The unsubscribed contact to ask for confirmation',
	},
	senderAddressLocator(
		'sender',
		'Sender Email',
		'Sender address of the request email, an approved sender address of your account: pick it from the list or type it',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Language',
				name: 'lang',
				type: 'string',
				default: '',
				placeholder: 'en',
				description: 'Two-letter language code of the confirmation email',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['resubscribe'], operation: ['sendRequest'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const options = readParameter(this, 'options', itemIndex, {}) as IDataObject;
			const lang = String(options.lang ?? '').trim();
			return {
				email: requiredEmail(this, itemIndex, 'email', 'Email'),
				sender: requiredEmail(this, itemIndex, 'sender', 'Sender Email'),
				...(lang ? { lang } : {}),
			};
		},
		send: async (body, itemIndex) => {
			const answer = await withServiceHint(
				client.request<IDataObject>({
					method: 'POST',
					path: '/smtp/resubscribe',
					body,
					idempotent: false,
					itemIndex,
				}),
				(error) => /limit/i.test(error.message),
				`The service sends at most ${RESUBSCRIBE_LIMIT_PER_DAY} resubscription requests per account in 24 hours. ` +
					'Try again later; requests already sent still count.',
			);
			return {
				id: answer.id === undefined ? undefined : String(answer.id),
				result: answer.result,
				email: body.email,
				sender: body.sender,
			};
		},
	});
}
