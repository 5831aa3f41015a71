import type { ILoadOptionsFunctions } from 'n8n-workflow';

/**
 * What a `listSearch` method gets from n8n when the editor opens a resource locator's list: the node, the
 * credential, and n8n's authenticated request helper (here: the request sent to the sandbox over real HTTP with
 * the API key, and the full response the transport asks for).
 */
export function listSearchContext(
	sandbox: { url: string; account: { apiKey: string } },
	nodeType: string,
): ILoadOptionsFunctions {
	return {
		getNode: () => ({ name: 'Node', type: nodeType, typeVersion: 1, parameters: {} }),
		getCredentials: async () => ({ baseUrl: sandbox.url }),
		helpers: {
			httpRequestWithAuthentication: async (
				_type: string,
				options: { url: string; method: string; qs?: Record<string, unknown> },
			) => {
				const url = new URL(options.url);
				for (const [key, value] of Object.entries(options.qs ?? {}))
					url.searchParams.set(key, String(value));
				const response = await fetch(url, {
					method: options.method,
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
