import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput } from '../../../shared/values/inputErrors';
import { runPerItem } from '../../../shared/items/engine';
import { listOrTypedLocator } from '../../../shared/items/locators';
import type { MessagingClient } from '../../../shared/transport/client';
import { requiredString } from '../../helpers/fields';
import {
	fromProperties,
	readFrom,
	readRecipients,
	readSubject,
	readTo,
} from '../../helpers/message';
import { senderCheck, type SenderCheck } from '../../helpers/senders';
import {
	ATTACHMENTS_IN_ONE_PLACE,
	attachmentListFields,
	attachmentOptions,
	binaryAttachmentsTopLevel,
	checkContentSize,
	loadBinaryAttachments,
	readAttachments,
	type PlannedBinary,
} from '../../helpers/attachments';
import { readParameter, readText } from '../../../shared/items/parameters';
import { quoteValue } from '../../../shared/values/objects';
import { sendOnceOption } from '../../../shared/sendOnce/fields';
import { sendOnceGate } from '../../../shared/sendOnce/gate';
import {
	readVariables,
	VariableError,
	variablesFields,
	type VariableEntry,
} from '../../../shared/items/variables';
import { templateVariableNames } from '../../helpers/templates';

const recipientPairs = (
	name: string,
	displayName: string,
	description: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Recipient',
	default: {},
	description,
	displayOptions: { show: { recipientsInput: ['pairs'] } },
	options: [
		{
			displayName: 'Recipient',
			name: 'recipients',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '' },
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
				},
			],
		},
	],
});

const properties: INodeProperties[] = [
	...fromProperties,
	{
		displayName: 'Recipients Input',
		name: 'recipientsInput',
		type: 'options',
		options: [
			{
				name: 'Text',
				value: 'text',
				description:
					'Comma-separated addresses such as Ann &lt;ann@example.com&gt;, bob@example.com',
			},
			{ name: 'Name/Email Pairs', value: 'pairs', description: 'One row per recipient' },
		],
		default: 'text',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Ann <ann@example.com>, bob@example.com',
		description:
			'Recipients, comma-separated, each "Name &lt;address&gt;" or a bare address. An expression may also give an array of addresses or of {name, email} objects.',
		displayOptions: { show: { recipientsInput: ['text'] } },
	},
	{
		displayName: 'Cc',
		name: 'cc',
		type: 'string',
		default: '',
		placeholder: 'Carl <carl@example.com>',
		description: 'Copy recipients, visible to the other recipients; same form as To',
		displayOptions: { show: { recipientsInput: ['text'] } },
	},
	{
		displayName: 'Bcc',
		name: 'bcc',
		type: 'string',
		default: '',
		placeholder: 'audit@example.com',
		description: 'Blind copy recipients, not visible to the others; same form as To',
		displayOptions: { show: { recipientsInput: ['text'] } },
	},
	recipientPairs('toPairs', 'To', 'Recipients'),
	recipientPairs('ccPairs', 'Cc', 'Copy recipients, visible to the other recipients'),
	recipientPairs('bccPairs', 'Bcc', 'Blind copy recipients, not visible to the others'),
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Your order has shipped',
		description: 'Subject line of the email',
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'options',
		options: [
			{
				name: 'HTML and Text',
				value: 'htmlAndText',
				description: 'Type or map the message itself',
			},
			{
				name: 'Template',
				value: 'template',
				description: 'A template stored in the account, with variable values',
			},
		],
		default: 'htmlAndText',
	},
	{
		displayName: 'HTML',
		name: 'html',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		placeholder: '<p>Hello {{ $json.name }}</p>',
		description:
			'The message as HTML, as you would write it (the node encodes it for the service). Give HTML, Text or both.',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description:
			'The message as plain text, for mail clients that show no HTML. Empty: none, unless Generate Text From HTML is on.',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		displayName: 'Generate Text From HTML',
		name: 'autoPlainText',
		type: 'boolean',
		default: false,
		description:
			'Whether the service should generate the text version from the HTML when Text is empty',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		...listOrTypedLocator({
			name: 'templateId',
			displayName: 'Template',
			description:
				"The template, from the account's list or by ID: in SendPulse under Email → Templates (the number in the template's address), or the real_id the API's template list gives. Numeric and text IDs both work; By ID also takes an expression.",
			searchListMethod: 'searchTemplates',
			listPlaceholder: 'Select a template...',
			typed: { displayName: 'By ID', name: 'id', placeholder: 'e.g. 283941' },
		}),
		displayOptions: { show: { content: ['template'] } },
	},
	...variablesFields({
		label: 'Template Variables',
		show: { content: ['template'] },
		// The chosen template's names to pick from; any other name can still be typed as an expression. Arbitrary
		// values allowed, so a name saved before (or absent from the template) is kept, not flagged.
		nameField: {
			displayName: 'Name',
			type: 'options',
			allowArbitraryValues: true,
			typeOptions: {
				loadOptionsMethod: 'getTemplateVariables',
				loadOptionsDependsOn: ['templateId.value'],
			},
			description:
				'A variable of the chosen template (its {{name}} placeholders). Choose from the list, or type another name as an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		jsonDescription:
			'An object mapping each variable name to its value, e.g. {"name": "Ann", "code": 1234}, or a list of {name, value}',
	}),
	binaryAttachmentsTopLevel,
	...attachmentListFields,
	// Two declarations of Options, one per node version (n8n shows the one whose version matches): version 1 keeps
	// Binary Attachments here, where its saved workflows have it; from 1.1 it sits with the other attachment fields.
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { '@version': [1] } },
		options: [...attachmentOptions, sendOnceOption],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { '@version': [{ _cnd: { gte: ATTACHMENTS_IN_ONE_PLACE } }] } },
		options: [sendOnceOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['email'], operation: ['send'] } },
	properties,
);

