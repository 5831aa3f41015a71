import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { recordList } from '../../shared/values/objects';
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

/**
 * The account's own email templates (GET /templates?owner=me, not the gallery) for the Template list. The
 * service documents no fields of this list beyond `id`, `real_id` and a name (docs/service-notes.md, Lists used by
 * the pickers): the value is `real_id` (what a send takes) or else `id`; an entry with neither is left out, not
 * guessed.
 */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new MessagingClient(this);
	const templates = await client.requestList(
		{ method: 'GET', path: '/templates', query: { owner: 'me' } },
		(body) => recordList(body),
	);
	const wanted = (filter ?? '').trim().toLowerCase();
	const idOf = (template: IDataObject) => {
		const id = template.real_id ?? template.id;
		return typeof id === 'number' || (typeof id === 'string' && id.trim() !== '')
			? String(id).trim()
			: undefined;
	};
	const results = templates
		.map((template) => ({ template, id: idOf(template) }))
		.filter((entry): entry is { template: IDataObject; id: string } => entry.id !== undefined)
		.map(({ template, id }) => ({
			name:
				typeof template.name === 'string' && template.name.trim() ? template.name.trim() : `#${id}`,
			value: id,
		}))
		.filter(
			(entry) =>
				entry.name.toLowerCase().includes(wanted) || entry.value.toLowerCase().includes(wanted),
		)
		.map((entry) => ({ ...entry, description: `ID ${entry.value}` }));
	return { results };
}
