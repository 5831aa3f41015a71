import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/values/inputErrors';
import { listOrTypedLocator } from '../../shared/items/locators';
import { batchingField as sharedBatchingField } from '../../shared/items/bulk';
import { DEFAULT_BATCH_SIZE } from './bulk';
import { readParameter } from '../../shared/items/parameters';
import { quoteValue } from '../../shared/values/objects';

/** Field builders shared by the SMS operations (each operation adds its own displayOptions). */

/** The mailing list (address book): from the account's lists, or by ID (an expression, or when the list fails). */
export const addressBookIdField: INodeProperties = listOrTypedLocator({
	name: 'addressBookId',
	displayName: 'Mailing List',
	description:
		"The mailing list (address book) that holds the phone numbers, from the account's lists or by ID: in SendPulse under Mailing Lists, the number in the list's address",
	searchListMethod: 'searchMailingLists',
	listPlaceholder: 'Select a mailing list...',
	typed: {
		displayName: 'By ID',
		name: 'id',
		placeholder: 'e.g. 1234567',
		validation: [
			{
				type: 'regex',
				properties: {
					regex: '^\\s*\\d+\\s*$',
					errorMessage: 'A mailing list ID is a whole number',
				},
			},
		],
	},
});

/** The same field where a list is one of two choices (Get Cost: a list or phones). */
export const optionalAddressBookIdField: INodeProperties = {
	...addressBookIdField,
	required: false,
	description:
		"Price a campaign to this mailing list (in the service's web app under Mailing Lists, the number in the list's address). Give either this or Phones, not both.",
};

/** The one phone of Get and Update Contact Variables. */
export function phoneField(description?: string): INodeProperties {
	return {
		displayName: 'Phone',
		name: 'phone',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+380 98 623 5698',
		...(description ? { description } : {}),
	};
}

export function phonesField(
	description = 'Phone numbers in international format',
): INodeProperties {
	return {
		displayName: 'Phones',
		name: 'phones',
		type: 'string',
		default: '',
		required: true,
		placeholder: '+380 98 623 5698, 380631234567',
		description: `${description}. A list, a comma- or newline-separated string, or one per item (e.g. an expression giving one phone). Spaces, dashes, brackets and a leading + are removed.`,
	};
}

export const batchingField = sharedBatchingField({
	unit: 'phone numbers',
	defaultSize: DEFAULT_BATCH_SIZE,
	note: 'the service documents no limit; requests that carry phones in the URL (Check Numbers) use at most 250',
});

const LOCATOR_VALUE = { extractValue: true };

/** A positive integer id from a number or string parameter, or the value of a resource locator. */
export function readId(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	displayName: string,
): number {
	const raw = readParameter(context, name, itemIndex, '', LOCATOR_VALUE) as unknown;
	const id =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)
				? Number(raw)
				: NaN;
	if (!Number.isSafeInteger(id) || id < 1) {
		throw invalidInput(
			context,
			itemIndex,
			displayName,
			`must be a positive whole number (got ${quoteValue(raw)})`,
		);
	}
	return id;
}
