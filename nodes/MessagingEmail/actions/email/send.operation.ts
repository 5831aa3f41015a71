import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { invalidInput, runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { parseAddresses, type Address } from '../../helpers/addresses';
import { requiredEmail, requiredString } from '../../helpers/fields';

const recipientPairs = (name: string, displayName: string, description: string): INodeProperties => ({
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
				{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
			],
		},
	],
});

const properties: INodeProperties[] = [
	{
		displayName: 'From Email Name or ID',
		name: 'fromEmail',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSenders' },
		required: true,
		default: '',
		description:
			'Sender address, one of the approved senders of the account. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'From Name',
		name: 'fromName',
		type: 'string',
		default: '',
		description: 'Name shown as the sender',
	},
	{
		displayName: 'Recipients Input',
		name: 'recipientsInput',
		type: 'options',
		options: [
			{
				name: 'Text',
				value: 'text',
				description: 'Comma-separated addresses such as Ann &lt;ann@example.com&gt;, bob@example.com',
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
	},
	{
		displayName: 'Content',
		name: 'content',
		type: 'options',
		options: [
			{ name: 'HTML and Text', value: 'htmlAndText', description: 'Type or map the message itself' },
			{ name: 'Template', value: 'template', description: 'A template stored in the account, with variable values' },
		],
		default: 'htmlAndText',
	},
	{
		displayName: 'HTML',
		name: 'html',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description: 'HTML version of the message, as plain HTML (the node encodes it for the service)',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: 'Plain-text version of the message',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		displayName: 'Generate Text From HTML',
		name: 'autoPlainText',
		type: 'boolean',
		default: false,
		description: 'Whether the service should generate the text version from the HTML when Text is empty',
		displayOptions: { show: { content: ['htmlAndText'] } },
	},
	{
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID of the template (its real_id or ID in the template list); numeric and text IDs both work',
		displayOptions: { show: { content: ['template'] } },
	},
	{
		displayName: 'Template Variables Input',
		name: 'variablesInput',
		type: 'options',
		options: [
			{ name: 'Name/Value Pairs', value: 'pairs' },
			{ name: 'JSON', value: 'json' },
		],
		default: 'pairs',
		displayOptions: { show: { content: ['template'] } },
	},
	{
		displayName: 'Template Variables',
		name: 'templateVariables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Variable',
		default: {},
		displayOptions: { show: { content: ['template'], variablesInput: ['pairs'] } },
		options: [
			{
				displayName: 'Variable',
				name: 'variables',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Template Variables (JSON)',
		name: 'templateVariablesJson',
		type: 'json',
		default: '{}',
		description: 'An object mapping each variable name to its value, e.g. {"name": "Ann", "code": 1234}',
		displayOptions: { show: { content: ['template'], variablesInput: ['json'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Attachment File Names',
				name: 'attachmentFileNames',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				description: 'File names to use instead of the ones stored with the binary data',
				options: [
					{
						displayName: 'File Name',
						name: 'names',
						values: [
							{ displayName: 'Binary Property', name: 'binaryPropertyName', type: 'string', default: 'data' },
							{ displayName: 'File Name', name: 'fileName', type: 'string', default: '', placeholder: 'invoice.pdf' },
						],
					},
				],
			},
			{
				displayName: 'Attachments (Binary Properties)',
				name: 'binaryAttachments',
				type: 'string',
				default: '',
				placeholder: 'data, invoice',
				description: 'Names of the binary properties of the input item to attach, comma-separated',
			},
			{
				displayName: 'Text Attachments',
				name: 'textAttachments',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				description: 'Attachments given as text (e.g. CSV or ICS content)',
				options: [
					{
						displayName: 'Attachment',
						name: 'attachments',
						values: [
							{ displayName: 'File Name', name: 'fileName', type: 'string', default: '', placeholder: 'report.csv' },
							{ displayName: 'Content', name: 'content', type: 'string', typeOptions: { rows: 3 }, default: '' },
						],
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['email'], operation: ['send'] } }, properties);

interface PreparedEmail {
	email: IDataObject;
	summary: IDataObject;
	binaryAttachments: Array<{ property: string; fileName: string }>;
}

function readRecipients(
	context: IExecuteFunctions,
	itemIndex: number,
	mode: string,
	key: 'to' | 'cc' | 'bcc',
	displayName: string,
): Address[] {
	const value =
		mode === 'pairs'
			? ((context.getNodeParameter(`${key}Pairs.recipients`, itemIndex, []) as IDataObject[]) ?? []).filter(
					(row) => String(row.email ?? '').trim() !== '' || String(row.name ?? '').trim() !== '',
				)
			: context.getNodeParameter(key, itemIndex, '');
	const parsed = parseAddresses(value);
	if (!parsed.ok) throw invalidInput(context, itemIndex, displayName, parsed.problem);
	return parsed.addresses;
}

function readTemplate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const rawId = requiredString(context, itemIndex, 'templateId', 'Template ID');
	const id = /^[1-9]\d{0,15}$/.test(rawId) ? Number(rawId) : rawId;
	let variables: IDataObject = {};
	if (context.getNodeParameter('variablesInput', itemIndex, 'pairs') === 'json') {
		const raw = context.getNodeParameter('templateVariablesJson', itemIndex, '{}') as unknown;
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = raw.trim() === '' ? {} : JSON.parse(raw);
			} catch (error) {
				throw invalidInput(context, itemIndex, 'Template Variables (JSON)', `is not valid JSON (${(error as Error).message})`);
			}
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
			throw invalidInput(context, itemIndex, 'Template Variables (JSON)', 'must be a JSON object of variable names and values');
		}
		for (const [name, value] of Object.entries(parsed)) {
			if (value !== null && typeof value === 'object') {
				throw invalidInput(context, itemIndex, 'Template Variables (JSON)', `the value of "${name}" must be text, a number or a boolean`);
			}
		}
		variables = parsed as IDataObject;
	} else {
		const rows = (context.getNodeParameter('templateVariables.variables', itemIndex, []) as IDataObject[]) ?? [];
		for (const row of rows) {
			const name = String(row.name ?? '').trim();
			if (!name) throw invalidInput(context, itemIndex, 'Template Variables', 'a variable has no name');
			variables[name] = (row.value ?? '') as string;
		}
	}
	return { id, variables };
}

/**
 * Which binary properties to attach and under which file names, checked before anything is sent. The bytes are
 * read only when the item is sent (loadBinaryAttachments), so a run over many items never holds every item's
 * files in memory at once.
 */
function planBinaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): Array<{ property: string; fileName: string }> {
	const properties = String(options.binaryAttachments ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	const renames = new Map(
		(((options.attachmentFileNames as IDataObject | undefined)?.names as IDataObject[] | undefined) ?? [])
			.filter((row) => String(row.fileName ?? '').trim() !== '')
			.map((row) => [String(row.binaryPropertyName ?? '').trim(), String(row.fileName).trim()]),
	);
	const binary = context.getInputData()[itemIndex].binary ?? {};
	const planned: Array<{ property: string; fileName: string }> = [];
	for (const property of properties) {
		const data = binary[property];
		if (!data) {
			const present = Object.keys(binary);
			throw invalidInput(
				context,
				itemIndex,
				'Attachments (Binary Properties)',
				`the input item has no binary property "${property}"`,
				present.length ? `Binary properties on this item: ${present.join(', ')}` : 'This item carries no binary data.',
			);
		}
		const fileName =
			renames.get(property) ?? data.fileName ?? (data.fileExtension ? `${property}.${data.fileExtension}` : property);
		if (planned.some((attachment) => attachment.fileName === fileName)) {
			throw invalidInput(context, itemIndex, 'Attachments (Binary Properties)', `two attachments are named "${fileName}"`, 'Rename one under Attachment File Names.');
		}
		planned.push({ property, fileName });
	}
	return planned;
}

/** Reads the planned files through n8n's binary data service (works when n8n keeps binaries on disk or in a database). */
async function loadBinaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	planned: Array<{ property: string; fileName: string }>,
): Promise<Record<string, string>> {
	const attachments: Record<string, string> = {};
	for (const { property, fileName } of planned) {
		attachments[fileName] = (await context.helpers.getBinaryDataBuffer(itemIndex, property)).toString('base64');
	}
	return attachments;
}

/**
 * The account's approved senders, asked for once per execution (GET /smtp/senders) so an unknown From address
 * fails before anything is sent, naming the parameter and item.
 */
type SenderCheck = (itemIndex: number, email: string) => Promise<void>;

function senderCheck(context: IExecuteFunctions, client: MessagingClient): SenderCheck {
	let senders: Promise<string[]> | undefined;
	return async (itemIndex, email) => {
		senders ??= client.request({ method: 'GET', path: '/smtp/senders', itemIndex }).then((answer) =>
			(Array.isArray(answer) ? answer : []).map((sender) =>
				String(typeof sender === 'object' && sender !== null ? (sender as IDataObject).email : sender).toLowerCase(),
			),
		);
		const approved = await senders;
		if (!approved.includes(email.toLowerCase())) {
			throw invalidInput(
				context,
				itemIndex,
				'From Email',
				`"${email}" is not an approved sender of the account`,
				approved.length
					? `Approved senders: ${approved.join(', ')}. Add the address with Sender → Add Address, or choose one from the list.`
					: 'The account has no approved sender yet: add one with Sender → Add Address.',
			);
		}
	};
}

async function prepare(context: IExecuteFunctions, itemIndex: number, checkSender: SenderCheck): Promise<PreparedEmail> {
	const fromEmail = requiredEmail(context, itemIndex, 'fromEmail', 'From Email');
	const fromName = String(context.getNodeParameter('fromName', itemIndex, '') ?? '').trim();
	const mode = context.getNodeParameter('recipientsInput', itemIndex, 'text') as string;
	const to = readRecipients(context, itemIndex, mode, 'to', 'To');
	const cc = readRecipients(context, itemIndex, mode, 'cc', 'Cc');
	const bcc = readRecipients(context, itemIndex, mode, 'bcc', 'Bcc');
	if (to.length === 0) throw invalidInput(context, itemIndex, 'To', 'no recipient', 'Give at least one address.');
	const subject = requiredString(context, itemIndex, 'subject', 'Subject');

	const email: IDataObject = {};
	const summary: IDataObject = {};
	if (context.getNodeParameter('content', itemIndex, 'htmlAndText') === 'template') {
		const template = readTemplate(context, itemIndex);
		email.template = template;
		summary.template = { id: template.id };
	} else {
		const html = String(context.getNodeParameter('html', itemIndex, '') ?? '');
		const text = String(context.getNodeParameter('text', itemIndex, '') ?? '');
		if (!html.trim() && !text.trim()) {
			throw invalidInput(context, itemIndex, 'HTML', 'no content: fill in HTML or Text', 'Or choose Content: Template.');
		}
		if (html.trim()) email.html = Buffer.from(html, 'utf8').toString('base64');
		if (text.trim()) email.text = text;
		if (context.getNodeParameter('autoPlainText', itemIndex, false) === true) email.auto_plain_text = true;
	}

	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const textAttachments: Record<string, string> = {};
	for (const row of ((options.textAttachments as IDataObject | undefined)?.attachments as IDataObject[] | undefined) ?? []) {
		const fileName = String(row.fileName ?? '').trim();
		if (!fileName) throw invalidInput(context, itemIndex, 'Text Attachments', 'an attachment has no file name');
		if (textAttachments[fileName] !== undefined) throw invalidInput(context, itemIndex, 'Text Attachments', `two attachments are named "${fileName}"`);
		textAttachments[fileName] = String(row.content ?? '');
	}
	const binaryAttachments = planBinaryAttachments(context, itemIndex, options);
	if (binaryAttachments.some(({ fileName }) => textAttachments[fileName] !== undefined)) {
		throw invalidInput(context, itemIndex, 'Attachments (Binary Properties)', 'a binary attachment has the name of a text attachment');
	}
	await checkSender(itemIndex, fromEmail);

	Object.assign(email, {
		subject,
		from: fromName ? { name: fromName, email: fromEmail } : { email: fromEmail },
		to,
		...(cc.length ? { cc } : {}),
		...(bcc.length ? { bcc } : {}),
		...(Object.keys(textAttachments).length ? { attachments: textAttachments } : {}),
	});
	const attachmentNames = [...Object.keys(textAttachments), ...binaryAttachments.map(({ fileName }) => fileName)];
	Object.assign(summary, {
		subject,
		from: email.from,
		to,
		...(cc.length ? { cc } : {}),
		...(bcc.length ? { bcc } : {}),
		...(attachmentNames.length ? { attachments: attachmentNames } : {}),
	});
	return { email, summary, binaryAttachments };
}

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	const checkSender = senderCheck(this, client);
	return await runPerItem(this, client, {
		prepare: async (itemIndex) => await prepare(this, itemIndex, checkSender),
		send: async ({ email, summary, binaryAttachments }, itemIndex) => {
			const attachments = await loadBinaryAttachments(this, itemIndex, binaryAttachments);
			const answer = (await client.request<IDataObject>({
				method: 'POST',
				path: '/smtp/emails',
				body: { email: Object.keys(attachments).length ? { ...email, attachments_binary: attachments } : email },
				idempotent: false,
				itemIndex,
			})) ?? {};
			return { id: answer.id === undefined ? undefined : String(answer.id), result: answer.result, ...summary } as IDataObject;
		},
	});
}
