import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { MessagingClient } from '../../shared/transport/client';

/**
 * The account's approved sender addresses (GET /smtp/senders: a bare array of addresses; objects with `email`, as
 * some sources show, are read too). An answer without a list is an error, never "no senders".
 */
export async function approvedSenders(
	client: MessagingClient,
	itemIndex?: number,
): Promise<string[]> {
	const answer = await client.requestList<unknown>({
		method: 'GET',
		path: '/smtp/senders',
		itemIndex,
	});
	return answer
		.map((sender) =>
			typeof sender === 'object' && sender !== null
				? String((sender as IDataObject).email ?? '')
				: String(sender),
		)
		.filter((email) => email !== '');
}

/** An approved sender address of the account: picked from the list (searchSenders) or typed. */
export function senderAddressLocator(
	name: string,
	displayName: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a sender...',
				typeOptions: { searchListMethod: 'searchSenders', searchable: true },
			},
			{
				displayName: 'By Address',
				name: 'email',
				type: 'string',
				placeholder: 'e.g. sender@example.com',
			},
		],
	};
}
