import type { IDataObject } from 'n8n-workflow';

import { quoteValue } from '../values/objects';
import { calendarDayProblem } from '../values/serviceTime';
import { escapeHtml } from './html';

/**
 * The longest answer a text value may be (a free-text response, a text or email field), in characters. An answer
 * is a person's reply; a 2 MB post is not one, and would be carried through the execution and its storage. The
 * page says so and its inputs carry it as `maxlength`.
 */
export const MAX_ANSWER_CHARACTERS = 10_000;

/**
 * Numbers as a person types them in plain decimal notation: digits, an optional sign and decimal point. JavaScript
 * would also read `0x10` (16), `0b11`, `1e3`, `Infinity` and '' (0); a decimal comma (`1,5`) could be a thousands
 * separator. All are refused with a hint to write the number plainly.
 */
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

const thousands = (count: number) => count.toLocaleString('en-US');

/** Why a text answer is too long, or undefined. */
export function lengthProblem(label: string, text: string): string | undefined {
	return text.length > MAX_ANSWER_CHARACTERS
		? `${label}: at most ${thousands(MAX_ANSWER_CHARACTERS)} characters (this has ${thousands(text.length)})`
		: undefined;
}

/** What the page says under a text input. */
export const LENGTH_NOTE = `At most ${thousands(MAX_ANSWER_CHARACTERS)} characters.`;

export type FieldType = 'text' | 'textarea' | 'number' | 'email' | 'date' | 'dropdown' | 'checkbox';

export interface FormField {
	/** What the person reads above the field. */
	label: string;
	/** The field's key in the answer (`$json.data.<key>`): the Output Key, else the label as typed. */
	key: string;
	type: FieldType;
	required: boolean;
	placeholder: string;
	/** Dropdown and checkbox choices. */
	options: string[];
	/** Review and Edit: the value the page shows first. */
	value?: string;
}

const TYPES: FieldType[] = ['text', 'number', 'email', 'date', 'dropdown', 'checkbox'];
const REVIEW_TYPES: FieldType[] = ['text', 'textarea', 'number', 'email', 'date', 'dropdown'];
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The Form Elements parameter as fields, or the problem with it (no field, a field without a label, two with the
 * same label or output key, a choice field without choices): the operation refuses to send then, so no link leads to a form
 * that cannot work.
 */
export function formFieldsOf(
	value: unknown,
	review = false,
): { fields: FormField[] } | { problem: string } {
	const rows = Array.isArray(value) ? (value as IDataObject[]) : [];
	if (rows.length === 0) return { problem: 'no field: add at least one form element' };
	const fields: FormField[] = [];
	for (const [index, row] of rows.entries()) {
		const label = String(row.fieldLabel ?? '').trim();
		if (!label) return { problem: `element ${index + 1} has no Field Name` };
		if (fields.some((field) => field.label === label))
			return { problem: `two elements are named "${label}"` };
		const key = String(row.fieldKey ?? '').trim() || label;
		if (fields.some((field) => field.key === key))
			return { problem: `two elements have the output key "${key}"` };
		const type = String(row.fieldType ?? 'text') as FieldType;
		if (!(review ? REVIEW_TYPES : TYPES).includes(type))
			return { problem: `"${label}" has an unknown type "${type}"` };
		const options = (((row.fieldOptions as IDataObject | undefined)?.values as IDataObject[]) ?? [])
			.map((entry) => String(entry.option ?? '').trim())
			.filter((option) => option !== '');
		if ((type === 'dropdown' || type === 'checkbox') && options.length === 0)
			return { problem: `"${label}" offers no option: add Field Options` };
		const field: FormField = {
			label,
			key,
			type,
			required: row.requiredField === true,
			placeholder: String(row.placeholder ?? ''),
			options,
		};
		if (review) {
			if (['approved', 'comment', 'respondedAt'].includes(label))
				return {
					problem: `"${label}" is a name the answer uses itself: choose another Field Name`,
				};
			const given = row.fieldValue;
			if (given !== undefined && given !== null && typeof given === 'object')
				return {
					problem: `"${label}" is pre-filled with ${quoteValue(given)}: give text or a number`,
				};
			field.value = given === undefined || given === null ? '' : String(given).trim();
			const problem = field.value === '' ? undefined : valueProblem(field, field.value);
			if (problem)
				return { problem: `"${label}" is pre-filled with ${quoteValue(field.value)}: ${problem}` };
			const tooLong = lengthProblem(label, field.value);
			if (tooLong) return { problem: `pre-filled ${tooLong}` };
		}
		fields.push(field);
	}
	return { fields };
}

const inputName = (index: number) => `field-${index}`;

