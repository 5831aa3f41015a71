import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../values/inputErrors';
import { readParameter } from './parameters';
import { isRecord, quoteValue } from '../values/objects';

/**
 * Variables: one design for every operation that sends named values (SMS contact variables, email template
 * variables). Three parameters:
 * - `variablesInput`: Fields or JSON;
 * - `variablesUi.variable`: rows of name, value and, where the service types variables, type;
 * - `variablesJson`: an object `{name: value}` or a list of `{name, value}` (and `type`) objects.
 * One reader turns either input into entries; what a value may be is the service's rule, given by the caller.
 */

export type VariablesInput = 'fields' | 'json';

/** Thrown by a variable rule; the message says which rule (the reader adds the parameter and the item). */
export class VariableError extends Error {}

export interface VariablesFieldsOptions {
	/**
	 * What users see: "Variables", "Template Variables". The selector is "<label> Input", the rows "<label>",
	 * the JSON "<label> (JSON)"; errors name the one the variables came from.
	 */
	label: string;
	/** The Type column (named `type`), where the service types variables. */
	typeField?: INodeProperties;
	/** Changes to the Name column (still named `name`), e.g. names offered from a list (Email's template variables). */
	nameField?: Partial<INodeProperties>;
	/** What the JSON takes, with an example. */
	jsonDescription: string;
	/** Conditions every field shows under besides the input choice (Email: Content is Template). */
	show?: IDisplayOptions['show'];
}

export function variablesFields(options: VariablesFieldsOptions): INodeProperties[] {
	const { label, typeField, nameField, jsonDescription } = options;
	const displayOptions = (input?: VariablesInput) => {
		const show = { ...options.show, ...(input ? { variablesInput: [input] } : {}) };
		return Object.keys(show).length ? { displayOptions: { show } } : {};
	};
	return [
		{
			displayName: `${label} Input`,
			name: 'variablesInput',
			type: 'options',
			options: [
				{ name: 'Fields', value: 'fields', description: 'One row per variable' },
				{
					name: 'JSON',
					value: 'json',
					description: 'An object of names and values, or a list (e.g. from an expression)',
				},
			],
			default: 'fields',
			...displayOptions(),
		},
		{
			displayName: label,
			name: 'variablesUi',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Variable',
			default: {},
			...displayOptions('fields'),
			options: [
				{
					displayName: 'Variable',
					name: 'variable',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '', ...nameField },
						...(typeField ? [typeField] : []),
						{ displayName: 'Value', name: 'value', type: 'string', default: '' },
					],
				},
			],
		},
		{
			displayName: `${label} (JSON)`,
			name: 'variablesJson',
			type: 'json',
			default: '{}',
			description: jsonDescription,
			...displayOptions('json'),
		},
	];
}

/** One variable as given: a row, a member of a JSON object, or an entry of a JSON list. */
export interface VariableEntry {
	/** Trimmed, never empty. */
	name: string;
	/** A row's Type or a list entry's `type`; undefined for a JSON object's members and untyped rows. */
	type?: unknown;
	/** As given: text from a row (the parameter reader makes numbers and booleans text), any JSON value. */
	value: unknown;
}

function entryOf(name: unknown, type: unknown, value: unknown): VariableEntry {
	const label = typeof name === 'string' ? name.trim() : '';
	if (!label) throw new VariableError('a variable has no name');
	return { name: label, type, value };
}

/**
 * The entries of either input. Rows: `[{name, type?, value}]`. JSON: an object `{name: value}`, or a list of
 * `{name, value}` objects (`type` too where variables are typed); text is parsed, an empty text is no variable.
 */
export function variableEntries(
	input: VariablesInput,
	source: unknown,
	typed = false,
): VariableEntry[] {
	const shape = typed ? '{name, type, value}' : '{name, value}';
	if (input === 'fields') {
		const rows = Array.isArray(source) ? source : [];
		return rows.map((row) => {
			const fields = isRecord(row) ? row : {};
			return entryOf(fields.name, fields.type, fields.value);
		});
	}
	let parsed = source;
	if (typeof source === 'string') {
		if (!source.trim()) return [];
		let problem: string | undefined;
		try {
			parsed = JSON.parse(source) as unknown;
		} catch (error) {
			problem = (error as Error).message;
		}
		if (problem !== undefined) throw new VariableError(`is not valid JSON (${problem})`);
	}
	if (Array.isArray(parsed)) {
		return parsed.map((entry, index) => {
			if (!isRecord(entry))
				throw new VariableError(
					`entry ${index + 1} of the list must be an object ${shape} (got ${quoteValue(entry)})`,
				);
			return entryOf(entry.name, entry.type, entry.value);
		});
	}
	if (!isRecord(parsed))
		throw new VariableError(
			`must be a JSON object of variable names and values, or a list of ${shape} objects`,
		);
	return Object.entries(parsed).map(([name, value]) => entryOf(name, undefined, value));
}

export interface ReadVariablesOptions<T> {
	/** The label given to variablesFields: errors name "<label>" (rows) or "<label> (JSON)". */
	label: string;
	/** The rows have a Type column (only changes what error messages ask for). */
	typed?: boolean;
	/** At least one variable. */
	required?: boolean;
	/**
	 * The service's rule for one variable: what to send, or a VariableError saying what is wrong (whatever is
	 * thrown fails the item with its message, naming the parameter).
	 */
	check: (entry: VariableEntry, input: VariablesInput) => T;
}

/** The variables of one item, checked; a problem fails the item naming the parameter it came from. */
export function readVariables<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	options: ReadVariablesOptions<T>,
): T[] {
	const input: VariablesInput =
		readParameter(context, 'variablesInput', itemIndex, 'fields') === 'json' ? 'json' : 'fields';
	const source =
		input === 'json'
			? readParameter(context, 'variablesJson', itemIndex, '{}')
			: ((readParameter(context, 'variablesUi', itemIndex, {}) as IDataObject | undefined)
					?.variable ?? []);
	try {
		const entries = variableEntries(input, source, options.typed);
		if (options.required && !entries.length) throw new VariableError('add at least one variable');
		return entries.map((entry) => options.check(entry, input));
	} catch (error) {
		throw invalidInput(
			context,
			itemIndex,
			input === 'json' ? `${options.label} (JSON)` : options.label,
			(error as Error).message,
		);
	}
}
