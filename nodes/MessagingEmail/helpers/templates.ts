import type { IDataObject } from 'n8n-workflow';

import { apiPath, type MessagingClient } from '../../shared/transport/client';
import { isRecord } from '../../shared/values/objects';

/**
 * A stored template's variables. The service lists none apart (docs/service-notes.md, Lists used by the pickers):
 * `GET /template/{id}` gives the template's HTML as Base64 in `body`, and its variables are the `{{name}}`
 * placeholders in that HTML (spaces inside the braces allowed). Names in order of first use, each once.
 */
export function variableNamesOf(html: string): string[] {
	const names = new Set<string>();
	for (const match of html.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)) names.add(match[1]);
	return [...names];
}

/** The HTML in a template's `body`: Base64 as the service gives it; a body that is not Base64 is taken as HTML. */
export function templateHtmlOf(detail: unknown): string | undefined {
	const body = isRecord(detail) ? detail.body : undefined;
	if (typeof body !== 'string') return undefined;
	const compact = body.replace(/\s+/g, '');
	return /^[A-Za-z0-9+/]*={0,2}$/.test(compact) && compact.length % 4 === 0
		? Buffer.from(compact, 'base64').toString('utf8')
		: body;
}

/** The variable names of template `id`, read from the service; undefined when its answer holds no body. */
export async function templateVariableNames(
	client: MessagingClient,
	id: string,
): Promise<string[] | undefined> {
	const detail = await client.request<IDataObject>({
		method: 'GET',
		path: apiPath`/template/${id}`,
	});
	const html = templateHtmlOf(detail);
	return html === undefined ? undefined : variableNamesOf(html);
}
