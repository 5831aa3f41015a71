import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The canvas subtitle: the chosen operation's action, as n8n's nodes panel words it ("Send an SMS to phone
 * numbers"), instead of the raw values ("sendToNumbers: campaign").
 */
export function actionSubtitle(properties: INodeProperties[]): string {
	const actions: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		const resources = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const resource of resources)
			for (const option of (property.options ?? []) as INodePropertyOptions[])
				if (option.action) actions[`${resource}:${String(option.value)}`] = option.action;
	}
	return `={{ ${JSON.stringify(actions)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}
