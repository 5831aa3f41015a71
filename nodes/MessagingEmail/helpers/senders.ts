import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { listOrTypedLocator } from '../../shared/locators';
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
	return listOrTypedLocator({
		name,
		displayName,
		description,
		searchListMethod: 'searchSenders',
		listPlaceholder: 'Select a sender...',
		typed: {
			displayName: 'By Address',
			name: 'email',
			placeholder: 'e.g. sender@example.com',
		},
	});
}
