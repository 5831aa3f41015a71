/**
 * The bad-input table shared by the named suite (bad-input.test.ts) and the generative test: for every operation
 * of both action nodes, parameters that work and, per parameter, values that must be refused before any request.
 */
import type { INodeParameters } from 'n8n-workflow';

import { sendParameters } from '../harness/send-parameters';

export type NodeKey = 'email' | 'sms';

export interface OperationCase {
	node: NodeKey;
	resource: string;
	operation: string;
	/** Parameters that pass every check (what is sent is not the point here). */
	base: INodeParameters;
	/** Parameter path → display name and bad values given through `{{ $json.v }}`, each with a text its error holds. */
	bad: ParameterCase[];
	/**
	 * The operation reads the first item only (Send and Wait sends once per execution, as n8n's own send-and-wait
	 * nodes do): each bad value gets a run of its own, without Continue On Fail.
	 */
	firstItemOnly?: boolean;
}

export interface ParameterCase {
	path: string;
	displayName: string;
	values: Array<[unknown, string]>;
}

export const OBJECT_AS_TEXT: Array<[unknown, string]> = [
	[{ a: 1 }, 'must be text, but the value is an object ({"a":1})'],
	[['a', 'b'], 'must be text, but the value is a list (["a","b"])'],
	[{}, 'must be text, but the value is an object ({})'],
	[[], 'must be text, but the value is a list ([])'],
	[[{ x: 1 }], 'must be text, but the value is a list ([{"x":1}])'],
];

export const REQUIRED_TEXT: Array<[unknown, string]> = [...OBJECT_AS_TEXT, ['   ', 'is empty']];

export const BAD_LIMIT: Array<[unknown, string]> = [
	[-5, 'must be a whole number of at least 1 (got -5)'],
	[0, 'must be a whole number of at least 1 (got 0)'],
	[1.5, 'must be a whole number of at least 1 (got 1.5)'],
	['abc', 'must be a whole number of at least 1 (got text ("abc"))'],
	['-3', 'must be a whole number of at least 1 (got text ("-3"))'],
	[{}, 'must be a whole number of at least 1 (got an object ({}))'],
	[[10], 'must be a whole number of at least 1 (got a list ([10]))'],
	[true, 'must be a whole number of at least 1 (got true)'],
];

export const BAD_DATES: Array<[unknown, string]> = [
	['2030-02-30T10:00:00', '"2030-02-30T10:00:00" is not a real date: February 2030 has no day 30'],
	['2024-13-45', '"2024-13-45" is not a real date: there is no month 13'],
	['2024-02-30', '"2024-02-30" is not a real date: February 2024 has no day 30'],
	['2023-02-29', '"2023-02-29" is not a real date: February 2023 has no day 29'],
	['2024-04-31 08:00:00', '"2024-04-31 08:00:00" is not a real date: April 2024 has no day 31'],
	[
		'2024-01-01T24:00:00',
		'"2024-01-01T24:00:00" is not a real date: 24:00:00 is not a time of day',
	],
	['2024-01-01 10:61', '"2024-01-01 10:61" is not a real date: 10:61 is not a time of day'],
	['next tuesday', '"next tuesday" is not a date'],
	// Only the ISO forms are read: a local form means one day in Europe and another in the US.
	[
		'06/01/2027',
		'"06/01/2027" is not a date: write it as YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601',
	],
	['1 June 2027', '"1 June 2027" is not a date: write it as YYYY-MM-DD'],
	['2027-6-1', '"2027-6-1" is not a date: write it as YYYY-MM-DD'],
	['+275760-09-13T00:00:00Z', '"+275760-09-13T00:00:00Z" is not a date: write it as YYYY-MM-DD'],
	[{ a: 1 }, '{"a":1} is not a date'],
	[[2024, 1, 1], '[2024,1,1] is not a date'],
];

/** Dates are checked before the clock: bad dates of Send At, plus one that has passed. */
export const BAD_SEND_AT: Array<[unknown, string]> = [
	...BAD_DATES,
	['2020-01-01T00:00:00', '2020-01-01 00:00:00 has passed'],
];

