import type { IDataObject } from 'n8n-workflow';

/** SMS contact variables and the reference's rules for their values. */

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
	if (!match) return false;
	const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
	return date.getUTCMonth() === +match[2] - 1 && date.getUTCDate() === +match[3];
}

/** Thrown for a value that breaks the rules; the message says which rule. */
export class VariableError extends Error {}

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
				`variable "${label}" is a date, so its value must be YYYY-MM-DD with no time (got ${JSON.stringify(value)})`,
			);
		}
		return { name: label, type, value };
	}
	if (type === 'number') {
		if (typeof value === 'number' && Number.isFinite(value)) return { name: label, type, value };
		if (typeof value === 'string' && NUMBER.test(value.trim()))
			return { name: label, type, value: Number(value.trim()) };
		throw new VariableError(
			`variable "${label}" is a number, so its value must be a number (got ${JSON.stringify(value)})`,
		);
	}
	if (typeof value === 'string') return { name: label, type, value };
	if (typeof value === 'number' && Number.isFinite(value)) return { name: label, type, value };
	throw new VariableError(
		`variable "${label}" is a string; its value must be text, a number or a date (got ${JSON.stringify(value)})`,
	);
}

function inferType(value: unknown): VariableType {
	if (typeof value === 'number') return 'number';
	if (isServiceDay(value)) return 'date';
	return 'string';
}

/**
 * Variables from the node's two input modes. Rows: `[{name, type, value}]`. JSON: an object `{name: value}`
 * (type inferred: numbers → number, `YYYY-MM-DD` → date, anything else → string) or an array of
 * `{name, type, value}` objects (type optional, inferred the same way).
 */
export function readTypedVariables(
	mode: 'fields' | 'json',
	rows: IDataObject[],
	json: unknown,
): TypedVariable[] {
	if (mode === 'fields')
		return rows.map((row) => checkVariable(row.name, row.type ?? 'string', row.value));
	const parsed = parseJson(json);
	if (Array.isArray(parsed)) {
		return parsed.map((entry) => {
			if (typeof entry !== 'object' || entry === null)
				throw new VariableError('each entry must be an object with name, type and value');
			const variable = entry as IDataObject;
			return checkVariable(
				variable.name,
				variable.type ?? inferType(variable.value),
				variable.value,
			);
		});
	}
	return Object.entries(parsed).map(([name, value]) =>
		checkVariable(name, inferType(value), value),
	);
}

/** Name/value pairs only (Update Contact Variables): rows or a JSON object `{name: value}`. */
export function readNamedVariables(
	mode: 'fields' | 'json',
	rows: IDataObject[],
	json: unknown,
): NamedVariable[] {
	const pairs: Array<[unknown, unknown]> =
		mode === 'fields'
			? rows.map((row) => [row.name, row.value])
			: (() => {
					const parsed = parseJson(json);
					return Array.isArray(parsed)
						? parsed.map(
								(entry) =>
									[(entry as IDataObject)?.name, (entry as IDataObject)?.value] as [
										unknown,
										unknown,
									],
							)
						: Object.entries(parsed);
				})();
	return pairs.map(([name, value]) => {
		const label = typeof name === 'string' ? name.trim() : '';
		if (!label) throw new VariableError('a variable has no name');
		if (value === undefined || value === null || value === '')
			throw new VariableError(`variable "${label}" has no value`);
		if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
			throw new VariableError(
				`variable "${label}" must be text, a number or a date (got ${JSON.stringify(value)})`,
			);
		}
		return { name: label, value };
	});
}

function parseJson(json: unknown): IDataObject | IDataObject[] {
	let value = json;
	if (typeof value === 'string') {
		if (!value.trim()) return {};
		let parsed: unknown = undefined;
		try {
			parsed = JSON.parse(value);
		} catch {
			parsed = undefined;
		}
		if (parsed === undefined) throw new VariableError('the JSON is not valid');
		value = parsed;
	}
	if (typeof value !== 'object' || value === null)
		throw new VariableError(
			'give a JSON object {"name": value} or an array of {name, type, value}',
		);
	return value as IDataObject | IDataObject[];
}
