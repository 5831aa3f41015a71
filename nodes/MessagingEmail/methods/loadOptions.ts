import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { MessagingClient } from '../../shared/transport/client';
import { templateVariableNames } from '../helpers/templates';

/**
 * The chosen template's variable names (GET /template/{id}, its `{{name}}` placeholders), offered in Template
 * Variables → Name. No template yet, or one given by an expression the editor cannot resolve here: no names (a
 * name can still be typed as an expression).
 */
export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const chosen = this.getCurrentNodeParameter('templateId', { extractValue: true });
	const id =
		typeof chosen === 'number' ? String(chosen) : typeof chosen === 'string' ? chosen.trim() : '';
	if (!id || id.startsWith('=')) return [];
	const names = (await templateVariableNames(new MessagingClient(this), id)) ?? [];
	return names.map((name) => ({
		name,
		value: name,
		description: `Used in the template as {{${name}}}`,
	}));
}