export const BAD_ID: Array<[unknown, string]> = [
	[-1, 'must be a positive whole number (got'],
	[0, 'must be a positive whole number (got'],
	[1.5, 'must be a positive whole number (got'],
	['abc', 'must be a positive whole number (got'],
	['12a', 'must be a positive whole number (got'],
	[{ id: 1 }, '{"id":1}'],
];

export const BAD_PHONES: Array<[unknown, string]> = [
	['abc', 'abc'],
	['12', '12'],
	['+380 98 623 5698, call me', 'call me'],
	['1234567890123456', '1234567890123456'],
	[{ phone: '380986235698' }, 'not a valid phone number'],
	[[380986235698, 'x'], 'x'],
];

/**
 * Spaces that separate two values, not the digit groups of one number: joined, the message would go to a number
 * nobody gave (`38098623569812`, `55512345559876`).
 */
export const TWO_NUMBERS_IN_ONE: Array<[unknown, string]> = [
	['+380986235698 12', '"+380986235698 12" (two numbers, or a number with more typed after it)'],
	['5551234 5559876', '"5551234 5559876" (two numbers, or a number with more typed after it)'],
	['555 1234 555 9876', '"555 1234 555 9876" (two numbers, or a number with more typed after it)'],
	['+380986235698 +380986235699', '(two numbers, or a number with more typed after it)'],
	[['380986235698', '5551234\t5559876'], '"5551234\\t5559876" (two numbers'],
];

/**
 * A phone read from a column of floats: dropping the dot would send to another, 13-digit number. Refused with the
 * hint to format the column as text, given as a number, as text and inside a list.
 */
export const DECIMAL_PHONES: Array<[unknown, string]> = [
	[380986235698.5, 'not a valid phone number: "380986235698.5" (a number with a decimal part)'],
	['380986235698.0', 'not a valid phone number: "380986235698.0" (a number with a decimal part)'],
	[['380986235698', 380986235698.5], '"380986235698.5" (a number with a decimal part)'],
];

export const BAD_EMAIL: Array<[unknown, string]> = [
	['not-an-email', '"not-an-email" is not a valid email address'],
	['a@b', '"a@b" is not a valid email address'],
	['ann@example.com, bob@example.com', 'is not a valid email address'],
	['   ', 'is empty'],
	[{ email: 'ann@example.com' }, 'must be text, but the value is an object'],
	[['ann@example.com'], 'must be text, but the value is a list'],
];

export const BAD_RECIPIENTS: Array<[unknown, string]> = [
	['"Doe, John <john@example.com>', 'has an opening quote (") without a closing one'],
	['Doe "John" <john@example.com>', 'a quoted name must be quoted whole'],
	['not-an-email', '"not-an-email" is not a valid email address'],
	['Ann <ann@example>', '"Ann <ann@example>" is not a valid email address'],
	[{ name: 'Ann' }, '{"name":"Ann"} has no "email"'],
	[[{ email: 'bad' }], '"bad" is not a valid email address'],
	[12345, '"12345" is not a valid email address'],
	['[{"email": ', 'looks like JSON but could not be parsed'],
];

const SENDER_SMS: Array<[unknown, string]> = [
	['   ', 'is empty'],
	['Has Space', '"Has Space" is not valid'],
	['TooLongSender12', '"TooLongSender12" is not valid'],
	['bad!', '"bad!" is not valid'],
	[{ a: 1 }, 'must be text, but the value is an object ({"a":1})'],
	[['Sandbox'], 'must be text, but the value is a list (["Sandbox"])'],
];

const MESSAGE: Array<[unknown, string]> = [...OBJECT_AS_TEXT, ['  ', 'is empty']];

const listOps = (node: NodeKey, resource: string, extra: ParameterCase[] = []): OperationCase => ({
	node,
	resource,
	operation: 'getAll',
	base: { resource, operation: 'getAll', returnAll: false, limit: 5 },
	bad: [{ path: 'limit', displayName: 'Limit', values: BAD_LIMIT }, ...extra],
});

