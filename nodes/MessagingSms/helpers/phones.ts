import type { IExecuteFunctions } from 'n8n-workflow';

import { emptyInput, invalidInput } from '../../shared/values/inputErrors';
import { readParameter, type ReadOptions } from '../../shared/items/parameters';
import {
	isDecimalNumber,
	isPlainPhone,
	isTwoValuesInOne,
	parsePhones,
} from '../../shared/values/phones';

/** The one reader of phone input (Phones, Phone, Get Cost's Phones): every entry checked, one wording. */

const LIST: ReadOptions = { list: true };

const HOW_TO_WRITE =
	'Give international numbers with the country code (7 to 15 digits; spaces, dashes, dots between digit groups, brackets and a leading + are removed)';
const SEPARATE_HINT =
	'Spaces group the digits of one number; separate several numbers with a comma, semicolon or new line';
const DECIMAL_HINT =
	'A phone with a decimal part (380986235698.0) comes from a column read as a number: format the column as text';

/**
 * The phones of one item's parameter, normalised, or an error naming the parameter and item that quotes every
 * entry that is not a phone. `optional`: nothing given is an empty list instead of an error.
 */
function readPhoneList(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: { name: string; displayName: string; optional?: boolean },
): string[] {
	const raw = readParameter(context, parameter.name, itemIndex, '', LIST);
	// The usual bulk input, one phone per item already in the service's form: one array, nothing else.
	if (isPlainPhone(raw)) return [raw];
	const { phones, invalid } = parsePhones(raw);
	if (invalid.length) {
		const decimal = invalid.some(isDecimalNumber);
		const twoInOne = invalid.some(isTwoValuesInOne);
		throw invalidInput(
			context,
			itemIndex,
			parameter.displayName,
			`not a valid phone number: ${invalid
				.map((phone) =>
					isDecimalNumber(phone)
						? `${JSON.stringify(phone)} (a number with a decimal part)`
						: isTwoValuesInOne(phone)
							? `${JSON.stringify(phone)} (two numbers, or a number with more typed after it)`
							: JSON.stringify(phone),
				)
				.join(', ')}`,
			[decimal && DECIMAL_HINT, twoInOne && SEPARATE_HINT, HOW_TO_WRITE].filter(Boolean).join('. '),
		);
	}
	if (!phones.length && !parameter.optional)
		throw emptyInput(context, itemIndex, parameter.displayName);
	return phones;
}

/** Phones (a list, separated text, or one per item): at least one. */
export function readPhones(context: IExecuteFunctions, itemIndex: number): string[] {
	return readPhoneList(context, itemIndex, { name: 'phones', displayName: 'Phones' });
}

/** Phones where a mailing list is the other choice (Get Cost): an empty list when none is given. */
export function readOptionalPhones(context: IExecuteFunctions, itemIndex: number): string[] {
	return readPhoneList(context, itemIndex, {
		name: 'phones',
		displayName: 'Phones',
		optional: true,
	});
}

/**
 * The phones of Send and Wait's Phone parameter: one or several (each gets an SMS of its own), each once, in
 * the order given.
 */
export function readAnswerPhones(context: IExecuteFunctions, itemIndex: number): string[] {
	return [...new Set(readPhoneList(context, itemIndex, { name: 'phone', displayName: 'Phone' }))];
}

/** Exactly one phone (Get, Update Contact Variables). */
export function readPhone(context: IExecuteFunctions, itemIndex: number): string {
	const phones = readPhoneList(context, itemIndex, { name: 'phone', displayName: 'Phone' });
	if (phones.length !== 1)
		throw invalidInput(context, itemIndex, 'Phone', 'give exactly one phone number');
	return phones[0];
}
