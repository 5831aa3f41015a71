import { checkVariable, isServiceDay } from '../../nodes/MessagingSms/helpers/variables';
import { VariableError, variableEntries } from '../../nodes/shared/items/variables';

describe('variable rules', () => {
	test('date: YYYY-MM-DD with no time, a real day', () => {
		expect(checkVariable('Birthday', 'date', '2018-10-10')).toEqual({
			name: 'Birthday',
			type: 'date',
			value: '2018-10-10',
		});
		for (const bad of ['2018-10-10 23:00:00', '2017-1-1', '2017-02-30', '10.10.2018', 20181010]) {
			expect(() => checkVariable('Birthday', 'date', bad)).toThrow(VariableError);
		}
		expect(() => checkVariable('Birthday', 'date', '2018-10-10 23:00:00')).toThrow(
			'variable "Birthday" is a date, so its value must be YYYY-MM-DD with no time (got "2018-10-10 23:00:00")',
		);
		expect(isServiceDay('2024-02-29')).toBe(true);
		expect(isServiceDay('2023-02-29')).toBe(false);
	});

	test('number: numbers only; numeric strings become numbers', () => {
		expect(checkVariable('Age', 'number', 30)).toEqual({ name: 'Age', type: 'number', value: 30 });
		expect(checkVariable('Age', 'number', ' 12.5 ')).toEqual({
			name: 'Age',
			type: 'number',
			value: 12.5,
		});
		for (const bad of ['thirty', '2018-10-10', '1e3', true])
			expect(() => checkVariable('Age', 'number', bad)).toThrow(VariableError);
		expect(() => checkVariable('Age', 'number', 'thirty')).toThrow(
			'variable "Age" is a number, so its value must be a number (got "thirty")',
		);
	});

	test('string: text, numbers and dates; not objects', () => {
		expect(checkVariable('Name', 'string', 'Ann')).toEqual({
			name: 'Name',
			type: 'string',
			value: 'Ann',
		});
		expect(checkVariable('Code', 'string', 42)).toEqual({
			name: 'Code',
			type: 'string',
			value: 42,
		});
		expect(checkVariable('Day', 'string', '2018-10-10')).toEqual({
			name: 'Day',
			type: 'string',
			value: '2018-10-10',
		});
		expect(() => checkVariable('Obj', 'string', { a: 1 })).toThrow(VariableError);
	});

	test('names, types and empty values', () => {
		expect(() => checkVariable('', 'string', 'x')).toThrow('a variable has no name');
		expect(() => checkVariable('X', 'boolean', 'x')).toThrow(
			'variable "X" has type "boolean"; use string, number or date',
		);
		expect(() => checkVariable('X', 'string', '')).toThrow('variable "X" has no value');
	});

	test('rows and JSON (an object, or a list) give the same entries, names trimmed', () => {
		expect(
			variableEntries(
				'fields',
				[
					{ name: ' Name ', type: 'string', value: 'Ann' },
					{ name: 'Age', type: 'number', value: '30' },
				],
				true,
			),
		).toStrictEqual([
			{ name: 'Name', type: 'string', value: 'Ann' },
			{ name: 'Age', type: 'number', value: '30' },
		]);
		expect(
			variableEntries('json', '{"Name":"Ann","Age":30,"Birthday":"1990-05-01"}'),
		).toStrictEqual([
			{ name: 'Name', type: undefined, value: 'Ann' },
			{ name: 'Age', type: undefined, value: 30 },
			{ name: 'Birthday', type: undefined, value: '1990-05-01' },
		]);
		expect(
			variableEntries('json', [{ name: 'Since', type: 'date', value: '2017-1-1' }, { name: 'X' }]),
		).toStrictEqual([
			{ name: 'Since', type: 'date', value: '2017-1-1' },
			{ name: 'X', type: undefined, value: undefined },
		]);
		expect(variableEntries('json', { Name: 'Ann' })).toStrictEqual([
			{ name: 'Name', type: undefined, value: 'Ann' },
		]);
		expect(variableEntries('json', '  ')).toStrictEqual([]);
		expect(variableEntries('fields', undefined)).toStrictEqual([]);
	});

	test('JSON and names that cannot be read', () => {
		expect(() => variableEntries('json', '{bad json')).toThrow(VariableError);
		expect(() => variableEntries('json', '{bad json')).toThrow(/^is not valid JSON \(.+\)$/);
		expect(() => variableEntries('json', '5')).toThrow(
			'must be a JSON object of variable names and values, or a list of {name, value} objects',
		);
		expect(() => variableEntries('json', 'null', true)).toThrow(
			'must be a JSON object of variable names and values, or a list of {name, type, value} objects',
		);
		expect(() => variableEntries('json', '[{"name":"A","value":1}, 2]', true)).toThrow(
			'entry 2 of the list must be an object {name, type, value} (got 2)',
		);
		expect(() => variableEntries('json', '{" ": 1}')).toThrow('a variable has no name');
		expect(() => variableEntries('fields', [{ name: '', value: 'x' }])).toThrow(
			'a variable has no name',
		);
		expect(() => variableEntries('json', [{ name: 5, value: 'x' }])).toThrow(
			'a variable has no name',
		);
	});
});
