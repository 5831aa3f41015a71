import type { IExecuteFunctions } from 'n8n-workflow';

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
