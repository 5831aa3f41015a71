import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { futureSendTime, readDateParameter } from '../../../shared/values/dates';
import { emptyInput, invalidInput } from '../../../shared/values/inputErrors';
import { listOrTypedLocator } from '../../../shared/items/locators';
import { readParameter, readText } from '../../../shared/items/parameters';
import { sendOnceOption } from '../../../shared/sendOnce/fields';
import { sendWindowOption } from '../../helpers/sendWindow';

/** Fields and readers of the campaign operations (sender, text, route, campaign options), next to them. */

/**
 * The campaign to act on: picked from the account's campaigns (newest first) or given by ID. Plain strings from
 * older workflows and AI tools are read as IDs too (readId extracts either).
 */
export const campaignIdField = listOrTypedLocator({
	name: 'campaignId',
	displayName: 'Campaign',
	description:
		'The campaign, from the list (newest first) or by its ID: the campaign_id a send returned, or an ID from Campaign → Get Many',
	searchListMethod: 'searchCampaigns',
	listPlaceholder: 'Select a campaign...',
	typed: {
		displayName: 'By ID',
		name: 'id',
		placeholder: 'e.g. 4051234',
		validation: [
			{
				type: 'regex',
				properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A campaign ID is a whole number' },
			},
		],
	},
});

const SENDER_PATTERN = /^[A-Za-z0-9]{1,11}$/;

export const senderField = listOrTypedLocator({
	name: 'sender',
	displayName: 'Sender',
	description:
		'The name recipients see as the sender: letters and digits only, at most 11 (e.g. MyShop). Pick one of your sender IDs (each with its moderation status; only Active ones send) or type it.',
	searchListMethod: 'searchSenders',
	listPlaceholder: 'Select a sender...',
	typed: {
		displayName: 'By Name',
		name: 'name',
		placeholder: 'e.g. MyShop',
		validation: [
			{
				type: 'regex',
				properties: {
					regex: '^[A-Za-z0-9]{1,11}$',
					errorMessage: 'A sender is letters and digits only, at most 11 characters',
				},
			},
		],
	},
});

export function readSender(context: IExecuteFunctions, itemIndex: number): string {
	const sender = String(
		readParameter(context, 'sender', itemIndex, '', { extractValue: true }) ?? '',
	).trim();
	if (!sender) throw emptyInput(context, itemIndex, 'Sender');
	if (!SENDER_PATTERN.test(sender)) {
		throw invalidInput(
			context,
			itemIndex,
			'Sender',
			`"${sender}" is not valid: a sender is letters and digits only (no spaces or symbols), at most 11 characters`,
		);
	}
	return sender;
}

export const bodyField: INodeProperties = {
	displayName: 'Message',
	name: 'body',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	required: true,
	description: 'Text of the SMS',
};

export function readBody(context: IExecuteFunctions, itemIndex: number): string {
	const body = readText(context, 'body', itemIndex);
	if (!body.trim()) throw emptyInput(context, itemIndex, 'Message');
	return body;
}

export const routeField: INodeProperties = {
	displayName: 'Route',
	name: 'route',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Country Route',
	default: {},
	description:
		'Route per recipient country. Some operators require one; without a registered sender ID for a country, use the international route.',
	options: [
		{
			displayName: 'Country Route',
			name: 'pairs',
			values: [
				{
					displayName: 'Country Code',
					name: 'country',
					type: 'string',
					default: '',
					placeholder: 'UA',
					description: 'Two-letter country code',
				},
				{
					displayName: 'Route',
					name: 'route',
					type: 'options',
					options: [
						{ name: 'National', value: 'national' },
						{ name: 'International', value: 'international' },
					],
					default: 'national',
				},
			],
		},
	],
};

/** The route option (Options → Route) as the service's `{ "UA": "national" }`; undefined when empty. */
export function readRoute(context: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const pairs = ((readParameter(context, 'options.route', itemIndex, {}) as IDataObject).pairs ??
		[]) as IDataObject[];
	if (!pairs.length) return undefined;
	const route: IDataObject = {};
	for (const pair of pairs) {
		const country = String(pair.country ?? '')
			.trim()
			.toUpperCase();
		if (!/^[A-Z]{2}$/.test(country)) {
			throw invalidInput(
				context,
				itemIndex,
				'Route',
				`"${String(pair.country ?? '')}" is not a two-letter country code`,
			);
		}
		const value = String(pair.route ?? '').trim();
		if (!value) throw invalidInput(context, itemIndex, 'Route', `no route given for ${country}`);
		route[country] = value;
	}
	return route;
}

export const campaignOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				"Whether to only form the campaign without sending it (the service's test mode: the campaign ID is 0 and it is not listed)",
		},
		{ ...routeField },
		{
			displayName: 'Send At',
			name: 'sendDate',
			type: 'dateTime',
			default: '',
			description:
				"When to send, in the workflow's time zone. Empty: as soon as moderation allows. A time that has passed is refused unless the next option is on.",
		},
		{
			displayName: 'Send Now If Send At Has Passed',
			name: 'sendNowIfPassed',
			type: 'boolean',
			default: false,
			description:
				'Whether a Send At that has already passed sends the campaign now instead of failing the item',
		},
		{
			displayName: 'Transliterate',
			name: 'transliterate',
			type: 'boolean',
			default: false,
			description:
				'Whether to transliterate the message into Latin letters (cheaper, longer SMS parts)',
		},
		{
			displayName: 'Use Dynamic List',
			name: 'useDynamicList',
			type: 'boolean',
			default: false,
			description:
				'Whether a scheduled campaign also reaches contacts added to the mailing list after it was created and before it is sent (paid plans)',
		},
		sendOnceOption,
		sendWindowOption,
	],
};

/** Campaign settings common to Create for List and Send to Numbers, in the service's keys. */
export function readCampaignOptions(
	context: IExecuteFunctions,
	itemIndex: number,
	accountZone: string,
): IDataObject {
	const options = readParameter(context, 'options', itemIndex, {}) as IDataObject;
	const settings: IDataObject = { transliterate: options.transliterate === true ? 1 : 0 };
	const route = readRoute(context, itemIndex);
	if (route) settings.route = route;
	const date = readDateParameter(context, itemIndex, options.sendDate, 'Send At', accountZone);
	const sendAt =
		date &&
		futureSendTime(
			context,
			itemIndex,
			date,
			'Send At',
			options.sendNowIfPassed === true,
			accountZone,
		);
	if (sendAt) settings.date = sendAt;
	if (options.dryRun === true) settings.emulate = 1;
	if (options.useDynamicList === true) settings.use_dynamic_list = true;
	return settings;
}
