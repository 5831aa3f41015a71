import type { IDataObject } from 'n8n-workflow';

import { escapeHtml } from './html';

export type FieldType = 'text' | 'number' | 'email' | 'date' | 'dropdown' | 'checkbox';

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
}

const TYPES: FieldType[] = ['text', 'number', 'email', 'date', 'dropdown', 'checkbox'];
const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The Form Elements parameter as fields, or the problem with it (no field, a field without a label, two with the
 * same label or output key, a choice field without choices): the operation refuses to send then, so no link leads to a form
 * that cannot work.
 */
export function formFieldsOf(value: unknown): { fields: FormField[] } | { problem: string } {
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
		if (!TYPES.includes(type)) return { problem: `"${label}" has an unknown type "${type}"` };
		const options = (((row.fieldOptions as IDataObject | undefined)?.values as IDataObject[]) ?? [])
			.map((entry) => String(entry.option ?? '').trim())
			.filter((option) => option !== '');
		if ((type === 'dropdown' || type === 'checkbox') && options.length === 0)
			return { problem: `"${label}" offers no option: add Field Options` };
		fields.push({
			label,
			key,
			type,
			required: row.requiredField === true,
			placeholder: String(row.placeholder ?? ''),
			options,
		});
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
			const given = values[name];
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
			const value = typeof given === 'string' ? ` value="${escapeHtml(given)}"` : '';
			const placeholder = field.placeholder
				? ` placeholder="${escapeHtml(field.placeholder)}"`
				: '';
			const step = field.type === 'number' ? ' step="any"' : '';
			return `<label for="${id}">${label}</label><input type="${field.type}" id="${id}" name="${name}"${value}${placeholder}${step}${required}>`;
		})
		.join('');
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
			const ticked = ([] as unknown[]).concat(raw ?? []).map(String);
			if (ticked.some((option) => !field.options.includes(option)))
				problems.push(`${field.label}: choose from the options shown`);
			else if (field.required && ticked.length === 0)
				problems.push(`${field.label}: tick at least one`);
			data[field.key] = ticked;
			continue;
		}
		const text = typeof raw === 'string' ? raw.trim() : '';
		if (Array.isArray(raw)) {
			problems.push(`${field.label}: give one value`);
			continue;
		}
		if (text === '') {
			if (field.required) problems.push(`${field.label}: required`);
			data[field.key] = null;
			continue;
		}
		if (field.type === 'number') {
			const number = Number(text);
			if (!Number.isFinite(number)) problems.push(`${field.label}: give a number`);
			data[field.key] = number;
		} else if (field.type === 'email' && !EMAIL.test(text)) {
			problems.push(`${field.label}: give an email address`);
		} else if (field.type === 'date' && !DAY.test(text)) {
			problems.push(`${field.label}: give a date (YYYY-MM-DD)`);
		} else if (field.type === 'dropdown' && !field.options.includes(text)) {
			problems.push(`${field.label}: choose one of the options`);
		} else {
			data[field.key] = text;
		}
	}
	return problems.length ? { problems } : { data };
}
