import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

/**
 * A required resource locator whose first mode searches the account ("From List") and whose second takes the value
 * typed (an ID, a name, an address). Reading it: readParameter(…, { extractValue: true }).
 */
export function listOrTypedLocator(options: {
	name: string;
	displayName: string;
	description: string;
	searchListMethod: string;
	listPlaceholder: string;
	/** The second mode, a text box (its `type` is added here). */
	typed: Omit<INodePropertyMode, 'type'>;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: options.listPlaceholder,
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{ ...options.typed, type: 'string' },
		],
	};
}
