import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { emptyInput, invalidInput } from '../../shared/values/inputErrors';
import { readParameter, readText } from '../../shared/items/parameters';
import { ADDRESS_FORM_HINT, parseAddresses, type Address } from './addresses';
import { headerText, requiredEmail, requiredString } from './fields';
import { FROM_HINTS, senderAddressLocator } from './senders';

/**
 * From, To and Subject as every operation that sends an email reads them (Send, Send and Wait for Response): one
 * reader each, so the header checks (one line, no NUL) and the address rules cannot differ between them.
 */

/** From and From Name as the panels of Send and Send and Wait for Response show them (read by readFrom). */
export const fromProperties: INodeProperties[] = [
	senderAddressLocator(
		'fromEmail',
		'From',
		'An approved sender address of your account (Sender Address → Get Many; add one with Sender Address → Add): pick it from the list or type it',
	),
	{
		displayName: 'From Name',
		name: 'fromName',
		type: 'string',
		default: '',
		description: 'Name shown as the sender',
	},
];

/** From (an address) and From Name (optional, one line): the service's `from`. */
export function readFrom(context: IExecuteFunctions, itemIndex: number): Address {
	const email = requiredEmail(context, itemIndex, 'fromEmail', 'From', FROM_HINTS);
	const name = headerText(
		context,
		itemIndex,
		'From Name',
		readText(context, 'fromName', itemIndex).trim(),
	);
	return name ? { name, email } : { email };
}

/** Subject: required, one line. */
export function readSubject(context: IExecuteFunctions, itemIndex: number): string {
	return headerText(
		context,
		itemIndex,
		'Subject',
		requiredString(context, itemIndex, 'subject', 'Subject'),
	);
}

/**
 * A recipient list (To, Cc or Bcc): the text field (`Ann <ann@x.io>, bob@y.io`, or what an expression gives) or,
 * in `pairs` mode, the Name/Email rows of `<key>Pairs`.
 */
export function readRecipients(
	context: IExecuteFunctions,
	itemIndex: number,
	key: 'to' | 'cc' | 'bcc',
	displayName: string,
	mode: 'text' | 'pairs' = 'text',
): Address[] {
	const value =
		mode === 'pairs'
			? (
					(readParameter(context, `${key}Pairs.recipients`, itemIndex, []) as IDataObject[]) ?? []
				).filter(
					(row) => String(row.email ?? '').trim() !== '' || String(row.name ?? '').trim() !== '',
				)
			: readParameter(context, key, itemIndex, '', { list: true });
	const parsed = parseAddresses(value);
	if (!parsed.ok)
		throw invalidInput(context, itemIndex, displayName, parsed.problem, ADDRESS_FORM_HINT);
	return parsed.addresses;
}

/** To: at least one recipient. */
export function readTo(
	context: IExecuteFunctions,
	itemIndex: number,
	mode: 'text' | 'pairs' = 'text',
): Address[] {
	const to = readRecipients(context, itemIndex, 'to', 'To', mode);
	if (to.length === 0) throw emptyInput(context, itemIndex, 'To', 'Give at least one address.');
	return to;
}
