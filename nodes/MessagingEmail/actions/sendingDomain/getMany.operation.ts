import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { normaliseDomain } from '../../helpers/normalise';

export const description: INodeProperties[] = [];

/** `{data: {result, data: [...]}}` (doubly wrapped, wire notes); a singly wrapped or bare list is read too. */
function domainsIn(body: unknown): unknown[] {
	let current: unknown = body;
	for (let depth = 0; depth < 3; depth++) {
		if (Array.isArray(current)) return current;
		if (typeof current !== 'object' || current === null) return [];
		current = (current as IDataObject).data;
	}
	return Array.isArray(current) ? current : [];
}

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: () => undefined,
		send: async (_prepared, itemIndex) => {
			const answer = await client.request({ method: 'GET', path: '/v2/email-service/smtp/sender_domains', itemIndex });
			return domainsIn(answer).map(normaliseDomain);
		},
	});
}
