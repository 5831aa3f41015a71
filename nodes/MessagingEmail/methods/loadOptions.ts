import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';

/** The account's approved sender addresses (GET /smtp/senders), for the From and Sender dropdowns. */
export async function getSenders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const answer = await new MessagingClient(this).request({ method: 'GET', path: '/smtp/senders' });
	const senders = Array.isArray(answer) ? answer : [];
	return senders
		.map((sender) => (typeof sender === 'object' && sender !== null ? String((sender as { email?: unknown }).email ?? '') : String(sender)))
		.filter((email) => email !== '')
		.map((email) => ({ name: email, value: email }));
}
