import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readDateParameter } from '../../shared/dates';
import { invalidInput } from '../../shared/items';
import { DEFAULT_BATCH_SIZE } from './bulk';
import { readNamedVariables, readTypedVariables, VariableError, type NamedVariable, type TypedVariable } from './variables';

/** Field builders shared by the SMS operations (each operation adds its own displayOptions). */

export const addressBookIdField: INodeProperties = {
	displayName: 'Mailing List ID',
	name: 'addressBookId',
	type: 'number',
	default: 0,
	required: true,
	typeOptions: { minValue: 1, numberPrecision: 0 },
	description: 'ID of the mailing list (address book) that holds the phone numbers',
};

export function phonesField(description = 'Phone numbers in international format'): INodeProperties {
	return {
		displayName: 'Phones',
		name: 'phones',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+380 98 623 5698, 380631234567',
		description: `${description}. A list, a comma- or newline-separated string, or one per item (e.g. an expression giving one phone). Spaces, dashes, brackets and a leading + are removed.`,
	};
}

export const batchingField: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Combine Items',
			name: 'combineItems',
			type: 'boolean',
			default: true,
			description:
				'Whether to combine the phones of all input items (per mailing list / settings) into as few requests as possible. Off: each item is sent on its own.',
		},
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_BATCH_SIZE,
			description:
				'Max phone numbers per request. The service documents no limit; requests that carry phones in the URL (Check Numbers) use at most 250.',
		},
	],
};

const variableTypeOptions = [
	{ name: 'String', value: 'string' },
	{ name: 'Number', value: 'number' },
	{ name: 'Date (YYYY-MM-DD)', value: 'date' },
];

