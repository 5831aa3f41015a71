import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	readVariables,
	VariableError,
	variablesFields as sharedVariablesFields,
	type VariableEntry,
	type VariablesInput,
} from '../../shared/items/variables';
import { quoteValue } from '../../shared/values/objects';
import { calendarDayProblem } from '../../shared/values/serviceTime';

/** SMS contact variables: the shared variables fields, typed, with the reference's rules for their values. */

export type VariableType = 'string' | 'number' | 'date';

export interface TypedVariable {
	name: string;
	type: VariableType;
	value: string | number;
}

export interface NamedVariable {
	name: string;
	value: string | number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** `YYYY-MM-DD` naming a real day, with no time part. */
export function isServiceDay(value: unknown): value is string {
	const match = typeof value === 'string' ? DAY.exec(value) : null;
	return match !== null && calendarDayProblem(+match[1], +match[2], +match[3]) === undefined;
}

/**
 * Checks one variable and returns the value to send:
 * - `date`: `YYYY-MM-DD`, no time (`2018-10-10 23:00:00` and `2017-1-1` are refused);
 * - `number`: numbers only (numeric strings become numbers);
 * - `string`: text, numbers or `YYYY-MM-DD` dates.
 */
export function checkVariable(name: unknown, type: unknown, value: unknown): TypedVariable {
	const label = typeof name === 'string' ? name.trim() : '';
	if (!label) throw new VariableError('a variable has no name');
	if (type !== 'string' && type !== 'number' && type !== 'date') {
		throw new VariableError(
			`variable "${label}" has type ${JSON.stringify(type)}; use string, number or date`,
		);
	}
	if (value === undefined || value === null || value === '')
		throw new VariableError(`variable "${label}" has no value`);
	if (type === 'date') {
		if (!isServiceDay(value)) {
			throw new VariableError(
				`variable "${label}" is a date, so its value must be YYYY-MM-DD with no time (got ${quoteValue(value)})`,
			);
		}
		return { name: label, type, value };
	}
	if (type === 'number') {
		if (typeof value === 'number' && Number.isFinite(value)) return { name: label, type, value };
		if (typeof value === 'string' && NUMBER.test(value.trim()))
			return { name: label, type, value: Number(value.trim()) };
		throw new VariableError(
			`variable "${label}" is a number, so its value must be a number (got ${quoteValue(value)})`,
		);
	}
	if (typeof value === 'string') return { name: label, type, value };
	if (typeof value === 'number' && Number.isFinite(value)) return { name: label, type, value };
	throw new VariableError(
		`variable "${label}" is a string; its value must be text, a number or a date (got ${quoteValue(value)})`,
	);
}

function inferType(value: unknown): VariableType {
	if (typeof value === 'number') return 'number';
	if (isServiceDay(value)) return 'date';
	return 'string';
}

const variableTypeField: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: [
		{ name: 'String', value: 'string' },
		{ name: 'Number', value: 'number' },
		{ name: 'Date (YYYY-MM-DD)', value: 'date' },
	],
	default: 'string',
	description: 'A date is YYYY-MM-DD with no time; a number accepts numbers only',
};

/**
 * The fields: rows of name, type and value (`typed: false` drops the type: Update Contact Variables), or JSON
 * `{name: value}` (types inferred: numbers → number, `YYYY-MM-DD` → date, anything else → string) or a list of
 * `{name, type, value}` (type optional, inferred the same way).
 */
export function variablesFields(typed: boolean): INodeProperties[] {
	return sharedVariablesFields({
		label: 'Variables',
		typeField: typed ? variableTypeField : undefined,
		jsonDescription: typed
			? 'An object {"Name": "Ann", "Age": 30, "Birthday": "1990-05-01"} (types inferred: numbers → number, YYYY-MM-DD → date) or a list of {name, type, value}'
			: 'An object {"Name": "Ann", "Age": 30} or a list of {name, value}',
	});
}

function typedVariable(entry: VariableEntry, input: VariablesInput): TypedVariable {
	const type = entry.type ?? (input === 'fields' ? 'string' : inferType(entry.value));
	return checkVariable(entry.name, type, entry.value);
}

/** Typed variables (Add With Variables, Update Variables): at least one. */
export function readTyped(context: IExecuteFunctions, itemIndex: number): TypedVariable[] {
	return readVariables(context, itemIndex, {
		label: 'Variables',
		typed: true,
		required: true,
		check: typedVariable,
	});
}

function namedVariable({ name, value }: VariableEntry): NamedVariable {
	if (value === undefined || value === null || value === '')
		throw new VariableError(`variable "${name}" has no value`);
	if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
		throw new VariableError(
			`variable "${name}" must be text, a number or a date (got ${quoteValue(value)})`,
		);
	}
	return { name, value };
}

/** Name/value pairs only (Update Contact Variables: the reference sends no type): at least one. */
export function readNamed(context: IExecuteFunctions, itemIndex: number): NamedVariable[] {
	return readVariables(context, itemIndex, {
		label: 'Variables',
		required: true,
		check: namedVariable,
	});
}
