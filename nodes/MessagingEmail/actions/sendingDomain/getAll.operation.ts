import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import type { MessagingClient } from '../../../shared/transport/client';
import { normaliseDomain } from '../../../shared/records/email';
import { readAccountTimeZone } from '../../../shared/values/account';

export const description: INodeProperties[] = [];

/**
 * `{data: {result, data: [...]}}` (doubly wrapped: docs/service-notes.md, Email); a singly wrapped or bare list is
 * read too. Undefined when the answer holds no list.
 */
function domainsIn(body: unknown): unknown[] | undefined {
	let current: unknown = body;
	for (let depth = 0; depth < 3; depth++) {
		if (Array.isArray(current)) return current;
		if (typeof current !== 'object' || current === null) return undefined;
		current = (current as IDataObject).data;
	}
	return Array.isArray(current) ? current : undefined;
}

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: () => undefined,
		send: async (_prepared, itemIndex) => {
			const domains = await client.requestList(
				{ method: 'GET', path: '/v2/email-service/smtp/sender_domains', itemIndex },
				domainsIn,
			);
			return domains.map((domain) => normaliseDomain(domain, accountZone));
		},
	});
}
