import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';
import { dataList, senderId } from '../helpers/records';

/** Sender IDs for the dropdown, each with its moderation status. */
export async function getSenders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const client = new MessagingClient(this);
	const senders = dataList(await client.request({ method: 'GET', path: '/sms/senders' })).map(senderId);
	return senders.map((sender: IDataObject) => ({
		name: `${String(sender.sender)} (${String(sender.status_name ?? 'Unknown')})`,
		value: String(sender.sender),
		description: [sender.status_name, sender.country].filter(Boolean).join(' · '),
	}));
}