interface PreparedEmail {
	email: IDataObject;
	summary: IDataObject;
	binaryAttachments: PlannedBinary[];
	/** The email's encoded size without its binary attachments, for the size check once they are read. */
	otherBytes: number;
}

/**
 * The service takes template variables as name → value. A row's value is text (the parameter reader makes numbers
 * and booleans text, as n8n writes them); a JSON value is sent as given: text, a number, a boolean or null (a
 * list entry without a value is empty text).
 */
function templateVariable({ name, value }: VariableEntry): [string, unknown] {
	if (value !== null && typeof value === 'object') {
		throw new VariableError(
			`variable "${name}" must be text, a number or a boolean (got ${quoteValue(value)})`,
		);
	}
	return [name, value === undefined ? '' : value];
}

function readTemplate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const rawId = requiredString(context, itemIndex, 'templateId', 'Template ID');
	// A numeric ID goes as a number, as the service lists it; one beyond 2^53 would become another number, so it
	// goes as text, which the service also takes.
	const numeric = Number(rawId);
	const id = /^[1-9]\d*$/.test(rawId) && Number.isSafeInteger(numeric) ? numeric : rawId;
	const variables = readVariables(context, itemIndex, {
		label: 'Template Variables',
		check: templateVariable,
	});
	return { id, variables: Object.fromEntries(variables) as IDataObject };
}

async function prepare(
	context: IExecuteFunctions,
	itemIndex: number,
	checkSender: SenderCheck,
	/** Node version 1.1 or later: Binary Attachments is a field of Send, not an option. */
	attachmentsInOnePlace: boolean,
): Promise<PreparedEmail> {
	const from = readFrom(context, itemIndex);
	const mode =
		readParameter(context, 'recipientsInput', itemIndex, 'text') === 'pairs' ? 'pairs' : 'text';
	const to = readTo(context, itemIndex, mode);
	const cc = readRecipients(context, itemIndex, 'cc', 'Cc', mode);
	const bcc = readRecipients(context, itemIndex, 'bcc', 'Bcc', mode);
	const subject = readSubject(context, itemIndex);

	const email: IDataObject = {};
	const summary: IDataObject = {};
	if (readParameter(context, 'content', itemIndex, 'htmlAndText') === 'template') {
		const template = readTemplate(context, itemIndex);
		email.template = template;
		summary.template = { id: template.id };
	} else {
		const html = readText(context, 'html', itemIndex);
		const text = readText(context, 'text', itemIndex);
		if (!html.trim() && !text.trim()) {
			throw invalidInput(
				context,
				itemIndex,
				'HTML',
				'no content: fill in HTML or Text',
				'Or choose Content: Template.',
			);
		}
		if (html.trim()) email.html = Buffer.from(html, 'utf8').toString('base64');
		if (text.trim()) email.text = text;
		if (readParameter(context, 'autoPlainText', itemIndex, false) === true)
			email.auto_plain_text = true;
	}

	const options = readParameter(context, 'options', itemIndex, {}) as IDataObject;
	const htmlBytes = String(email.html ?? '').length;
	const textBytes = Buffer.byteLength(String(email.text ?? ''), 'utf8');
	const contentBytes = htmlBytes + textBytes;
	checkContentSize(context, itemIndex, htmlBytes >= textBytes ? 'HTML' : 'Text', contentBytes);
	const { textAttachments, binaryAttachments, attachmentNames, otherBytes } = readAttachments(
		context,
		itemIndex,
		attachmentsInOnePlace
			? readParameter(context, 'binaryAttachments', itemIndex, '')
			: options.binaryAttachments,
		contentBytes,
	);
	await checkSender(itemIndex, from.email);

	Object.assign(email, {
		subject,
		from,
		to,
		...(cc.length ? { cc } : {}),
		...(bcc.length ? { bcc } : {}),
		...(Object.keys(textAttachments).length ? { attachments: textAttachments } : {}),
	});
	Object.assign(summary, {
		subject,
		from: email.from,
		to,
		...(cc.length ? { cc } : {}),
		...(bcc.length ? { bcc } : {}),
		...(attachmentNames.length ? { attachments: attachmentNames } : {}),
	});
	return { email, summary, binaryAttachments, otherBytes };
}

