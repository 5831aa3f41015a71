import type { ILoadOptionsFunctions } from 'n8n-workflow';

/**
 * What a `listSearch` method gets from n8n when the editor opens a resource locator's list, for tests: the node,
 * its credential's Base URL (the sandbox), the workflow's time zone, and n8n's authenticated request helper (here:
 * the request sent to the sandbox over real HTTP with the API key, and the full response the transport asks for).
 * One helper for every listSearch test; `options` may be just the node type.
 */
export function listSearchContext(
	sandbox: { url: string; account: { apiKey: string } },
	options: { nodeType?: string; timeZone?: string } | string = {},
): ILoadOptionsFunctions {
	const { nodeType, timeZone } = typeof options === 'string' ? { nodeType: options } : options;
	return {
		getNode: () => ({
			name: 'Node',
			type: nodeType ?? 'n8n-nodes-messaging.messagingSms',
			typeVersion: 1,
			parameters: {},
		}),
		getCredentials: async () => ({ baseUrl: sandbox.url }),
		getTimezone: () => timeZone ?? 'UTC',
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				request: { url: string; method: string; qs?: Record<string, unknown> },
			) => {
				const url = new URL(request.url);
				for (const [key, value] of Object.entries(request.qs ?? {}))
					url.searchParams.set(key, String(value));
				const response = await fetch(url, {
					method: request.method,
					headers: { Authorization: `Bearer ${sandbox.account.apiKey}` },
				});
				const text = await response.text();
				let body: unknown = text;
				try {
					body = JSON.parse(text) as unknown;
				} catch {
					// Not JSON: handed on as text, as n8n's helper does.
				}
				return { statusCode: response.status, headers: Object.fromEntries(response.headers), body };
			},
		},
	} as unknown as ILoadOptionsFunctions;
}
