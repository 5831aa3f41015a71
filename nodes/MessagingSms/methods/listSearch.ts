import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';
import { recordList } from '../../shared/values/objects';
import { campaignListItem, dataList, senderId } from '../../shared/records/sms';
import { readAccountTimeZone } from '../../shared/values/account';

/**
 * Campaigns for the Campaign locator's list, newest first. The service lists campaigns by creation date only (no
 * names, no paging), so the filter matches the ID, the sender and the creation date.
 */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const accountZone = await readAccountTimeZone(this);
	const client = new MessagingClient(this);
	const campaigns = (
		await client.requestList({ method: 'GET', path: '/sms/campaigns/list' }, dataList)
	).map((campaign) => campaignListItem(campaign, accountZone));
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = campaigns
		.filter((campaign: IDataObject) =>
			[campaign.id, campaign.sender_name, campaign.date_created].some((field) =>
				String(field ?? '')
					.toLowerCase()
					.includes(wanted),
			),
		)
		.sort(
			(a, b) =>
				String(b.date_created ?? '').localeCompare(String(a.date_created ?? '')) ||
				Number(b.id) - Number(a.id),
		)
		.map((campaign) => ({
			name: [
				`#${String(campaign.id)}`,
				campaign.sender_name,
				campaign.date_created,
				campaign.company_price !== undefined
					? `${String(campaign.company_price)} ${String(campaign.company_currency ?? '')}`.trim()
					: undefined,
			]
				.filter((part) => part !== undefined && part !== '')
				.join(' · '),
			value: String(campaign.id),
		}));
	return { results };
}

/** Sender IDs for the Sender list: the status once in the name (only Active ones send), the country below it. */
export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new MessagingClient(this);
	const senders = (await client.requestList({ method: 'GET', path: '/sms/senders' }, dataList)).map(
		senderId,
	);
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = senders
		.filter((sender: IDataObject) => String(sender.sender).toLowerCase().includes(wanted))
		.map((sender: IDataObject) => ({
			name: `${String(sender.sender)} (${String(sender.statusName ?? 'Unknown')})`,
			value: String(sender.sender),
			...(sender.country ? { description: String(sender.country) } : {}),
		}));
	return { results };
}

/** The service's page size for mailing lists (GET /addressbooks; docs/service-notes.md, Lists used by the pickers). */
const MAILING_LIST_PAGE = 100;

/**
 * Mailing lists (GET /addressbooks) for the Mailing List locator, a page of 100 at a time (n8n asks for the next
 * page as the user scrolls, with the offset as its token). The service does not filter by name: the filter is
 * applied to each page, matching the name or the ID.
 */
export async function searchMailingLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const client = new MessagingClient(this);
	const offset = Number(paginationToken ?? 0) || 0;
	const books = await client.requestList(
		{ method: 'GET', path: '/addressbooks', query: { limit: MAILING_LIST_PAGE, offset } },
		(body) => recordList(body),
	);
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = books
		.filter((book) => typeof book.id === 'number' || /^\d+$/.test(String(book.id ?? '')))
		.map((book) => {
			const id = String(book.id);
			const name = typeof book.name === 'string' && book.name.trim() ? book.name.trim() : `#${id}`;
			return { name, value: id, description: `ID ${id}` };
		})
		.filter((entry) => entry.name.toLowerCase().includes(wanted) || entry.value.includes(wanted));
	return {
		results,
		...(books.length === MAILING_LIST_PAGE
			? { paginationToken: String(offset + MAILING_LIST_PAGE) }
			: {}),
	};
}
