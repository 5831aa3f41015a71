import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { chunk, runPerItem } from '../../../shared/items/engine';
import { invalidInput } from '../../../shared/values/inputErrors';
import type { MessagingClient } from '../../../shared/transport/client';
import { MAX_PHONES_PER_QUERY } from '../../helpers/bulk';
import { optionalAddressBookIdField, readId } from '../../helpers/fields';
import { readOptionalPhones } from '../../helpers/phones';
import { bodyField, readBody, readRoute, readSender, routeField, senderField } from './shared';
import { isRecord } from '../../../shared/values/objects';
import { readParameter } from '../../../shared/items/parameters';
import { serviceNumber } from '../../../shared/records/values';

const properties: INodeProperties[] = [
	senderField,
	bodyField,
	optionalAddressBookIdField,
	{
		displayName: 'Phones',
		name: 'phones',
		type: 'string',
		default: '',
		placeholder: '380986235698, 380631234567',
		description:
			'Price a campaign to these numbers (list, or comma/newline-separated). Give either this or Mailing List, not both.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [{ ...routeField }],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['getCost'] } },
	properties,
);

/** `{ result: true, data: { price, currency } }`: the price as a number (the service may send text), or undefined. */
function priceIn(body: unknown): { price: number; currency: string } | undefined {
	const data = isRecord(body) ? body.data : undefined;
	if (!isRecord(data)) return undefined;
	const price = serviceNumber(data.price);
	return price === undefined ? undefined : { price, currency: String(data.currency ?? '') };
}

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			// The Mailing List locator's value ('' when no list is chosen).
			const rawList = readParameter(this, 'addressBookId', itemIndex, '', {
				extractValue: true,
			}) as unknown;
			const listGiven =
				rawList !== '' && rawList !== undefined && rawList !== null && rawList !== 0;
			const phones = readOptionalPhones(this, itemIndex);
			if (listGiven && phones.length) {
				throw invalidInput(
					this,
					itemIndex,
					'Mailing List',
					'give either a Mailing List or Phones, not both',
				);
			}
			if (!listGiven && !phones.length) {
				throw invalidInput(
					this,
					itemIndex,
					'Mailing List',
					'give either a Mailing List or Phones to price the campaign for',
				);
			}
			const addressBookId = listGiven
				? readId(this, itemIndex, 'addressBookId', 'Mailing List')
				: undefined;
			const query: IDataObject = {
				sender: readSender(this, itemIndex),
				body: readBody(this, itemIndex),
			};
			const route = readRoute(this, itemIndex);
			if (route) query.route = route;
			return { query, addressBookId, phones };
		},
		send: async ({ query, addressBookId, phones }, itemIndex) => {
			const cost = async (extra: IDataObject) =>
				await client.requestValue(
					{ method: 'GET', path: '/sms/campaigns/cost', query: { ...extra, ...query }, itemIndex },
					'price',
					priceIn,
				);
			if (addressBookId !== undefined) {
				const data = await cost({ addressBookId });
				return { ...data, addressBookId: String(addressBookId) };
			}
			// Phones travel in the URL: long lists are priced in parts and summed.
			let price = 0;
			let currency = '';
			for (const part of chunk(phones, MAX_PHONES_PER_QUERY)) {
				const data = await cost({ phones: part });
				price += data.price;
				currency = data.currency;
			}
			return { price: Math.round(price * 1e6) / 1e6, currency, phones };
		},
	});
}