/** Variables as name/type/value rows or JSON. `typed: false` drops the type (Update Contact Variables). */
export function variablesFields(typed = true): INodeProperties[] {
	return [
		{
			displayName: 'Variables Input',
			name: 'variablesMode',
			type: 'options',
			options: [
				{ name: 'Fields', value: 'fields' },
				{ name: 'JSON', value: 'json' },
			],
			default: 'fields',
		},
		{
			displayName: 'Variables',
			name: 'variablesUi',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add variable',
			default: {},
			displayOptions: { show: { variablesMode: ['fields'] } },
			options: [
				{
					displayName: 'Variable',
					name: 'variable',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '' },
						...(typed
							? [
									{
										displayName: 'Type',
										name: 'type',
										type: 'options',
										options: variableTypeOptions,
										default: 'string',
										description: 'A date is YYYY-MM-DD with no time; a number accepts numbers only',
									} as INodeProperties,
								]
							: []),
						{ displayName: 'Value', name: 'value', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: 'Variables (JSON)',
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			displayOptions: { show: { variablesMode: ['json'] } },
			description: typed
				? 'An object {"Name": "Ann", "Age": 30, "Birthday": "1990-05-01"} (types inferred: numbers → number, YYYY-MM-DD → date) or an array of {name, type, value}'
				: 'An object {"Name": "Ann", "Age": 30}',
		},
	];
}

function readVariableInput(context: IExecuteFunctions, itemIndex: number) {
	const mode = context.getNodeParameter('variablesMode', itemIndex, 'fields') as 'fields' | 'json';
	const rows = ((context.getNodeParameter('variablesUi', itemIndex, {}) as IDataObject).variable ?? []) as IDataObject[];
	const json = mode === 'json' ? context.getNodeParameter('variablesJson', itemIndex, '{}') : undefined;
	return { mode, rows, json };
}

export function readTyped(context: IExecuteFunctions, itemIndex: number, required = true): TypedVariable[] {
	const { mode, rows, json } = readVariableInput(context, itemIndex);
	try {
		const variables = readTypedVariables(mode, rows, json);
		if (required && !variables.length) throw new VariableError('add at least one variable');
		return variables;
	} catch (error) {
		throw invalidInput(context, itemIndex, 'Variables', (error as Error).message);
	}
}

export function readNamed(context: IExecuteFunctions, itemIndex: number): NamedVariable[] {
	const { mode, rows, json } = readVariableInput(context, itemIndex);
	try {
		const variables = readNamedVariables(mode, rows, json);
		if (!variables.length) throw new VariableError('add at least one variable');
		return variables;
	} catch (error) {
		throw invalidInput(context, itemIndex, 'Variables', (error as Error).message);
	}
}

/** A positive integer id from a number or string parameter. */
export function readId(context: IExecuteFunctions, itemIndex: number, name: string, displayName: string): number {
	const raw = context.getNodeParameter(name, itemIndex, '') as unknown;
	const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
	if (!Number.isSafeInteger(id) || id < 1) {
		throw invalidInput(context, itemIndex, displayName, `must be a positive whole number (got ${JSON.stringify(raw)})`);
	}
	return id;
}

// ---- campaign fields ----

export const SENDER_PATTERN = /^[A-Za-z0-9]{1,11}$/;

export const senderField: INodeProperties = {
	displayName: 'Sender Name or ID',
	name: 'sender',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getSenders' },
	default: '',
	required: true,
	description:
		'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
};

export function readSender(context: IExecuteFunctions, itemIndex: number): string {
	const sender = String(context.getNodeParameter('sender', itemIndex, '') ?? '').trim();
	if (!sender) throw invalidInput(context, itemIndex, 'Sender Name or ID', 'no sender given');
	if (!SENDER_PATTERN.test(sender)) {
		throw invalidInput(
			context,
			itemIndex,
			'Sender Name or ID',
			`"${sender}" is not valid: a sender is letters and digits only (no spaces or symbols), at most 11 characters`,
		);
	}
	return sender;
}

export const bodyField: INodeProperties = {
	displayName: 'Message',
	name: 'body',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	required: true,
	description: 'Text of the SMS',
};

export function readBody(context: IExecuteFunctions, itemIndex: number): string {
	const body = String(context.getNodeParameter('body', itemIndex, '') ?? '');
	if (!body.trim()) throw invalidInput(context, itemIndex, 'Message', 'the message is empty');
	return body;
}

export const routeField: INodeProperties = {
	displayName: 'Route',
	name: 'route',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add country route',
	default: {},
	description:
		"Route per recipient country. Some operators require one; without a registered sender ID for a country, use the international route.",
	options: [
		{
			displayName: 'Country Route',
			name: 'pairs',
			values: [
				{
					displayName: 'Country Code',
					name: 'country',
					type: 'string',
					default: '',
					placeholder: 'UA',
					description: 'Two-letter country code',
				},
				{
					displayName: 'Route',
					name: 'route',
					type: 'options',
					options: [
						{ name: 'National', value: 'national' },
						{ name: 'International', value: 'international' },
					],
					default: 'national',
				},
			],
		},
	],
};

/** The route collection as the service's `{ "UA": "national" }`; undefined when empty. */
export function readRoute(context: IExecuteFunctions, itemIndex: number, parameter: string): IDataObject | undefined {
	const pairs = ((context.getNodeParameter(parameter, itemIndex, {}) as IDataObject).pairs ?? []) as IDataObject[];
	if (!pairs.length) return undefined;
	const route: IDataObject = {};
	for (const pair of pairs) {
		const country = String(pair.country ?? '').trim().toUpperCase();
		if (!/^[A-Z]{2}$/.test(country)) {
			throw invalidInput(context, itemIndex, 'Route', `"${String(pair.country ?? '')}" is not a two-letter country code`);
		}
		const value = String(pair.route ?? '').trim();
		if (!value) throw invalidInput(context, itemIndex, 'Route', `no route given for ${country}`);
		route[country] = value;
	}
	return route;
}

export function campaignOptionsField(withDynamicList: boolean): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Dry Run',
				name: 'dryRun',
				type: 'boolean',
				default: false,
				description:
					'Whether to only form the campaign without sending it (the service\'s test mode: the campaign ID is 0 and it is not listed)',
			},
			{ ...routeField },
			{
				displayName: 'Send At',
				name: 'sendDate',
				type: 'dateTime',
				default: '',
				description: "When to send, in the workflow's time zone. Empty: as soon as moderation allows.",
			},
			{
				displayName: 'Transliterate',
				name: 'transliterate',
				type: 'boolean',
				default: false,
				description: 'Whether to transliterate the message into Latin letters (cheaper, longer SMS parts)',
			},
			...(withDynamicList
				? [
						{
							displayName: 'Use Dynamic List',
							name: 'useDynamicList',
							type: 'boolean',
							default: false,
							description:
								'Whether a scheduled campaign also reaches contacts added to the mailing list after it was created and before it is sent (paid plans)',
						} as INodeProperties,
					]
				: []),
		],
	};
}

/** Campaign settings common to Create for List and Send to Numbers, in the service's keys. */
export function readCampaignOptions(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings: IDataObject = { transliterate: options.transliterate === true ? 1 : 0 };
	const route = readRoute(context, itemIndex, 'options.route');
	if (route) settings.route = route;
	const date = readDateParameter(context, itemIndex, options.sendDate, 'Send At');
	if (date) settings.date = date;
	if (options.dryRun === true) settings.emulate = 1;
	if (options.useDynamicList === true) settings.use_dynamic_list = true;
	return settings;
}