/** The form's inputs, every value escaped; `values` refills them after a refused submission. */
export function formInputs(fields: FormField[], values: IDataObject = {}): string {
	return fields
		.map((field, index) => {
			const name = inputName(index);
			const id = `f${index}`;
			const label = `${escapeHtml(field.label)}${field.required ? ' *' : ''}`;
			const required = field.required ? ' required' : '';
			const given = name in values ? values[name] : field.value;
			if (field.type === 'textarea') {
				const text = typeof given === 'string' ? given.slice(0, MAX_ANSWER_CHARACTERS) : '';
				return `<label for="${id}">${label}</label><textarea id="${id}" name="${name}" maxlength="${MAX_ANSWER_CHARACTERS}"${required}>${escapeHtml(text)}</textarea>`;
			}
			if (field.type === 'checkbox') {
				const chosen = new Set(([] as unknown[]).concat(given ?? []).map(String));
				const boxes = field.options
					.map(
						(option, choice) =>
							`<label class="check" for="${id}-${choice}"><input type="checkbox" id="${id}-${choice}" name="${name}" value="${escapeHtml(option)}"${chosen.has(option) ? ' checked' : ''}>${escapeHtml(option)}</label>`,
					)
					.join('');
				return `<fieldset style="border:0;padding:0;margin:0"><legend><label>${label}</label></legend>${boxes}</fieldset>`;
			}
			if (field.type === 'dropdown') {
				const options = field.options
					.map(
						(option) =>
							`<option value="${escapeHtml(option)}"${given === option ? ' selected' : ''}>${escapeHtml(option)}</option>`,
					)
					.join('');
				return `<label for="${id}">${label}</label><select id="${id}" name="${name}"${required}><option value="">Choose…</option>${options}</select>`;
			}
			// A refused answer is refilled, but never beyond what the field takes.
			const value =
				typeof given === 'string'
					? ` value="${escapeHtml(given.slice(0, MAX_ANSWER_CHARACTERS))}"`
					: '';
			const placeholder = field.placeholder
				? ` placeholder="${escapeHtml(field.placeholder)}"`
				: '';
			const step = field.type === 'number' ? ' step="any"' : '';
			const limited = field.type === 'text' || field.type === 'email';
			const maxlength = limited ? ` maxlength="${MAX_ANSWER_CHARACTERS}"` : '';
			return `<label for="${id}">${label}</label><input type="${field.type}" id="${id}" name="${name}"${value}${placeholder}${step}${maxlength}${required}>`;
		})
		.join('');
}

/**
 * A posted text as typed: browsers send a text area's line breaks as CRLF (the HTML form encoding), so a draft
 * pre-filled with "\n" and left alone would come back with "\r\n". Every line break becomes "\n", then the ends are
 * trimmed.
 */
export function postedText(raw: string): string {
	return raw.replace(/\r\n?/g, '\n').trim();
}

/**
 * A submission read by the fields' rules: each value under its field's label, numbers as numbers, checkboxes as
 * the list of ticked options (as n8n's own forms give them); empty optional fields are null. A missing required
 * value, a value of the wrong form or a choice the form does not offer is a problem: the page shows it again.
 */
export function readSubmission(
	fields: FormField[],
	body: IDataObject,
): { data: IDataObject } | { problems: string[] } {
	const data: IDataObject = {};
	const problems: string[] = [];
	for (const [index, field] of fields.entries()) {
		const raw = body[inputName(index)];
		if (field.type === 'checkbox') {
			const ticked = [...new Set(([] as unknown[]).concat(raw ?? []).map(String))];
			if (ticked.some((option) => !field.options.includes(option)))
				problems.push(`${field.label}: choose from the options shown`);
			else if (field.required && ticked.length === 0)
				problems.push(`${field.label}: tick at least one`);
			data[field.key] = ticked;
			continue;
		}
		if (Array.isArray(raw) || (raw !== undefined && typeof raw !== 'string')) {
			problems.push(`${field.label}: give one value`);
			continue;
		}
		const text = typeof raw === 'string' ? postedText(raw) : '';
		if (text === '') {
			if (field.required) problems.push(`${field.label}: required`);
			data[field.key] = null;
			continue;
		}
		const tooLong = lengthProblem(field.label, text);
		if (tooLong) {
			problems.push(tooLong);
			continue;
		}
		const problem = valueProblem(field, text);
		if (problem) problems.push(`${field.label}: ${problem}`);
		else data[field.key] = field.type === 'number' ? Number(text) : text;
	}
	return problems.length ? { problems } : { data };
}

/**
 * Why a (non-empty, trimmed) value is not one of the field's type, or undefined. Read as strictly as the page
 * shows the field: a number in plain decimal notation, a date that exists (2026-02-31 does not), an address, an
 * offered choice.
 */
export function valueProblem(field: FormField, text: string): string | undefined {
	if (field.type === 'number') {
		if (!PLAIN_DECIMAL.test(text) || !Number.isFinite(Number(text)))
			return 'give a number in plain decimal notation, such as 1250 or 1250.50 (no exponent, no hex, no decimal comma)';
	} else if (field.type === 'email') {
		if (!EMAIL.test(text)) return 'give an email address';
	} else if (field.type === 'date') {
		if (!DAY.test(text)) return 'give a date (YYYY-MM-DD)';
		const [year, month, day] = text.split('-').map(Number);
		const problem = calendarDayProblem(year, month, day);
		if (problem) return `${text} is not a date: ${problem}`;
	} else if (field.type === 'dropdown') {
		if (!field.options.includes(text)) return 'choose one of the options';
	}
	return undefined;
}