const campaignId = { __rl: true, mode: 'id', value: '1001' };
const variables = {
	variablesInput: 'fields',
	variablesUi: { variable: [{ name: 'Name', type: 'string', value: 'Ann' }] },
};
const badVariableRows: Array<[unknown, string]> = [
	['abc', 'variable "Age" is a number, so its value must be a number (got "abc")'],
	[{ n: 1 }, 'Value must be text, but the value is an object ({"n":1})'],
	[['1'], 'Value must be text, but the value is a list (["1"])'],
];
const badDateVariable: Array<[unknown, string]> = [
	['2024-02-30', 'variable "Birthday" is a date, so its value must be YYYY-MM-DD with no time'],
	['2024-13-01', 'variable "Birthday" is a date, so its value must be YYYY-MM-DD with no time'],
	['2024-01-01 10:00:00', 'variable "Birthday" is a date, so its value must be YYYY-MM-DD'],
];

export const OPERATIONS: OperationCase[] = [
	// ---- Messaging Email ----
	{
		node: 'email',
		resource: 'email',
		operation: 'sendAndWait',
		firstItemOnly: true,
		base: {
			resource: 'email',
			operation: 'sendAndWait',
			fromEmail: 'sender@sandbox.test',
			to: 'Ann <ann@example.com>',
			subject: 'Approve the refund?',
			message: 'Refund 10 EUR to order 4711',
		},
		bad: [
			{ path: 'fromEmail', displayName: 'From', values: BAD_EMAIL.slice(0, 2) },
			{ path: 'to', displayName: 'To', values: BAD_RECIPIENTS.slice(0, 4) },
			{ path: 'subject', displayName: 'Subject', values: REQUIRED_TEXT },
			{ path: 'message', displayName: 'Message', values: REQUIRED_TEXT },
		],
	},
	{
		...listOps('email', 'bounce', [
			{ path: 'filters.date', displayName: 'Day', values: BAD_DATES },
		]),
	},
	{
		node: 'email',
		resource: 'bounce',
		operation: 'getCount',
		base: { resource: 'bounce', operation: 'getCount' },
		bad: [],
	},
	{
		node: 'email',
		resource: 'email',
		operation: 'get',
		base: { resource: 'email', operation: 'get', emailId: 'abc' },
		bad: [{ path: 'emailId', displayName: 'Email ID', values: REQUIRED_TEXT }],
	},
	{
		...listOps('email', 'email', [
			{ path: 'filters.from', displayName: 'Sent After', values: BAD_DATES },
			{ path: 'filters.to', displayName: 'Sent Before', values: BAD_DATES },
			{ path: 'filters.sender', displayName: 'Sender', values: OBJECT_AS_TEXT },
			{ path: 'filters.recipient', displayName: 'Recipient', values: OBJECT_AS_TEXT },
		]),
	},
	{
		node: 'email',
		resource: 'email',
		operation: 'getCount',
		base: { resource: 'email', operation: 'getCount' },
		bad: [],
	},
	{
		node: 'email',
		resource: 'email',
		operation: 'getManyById',
		base: { resource: 'email', operation: 'getManyById', emailIds: 'abc' },
		bad: [
			{
				path: 'emailIds',
				displayName: 'Email IDs',
				values: [
					[{ a: 1 }, 'an ID must be text, but one is an object ({"a":1})'],
					[['abc', { id: 'x' }], 'an ID must be text, but one is an object ({"id":"x"})'],
					['   ', 'is empty'],
					[[], 'is empty'],
				],
			},
		],
	},
	{
		node: 'email',
		resource: 'email',
		operation: 'send',
		base: sendParameters(),
		bad: [
			{ path: 'subject', displayName: 'Subject', values: REQUIRED_TEXT },
			{ path: 'html', displayName: 'HTML', values: OBJECT_AS_TEXT },
			{ path: 'text', displayName: 'Text', values: OBJECT_AS_TEXT },
			{ path: 'fromName', displayName: 'From Name', values: OBJECT_AS_TEXT },
			{
				path: 'fromEmail',
				displayName: 'From',
				values: [
					[{ a: 1 }, 'must be text, but the value is an object'],
					[['sender@sandbox.test'], 'must be text, but the value is a list'],
					['not-an-email', '"not-an-email" is not a valid email address'],
					['  ', 'is empty'],
				],
			},
			{ path: 'to', displayName: 'To', values: BAD_RECIPIENTS },
			{ path: 'cc', displayName: 'Cc', values: BAD_RECIPIENTS.slice(0, 3) },
			{ path: 'bcc', displayName: 'Bcc', values: BAD_RECIPIENTS.slice(0, 3) },
		],
	},
	{
		node: 'email',
		resource: 'resubscribe',
		operation: 'sendRequest',
		base: {
			resource: 'resubscribe',
			operation: 'sendRequest',
			email: 'ann@example.com',
			sender: 'sender@sandbox.test',
		},
		bad: [
			{ path: 'email', displayName: 'Email', values: BAD_EMAIL },
			{
				path: 'sender',
				displayName: 'Sender Email',
				values: [
					['nope', '"nope" is not a valid email address'],
					[{ a: 1 }, 'must be text, but the value is an object'],
				],
			},
			{ path: 'options.lang', displayName: 'Language', values: OBJECT_AS_TEXT.slice(0, 2) },
		],
	},
	{
		node: 'email',
		resource: 'senderAddress',
		operation: 'add',
		base: { resource: 'senderAddress', operation: 'add', email: 'new@example.com', name: 'New' },
		bad: [
			{ path: 'email', displayName: 'Email', values: BAD_EMAIL },
			{ path: 'name', displayName: 'Name', values: OBJECT_AS_TEXT.slice(0, 2) },
		],
	},
	{
		node: 'email',
		resource: 'senderAddress',
		operation: 'getAll',
		base: { resource: 'senderAddress', operation: 'getAll' },
		bad: [],
	},
	{
		node: 'email',
		resource: 'sendingIp',
		operation: 'getAll',
		base: { resource: 'sendingIp', operation: 'getAll' },
		bad: [],
	},
	{
		node: 'email',
		resource: 'sendingDomain',
		operation: 'add',
		base: { resource: 'sendingDomain', operation: 'add', domain: 'example.org' },
		bad: [{ path: 'domain', displayName: 'Domain', values: REQUIRED_TEXT }],
	},
	{
		node: 'email',
		resource: 'sendingDomain',
		operation: 'getAll',
		base: { resource: 'sendingDomain', operation: 'getAll' },
		bad: [],
	},
	{
		node: 'email',
		resource: 'unsubscribe',
		operation: 'add',
		base: { resource: 'unsubscribe', operation: 'add', emails: 'ann@example.com', comment: 'x' },
		bad: [
			{ path: 'emails', displayName: 'Email Addresses', values: BAD_RECIPIENTS.slice(0, 6) },
			{ path: 'comment', displayName: 'Comment', values: OBJECT_AS_TEXT.slice(0, 2) },
		],
	},
	{
		node: 'email',
		resource: 'unsubscribe',
		operation: 'check',
		base: { resource: 'unsubscribe', operation: 'check', email: 'ann@example.com' },
		bad: [{ path: 'email', displayName: 'Email', values: BAD_EMAIL }],
	},
	listOps('email', 'unsubscribe', [
		{ path: 'filters.date', displayName: 'Day', values: BAD_DATES },
	]),
	{
		node: 'email',
		resource: 'unsubscribe',
		operation: 'remove',
		base: { resource: 'unsubscribe', operation: 'remove', emails: 'ann@example.com' },
		bad: [{ path: 'emails', displayName: 'Email Addresses', values: BAD_RECIPIENTS.slice(0, 6) }],
	},

	// ---- Messaging SMS ----
	{
		node: 'sms',
		resource: 'blacklist',
		operation: 'add',
		base: { resource: 'blacklist', operation: 'add', phones: '380986235698', description: 'x' },
		bad: [
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES, ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
			{ path: 'description', displayName: 'Description', values: OBJECT_AS_TEXT.slice(0, 2) },
		],
	},
	{
		node: 'sms',
		resource: 'blacklist',
		operation: 'check',
		base: { resource: 'blacklist', operation: 'check', phones: '380986235698' },
		bad: [
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES, ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	listOps('sms', 'blacklist'),
	{
		node: 'sms',
		resource: 'blacklist',
		operation: 'remove',
		base: { resource: 'blacklist', operation: 'remove', phones: '380986235698' },
		bad: [
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'cancel',
		base: { resource: 'campaign', operation: 'cancel', campaignId },
		bad: [{ path: 'campaignId.value', displayName: 'Campaign', values: BAD_ID }],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'createForList',
		base: {
			resource: 'campaign',
			operation: 'createForList',
			sender: 'Sandbox',
			addressBookId: 12,
			body: 'Hi',
		},
		bad: [
			{ path: 'sender', displayName: 'Sender', values: SENDER_SMS },
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID },
			{ path: 'body', displayName: 'Message', values: MESSAGE },
			{ path: 'options.sendDate', displayName: 'Send At', values: BAD_SEND_AT },
		],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'delete',
		base: { resource: 'campaign', operation: 'delete', campaignId },
		bad: [{ path: 'campaignId.value', displayName: 'Campaign', values: BAD_ID.slice(0, 3) }],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'get',
		base: { resource: 'campaign', operation: 'get', campaignId },
		bad: [{ path: 'campaignId.value', displayName: 'Campaign', values: BAD_ID.slice(3) }],
	},
	listOps('sms', 'campaign', [
		{ path: 'filters.dateFrom', displayName: 'Created After', values: BAD_DATES },
		{ path: 'filters.dateTo', displayName: 'Created Before', values: BAD_DATES.slice(0, 5) },
	]),
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'getCost',
		base: {
			resource: 'campaign',
			operation: 'getCost',
			sender: 'Sandbox',
			body: 'Hi',
			phones: '380986235698',
		},
		bad: [
			{ path: 'sender', displayName: 'Sender', values: SENDER_SMS.slice(0, 4) },
			{ path: 'body', displayName: 'Message', values: MESSAGE.slice(0, 3) },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'sendAndWait',
		firstItemOnly: true,
		base: {
			resource: 'campaign',
			operation: 'sendAndWait',
			sender: 'Sandbox',
			phone: '380986235698',
			message: 'Approve the refund?',
		},
		bad: [
			{ path: 'sender', displayName: 'Sender', values: SENDER_SMS },
			{
				path: 'phone',
				displayName: 'Phone',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES.slice(0, 2), ...TWO_NUMBERS_IN_ONE],
			},
			{ path: 'message', displayName: 'Message', values: MESSAGE },
		],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'sendToNumbers',
		base: {
			resource: 'campaign',
			operation: 'sendToNumbers',
			sender: 'Sandbox',
			phones: '380986235698',
			body: 'Hi',
		},
		bad: [
			{ path: 'sender', displayName: 'Sender', values: SENDER_SMS },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES, ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
			{ path: 'body', displayName: 'Message', values: MESSAGE },
			{ path: 'options.sendDate', displayName: 'Send At', values: BAD_SEND_AT },
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'add',
		base: { resource: 'phoneNumber', operation: 'add', addressBookId: 12, phones: '380986235698' },
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'addWithVariables',
		base: {
			resource: 'phoneNumber',
			operation: 'addWithVariables',
			addressBookId: 12,
			phones: '380986235698',
			...variables,
		},
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID.slice(0, 3) },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'get',
		base: { resource: 'phoneNumber', operation: 'get', addressBookId: 12, phone: '380986235698' },
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID.slice(0, 3) },
			{
				path: 'phone',
				displayName: 'Phone',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'remove',
		base: {
			resource: 'phoneNumber',
			operation: 'remove',
			addressBookId: 12,
			phones: '380986235698',
		},
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID.slice(0, 3) },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'updateContactVariables',
		base: {
			resource: 'phoneNumber',
			operation: 'updateContactVariables',
			addressBookId: 12,
			phone: '380986235698',
			...variables,
		},
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID.slice(0, 3) },
			{
				path: 'phone',
				displayName: 'Phone',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	{
		node: 'sms',
		resource: 'phoneNumber',
		operation: 'updateVariables',
		base: {
			resource: 'phoneNumber',
			operation: 'updateVariables',
			addressBookId: 12,
			phones: '380986235698',
			...variables,
		},
		bad: [
			{ path: 'addressBookId', displayName: 'Mailing List', values: BAD_ID.slice(0, 3) },
			{
				path: 'phones',
				displayName: 'Phones',
				values: [...BAD_PHONES.slice(0, 3), ...DECIMAL_PHONES, ...TWO_NUMBERS_IN_ONE],
			},
		],
	},
	listOps('sms', 'senderId'),
];

/** Typed variables: bad values in a row of a given type (Add with Variables, Update Variables). */
export const VARIABLE_CASES: Array<{
	operation: string;
	type: string;
	name: string;
	values: Array<[unknown, string]>;
}> = [
	{ operation: 'addWithVariables', type: 'number', name: 'Age', values: badVariableRows },
	{ operation: 'addWithVariables', type: 'date', name: 'Birthday', values: badDateVariable },
	{ operation: 'updateVariables', type: 'number', name: 'Age', values: badVariableRows },
	{ operation: 'updateVariables', type: 'date', name: 'Birthday', values: badDateVariable },
];

/** Request Options apply to every operation, including those without parameters of their own. */
export const REQUEST_OPTIONS: Array<{
	path: string;
	displayName: string;
	values: Array<[unknown, string]>;
}> = [
	{
		path: 'requestOptions.requestsPerSecond',
		displayName: 'Max Requests per Second',
		values: [
			[-1, 'must be a number of at least 0 (got -1)'],
			['fast', 'must be a number of at least 0 (got text ("fast"))'],
			['0x10', 'must be a number of at least 0 (got text ("0x10"))'],
			[{}, 'must be a number of at least 0 (got an object ({}))'],
		],
	},
	{
		path: 'requestOptions.maxConcurrency',
		displayName: 'Max Concurrent Requests',
		values: [
			[0, 'must be a whole number from 1 to 50 (got 0)'],
			[51, 'must be a whole number from 1 to 50 (got 51)'],
			[2.5, 'must be a whole number from 1 to 50 (got 2.5)'],
			['many', 'must be a whole number from 1 to 50 (got text ("many"))'],
		],
	},
];

/**
 * Batch Size of the bulk operations: read once per run (an error of item 0), like Request Options. Unsubscribe
 * Add/Remove send at most 500 addresses, so their option has that maximum; the SMS option has none.
 */
export const BATCH_SIZE: Array<{
	node: NodeKey;
	resource: string;
	operation: string;
	values: Array<[unknown, string]>;
}> = [
	{
		node: 'email',
		resource: 'unsubscribe',
		operation: 'add',
		values: [
			[0, 'must be a whole number from 1 to 500 (got 0)'],
			[-5, 'must be a whole number from 1 to 500 (got -5)'],
			[2.5, 'must be a whole number from 1 to 500 (got 2.5)'],
			['abc', 'must be a whole number from 1 to 500 (got text ("abc"))'],
			[501, 'must be a whole number from 1 to 500 (got 501)'],
			['1000', 'must be a whole number from 1 to 500 (got text ("1000"))'],
		],
	},
	{
		node: 'email',
		resource: 'unsubscribe',
		operation: 'remove',
		values: [[1000, 'must be a whole number from 1 to 500 (got 1000)']],
	},
	{
		node: 'sms',
		resource: 'blacklist',
		operation: 'add',
		values: [
			[0, 'must be a whole number of at least 1 (got 0)'],
			[-5, 'must be a whole number of at least 1 (got -5)'],
			[2.5, 'must be a whole number of at least 1 (got 2.5)'],
			['abc', 'must be a whole number of at least 1 (got text ("abc"))'],
			['2.5', 'must be a whole number of at least 1 (got text ("2.5"))'],
			[{}, 'must be a whole number of at least 1 (got an object ({}))'],
		],
	},
	{
		node: 'sms',
		resource: 'campaign',
		operation: 'sendToNumbers',
		values: [
			[0, 'must be a whole number of at least 1 (got 0)'],
			['-5', 'must be a whole number of at least 1 (got text ("-5"))'],
		],
	},
];

/** Sets `path` (dots, with `[n]` for list entries) in a copy of the parameters. */
export function withParameter(
	parameters: INodeParameters,
	path: string,
	value: unknown,
): INodeParameters {
	const copy = JSON.parse(JSON.stringify(parameters)) as Record<string, unknown>;
	const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
	let target = copy;
	for (const key of keys.slice(0, -1)) {
		if (target[key] === null || typeof target[key] !== 'object') target[key] = {};
		target = target[key] as Record<string, unknown>;
	}
	target[keys[keys.length - 1]] = value;
	return copy as INodeParameters;
}