/** The variable names each item gave, by template ID. */
type TemplateUses = Map<string, Array<{ itemIndex: number; given: Set<string> }>>;

const itemList = (indexes: number[]) =>
	indexes.length === 1 ? `item ${indexes[0]}` : `items ${indexes.join(', ')}`;

/**
 * A run warning naming each variable a template uses that an item did not give (the service sends the email all
 * the same). One GET /template/{id} per distinct template of the run, after the sends, so a send never waits for
 * it; a template the service does not give (an error, no body) is not checked, and the run is not failed for it.
 */
async function warnOfMissingVariables(
	context: IExecuteFunctions,
	client: MessagingClient,
	uses: TemplateUses,
): Promise<void> {
	for (const [id, items] of uses) {
		let names: string[] | undefined;
		try {
			names = await templateVariableNames(client, id);
		} catch {
			names = undefined;
		}
		if (!names) continue;
		const missing = names
			.map((name) => ({
				name,
				items: items.filter(({ given }) => !given.has(name)).map(({ itemIndex }) => itemIndex),
			}))
			.filter((entry) => entry.items.length > 0);
		if (!missing.length) continue;
		context.addExecutionHints({
			message: `Template ${id} uses variables that Template Variables did not give: ${missing
				.map((entry) => `{{${entry.name}}} (${itemList(entry.items)})`)
				.join(', ')}. Add them, or recipients get the template without these values.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
}

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const checkSender = senderCheck(this, client);
	const once = sendOnceGate(this);
	const templateUses: TemplateUses = new Map();
	const attachmentsInOnePlace = this.getNode().typeVersion >= ATTACHMENTS_IN_ONE_PLACE;
	const output = await runPerItem(this, client, {
		prepare: async (itemIndex) => {
			const prepared = await prepare(this, itemIndex, checkSender, attachmentsInOnePlace);
			once?.readKey(itemIndex, () => [prepared.email, prepared.summary.attachments ?? []]);
			const template = prepared.email.template as IDataObject | undefined;
			if (template) {
				const id = String(template.id);
				const given = new Set(Object.keys(template.variables as IDataObject));
				const uses = templateUses.get(id) ?? [];
				uses.push({ itemIndex, given });
				templateUses.set(id, uses);
			}
			return prepared;
		},
		gate: once,
		send: async ({ email, summary, binaryAttachments, otherBytes }, itemIndex) => {
			const attachments = await loadBinaryAttachments(
				this,
				itemIndex,
				binaryAttachments,
				otherBytes,
			);
			const answer =
				(await client.request<IDataObject>({
					method: 'POST',
					path: '/smtp/emails',
					body: {
						email: Object.keys(attachments).length
							? { ...email, attachments_binary: attachments }
							: email,
					},
					idempotent: false,
					itemIndex,
				})) ?? {};
			return {
				id: answer.id === undefined ? undefined : String(answer.id),
				result: answer.result,
				...summary,
			} as IDataObject;
		},
	});
	await warnOfMissingVariables(this, client, templateUses);
	return output;
}
