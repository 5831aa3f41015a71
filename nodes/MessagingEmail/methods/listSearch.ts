import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';
import { approvedSenders } from '../helpers/senders';

/** The account's approved sender addresses (GET /smtp/senders), for the From and Sender Email lists. */
export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const senders = await approvedSenders(new MessagingClient(this));
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = senders
		.filter((email) => email.toLowerCase().includes(wanted))
		.map((email) => ({ name: email, value: email }));
	return { results };
}
