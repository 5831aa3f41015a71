import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readDateParameter } from '../../shared/dates';

import { invalidInput } from '../../shared/items';
import { isEmailAddress } from './addresses';
import { readParameter, readText } from '../../shared/parameters';

/** A required text parameter, trimmed; names the parameter and item when empty. */
export function requiredString(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): string {
	const text = readText(context, name, itemIndex).trim();
	if (!text) throw invalidInput(context, itemIndex, displayName, 'is empty');
	return text;
}

/** One email address parameter, validated. */
export function requiredEmail(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): string {
	const declared = readParameter(context, name, itemIndex, '', { extractValue: true });
	// A resource locator (From, Sender Email) gives its value; a plain field is read as text.
	const email =
		typeof declared === 'string'
			? declared.trim()
			: requiredString(context, itemIndex, name, displayName);
	if (!email) throw invalidInput(context, itemIndex, displayName, 'is empty');
	if (!isEmailAddress(email))
		throw invalidInput(context, itemIndex, displayName, `"${email}" is not a valid email address`);
	return email;
}

/** The one-day filter of the bounce and unsubscribe lists (the service's `date=YYYY-MM-DD`). */
export function dayFilterField(description: string): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [{ displayName: 'Day', name: 'date', type: 'dateTime', default: '', description }],
	};
}

export function readDayFilter(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readParameter(context, 'filters', itemIndex, {}) as IDataObject;
	const date = readDateParameter(context, itemIndex, filters.date, 'Day', true);
	return date ? { date } : {};
}
