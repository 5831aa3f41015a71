import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';
import { campaignListItem, dataList, senderId } from '../../shared/records/sms';

/**
 * Campaigns for the Campaign locator's list, newest first. The service lists campaigns by creation date only (no
 * names, no paging), so the filter matches the ID, the sender and the creation date.
 */
export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = new MessagingClient(this);
	const campaigns = (
		await client.requestList({ method: 'GET', path: '/sms/campaigns/list' }, dataList)
	).map((campaign) => campaignListItem(campaign, this.getTimezone()));
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
