import type { ILoadOptionsFunctions } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox/core/server';

/**
 * The context a node's `methods.listSearch` gets from the editor, for tests: the node, its credential's Base URL
 * (the sandbox), the workflow's time zone, and n8n's request helper sending over real HTTP with the sandbox's API
 * key (the transport asks it for the full response). One helper for every listSearch test.
 */
export function listSearchContext(
	sandbox: Sandbox,
	options: { nodeType?: string; timeZone?: string } = {},
): ILoadOptionsFunctions {
	return {
		getNode: () => ({
			name: 'Node',
			type: options.nodeType ?? 'n8n-nodes-messaging.messagingSms',
			typeVersion: 1,
			parameters: {},
		}),
		getCredentials: async () => ({ baseUrl: sandbox.url }),
		getTimezone: () => options.timeZone ?? 'UTC',
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				request: { url: string; method: string },
			) => {
				const response = await fetch(request.url, {
					method: request.method,
					headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
				});
				return {
					statusCode: response.status,
					headers: Object.fromEntries(response.headers),
					body: (await response.json()) as unknown,
				};
			},
		},
	} as unknown as ILoadOptionsFunctions;
}
