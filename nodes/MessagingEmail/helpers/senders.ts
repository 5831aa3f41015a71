import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/values/inputErrors';
import { listOrTypedLocator } from '../../shared/items/locators';
import type { MessagingClient } from '../../shared/transport/client';

/**
 * The one reader of GET /smtp/senders, for Sender Address → Get Many, the From check of Email → Send / Send and Wait and the
 * sender lists: a bare array of address strings, each read as `{email}`; objects (as some sources show) are kept
 * as they are. An answer without a list is an error, never "no senders".
 */
export async function listSenders(
	client: MessagingClient,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const answer = await client.requestList<unknown>({
		method: 'GET',
		path: '/smtp/senders',
		itemIndex,
	});
	return answer.map((sender): IDataObject =>
		typeof sender === 'object' && sender !== null
			? (sender as IDataObject)
			: { email: String(sender) },
	);
}

/** The account's approved sender addresses (listSenders), without the entries that hold none. */
export async function approvedSenders(
	client: MessagingClient,
	itemIndex?: number,
): Promise<string[]> {
	return (await listSenders(client, itemIndex))
		.map((sender) => String(sender.email ?? ''))
		.filter((email) => email !== '');
}

/** What to do when From is empty or not an address (Email → Send, Send and Wait for Response). */
export const FROM_HINTS = {
	empty:
		'Choose an approved sender address from the list, or type one (Email → Sender Address → Get Many lists them; Sender Address → Add adds one).',
	invalid:
		'Type only the address, such as sender@example.com; the name people see goes in From Name.',
};

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

export type SenderCheck = (itemIndex: number, email: string) => Promise<void>;

/**
 * The account's approved senders, asked for once per execution (GET /smtp/senders) so an unknown From address
 * fails before anything is sent, naming the parameter and item.
 */
export function senderCheck(context: IExecuteFunctions, client: MessagingClient): SenderCheck {
	let senders: Promise<string[]> | undefined;
	return async (itemIndex, email) => {
		senders ??= approvedSenders(client, itemIndex).then((emails) =>
			emails.map((sender) => sender.toLowerCase()),
		);
		const approved = await senders;
		if (!approved.includes(email.toLowerCase())) {
			throw invalidInput(
				context,
				itemIndex,
				'From',
				`"${email}" is not an approved sender of the account`,
				approved.length
					? `Approved senders: ${approved.join(', ')}. Add the address with Sender Address → Add, or choose one from the list.`
					: 'The account has no approved sender yet: add one with Sender Address → Add.',
			);
		}
	};
}
