import type { IExecuteFunctions } from 'n8n-workflow';

import { emptyInput, invalidInput } from '../../shared/values/inputErrors';
import { isEmailAddress } from './addresses';
import { headerProblem } from './headers';
import { readParameter, readText } from '../../shared/items/parameters';

/** A required text parameter, trimmed; names the parameter and item when empty. */
export function requiredString(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): string {
	const text = readText(context, name, itemIndex).trim();
	if (!text) throw emptyInput(context, itemIndex, displayName);
	return text;
}

/** A text parameter that becomes a mail header (Subject, From Name): one line, or the item fails naming it. */
export function headerText(
	context: IExecuteFunctions,
	itemIndex: number,
	displayName: string,
	text: string,
): string {
	const problem = headerProblem(text);
	if (problem) throw invalidInput(context, itemIndex, displayName, problem);
	return text;
}

/** One email address parameter, validated; `hints` say what to do when it is empty or not an address. */
export function requiredEmail(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
	hints: { empty?: string; invalid?: string } = {},
): string {
	// A resource locator (From, Sender Email) gives its value (an object is refused there); a plain field gives
	// text. Null or nothing from an expression is empty, as an empty string is.
	const value = readParameter(context, name, itemIndex, '', { extractValue: true });
	const email = value === undefined || value === null ? '' : String(value).trim();
	if (!email) throw emptyInput(context, itemIndex, displayName, hints.empty);
	if (!isEmailAddress(email))
		throw invalidInput(
			context,
			itemIndex,
			displayName,
			`"${email}" is not a valid email address`,
			hints.invalid,
		);
	return email;
}
