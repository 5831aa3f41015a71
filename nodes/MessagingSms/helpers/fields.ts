import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/items';
import { batchingField as sharedBatchingField } from '../../shared/bulk';
import { DEFAULT_BATCH_SIZE } from './bulk';
import { parsePhones } from '../../shared/phones';
import {
	readNamedVariables,
	readTypedVariables,
	VariableError,
	type NamedVariable,
	type TypedVariable,
} from './variables';
import { readParameter } from '../../shared/parameters';

/** Field builders shared by the SMS operations (each operation adds its own displayOptions). */

export const addressBookIdField: INodeProperties = {
	displayName: 'Mailing List ID',
	name: 'addressBookId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1234567',
	description:
		"ID of the mailing list (address book) that holds the phone numbers: in the service's web app under Mailing Lists, the number in the list's address",
};

/** The same field where a list is one of two choices (Get Cost: a list or phones). */
export const optionalAddressBookIdField: INodeProperties = {
	...addressBookIdField,
	required: false,
	description:
		"Price a campaign to this mailing list (in the service's web app under Mailing Lists, the number in the list's address). Give either this or Phones, not both.",
};

/** The one phone of Get and Update Contact Variables. */
export function phoneField(description?: string): INodeProperties {
	return {
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+380 98 623 5698',
		...(description ? { description } : {}),
	};
}

/** Exactly one valid phone, normalised; anything else fails the item. */
export function readPhone(context: IExecuteFunctions, itemIndex: number): string {
	const { phones, invalid } = parsePhones(
		readParameter(context, 'phone', itemIndex, '', { list: true }),
	);
	if (invalid.length || phones.length !== 1) {
		throw invalidInput(
			context,
			itemIndex,
			'Phone',
			invalid.length
				? `not a valid phone number: "${invalid[0]}"`
				: 'give exactly one phone number',
		);
	}
	return phones[0];
}

export function phonesField(
	description = 'Phone numbers in international format',
): INodeProperties {
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

export const batchingField = sharedBatchingField({
	unit: 'phone numbers',
	defaultSize: DEFAULT_BATCH_SIZE,
	note: 'the service documents no limit; requests that carry phones in the URL (Check Numbers) use at most 250',
});

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
	const mode = readParameter(context, 'variablesMode', itemIndex, 'fields') as 'fields' | 'json';
	const rows = ((readParameter(context, 'variablesUi', itemIndex, {}) as IDataObject).variable ??
		[]) as IDataObject[];
	const json =
		mode === 'json' ? readParameter(context, 'variablesJson', itemIndex, '{}') : undefined;
	return { mode, rows, json };
}

export function readTyped(
	context: IExecuteFunctions,
	itemIndex: number,
	required = true,
): TypedVariable[] {
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

/** A positive integer id from a number or string parameter, or the value of a resource locator. */
export function readId(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): number {
	const raw = readParameter(context, name, itemIndex, '', { extractValue: true }) as unknown;
	const id =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)
				? Number(raw)
				: NaN;
	if (!Number.isSafeInteger(id) || id < 1) {
		throw invalidInput(
			context,
			itemIndex,
			displayName,
			`must be a positive whole number (got ${JSON.stringify(raw)})`,
		);
	}
	return id;
}
