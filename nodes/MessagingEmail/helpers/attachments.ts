import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/values/inputErrors';
import { readParameter } from '../../shared/items/parameters';
import { headerProblem } from './headers';

/**
 * The largest email the package sends, counted as it travels: Base64 HTML, text, text attachments, and binary
 * attachments Base64-encoded (4 bytes for every 3), as a mail server counts a MIME message. The service's API
 * reference states no figure; it refuses larger messages with 422 "Message size limit exceeded", an error that
 * names no attachment, after the whole upload (docs/service-notes.md, Email). 10 MiB is the limit the API sandbox
 * applies; counting the encoded size keeps every email the node sends within it. Checked before anything is sent.
 */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Base64's length for `bytes` bytes. */
export function base64Length(bytes: number): number {
	return 4 * Math.ceil(bytes / 3);
}

export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * The content alone (Base64 HTML and text) within the limit: an 11 MB body without attachments would be uploaded
 * whole and then refused by the service. Names the parameter that holds most of it.
 */
export function checkContentSize(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	contentBytes: number,
): void {
	if (contentBytes > MAX_MESSAGE_BYTES)
		throw invalidInput(
			context,
			itemIndex,
			parameter,
			`the content is ${megabytes(contentBytes)} as sent (HTML travels Base64-encoded), over the ${megabytes(MAX_MESSAGE_BYTES)} an email may have`,
			'Send a link to large content, or split it over several emails.',
		);
}

/** Adds the attachments to the email's encoded size in order; the item fails naming the one that crosses the limit. */
export function checkMessageSize(
	context: IExecuteFunctions,
	itemIndex: number,
	baseBytes: number,
	attachments: Array<{ parameter: string; fileName: string; encodedBytes: number }>,
): void {
	let total = baseBytes;
	for (const { parameter, fileName, encodedBytes } of attachments) {
		total += encodedBytes;
		if (total > MAX_MESSAGE_BYTES)
			throw invalidInput(
				context,
				itemIndex,
				parameter,
				`"${fileName}" (${megabytes(encodedBytes)} encoded) brings the email to ${megabytes(total)}, over the ${megabytes(MAX_MESSAGE_BYTES)} an email may have`,
				'Attachments travel Base64-encoded (4 bytes for every 3 of the file). Send a link to large files, or split them over several emails.',
			);
	}
}

/**
 * The node version from which Send shows its attachments in one place: Binary Attachments beside Binary File Names
 * and Text Attachments (parameter `binaryAttachments`), no longer under Options (`options.binaryAttachments`, which
 * version 1 keeps: n8n stores parameters by path, so moving it within version 1 would drop saved values).
 */
export const ATTACHMENTS_IN_ONE_PLACE = 1.1;

const binaryAttachmentsField: INodeProperties = {
	displayName: 'Binary Attachments',
	name: 'binaryAttachments',
	type: 'string',
	default: '',
	placeholder: 'data, invoice',
	description: 'Names of the binary properties of the input item to attach, comma-separated',
};

/** Version 1's Options entry: Binary Attachments. */
export const attachmentOptions: INodeProperties[] = [binaryAttachmentsField];

/** From version 1.1: Binary Attachments as a field of Send, first of the attachment fields. */
export const binaryAttachmentsTopLevel: INodeProperties = {
	...binaryAttachmentsField,
	displayOptions: { show: { '@version': [{ _cnd: { gte: ATTACHMENTS_IN_ONE_PLACE } }] } },
};

/**
 * Binary File Names and Text Attachments: lists of rows, so top-level fields of Send, not Options. n8n's editor
 * drops an Options entry whose list is still empty as soon as another option is added (its parameter cleanup
 * removes empty objects inside a collection): Text Attachments, then Binary File Names left "No properties".
 */
export const attachmentListFields: INodeProperties[] = [
	{
		displayName: 'Binary File Names',
		name: 'attachmentFileNames',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add File Name',
		default: {},
		description:
			'File names to use for the binary properties listed in Binary Attachments instead of the ones stored with the binary data',
		options: [
			{
				displayName: 'File Name',
				name: 'names',
				values: [
					{
						displayName: 'Binary Property',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
					},
					{
						displayName: 'File Name',
						name: 'fileName',
						type: 'string',
						default: '',
						placeholder: 'invoice.pdf',
					},
				],
			},
		],
	},
	{
		displayName: 'Text Attachments',
		name: 'textAttachments',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Text Attachment',
		default: {},
		description: 'Attachments given as text (e.g. CSV or ICS content)',
		options: [
			{
				displayName: 'Attachment',
				name: 'attachments',
				values: [
					{
						displayName: 'File Name',
						name: 'fileName',
						type: 'string',
						default: '',
						placeholder: 'report.csv',
					},
					{
						displayName: 'Content',
						name: 'content',
						type: 'string',
						typeOptions: { rows: 3 },
						default: '',
					},
				],
			},
		],
	},
];

export interface PlannedBinary {
	property: string;
	fileName: string;
	/** The file's size as n8n recorded it, when it did (then the size is checked before anything is sent). */
	bytes?: number;
}

/**
 * Which binary properties to attach and under which file names, checked before anything is sent. The bytes are
 * read only when the item is sent (loadBinaryAttachments), so a run over many items never holds every item's
 * files in memory at once.
 */
function planBinaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	binaryAttachments: unknown,
): PlannedBinary[] {
	const properties = String(binaryAttachments ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	const fileNames = readParameter(context, 'attachmentFileNames', itemIndex, {}) as IDataObject;
	const renames = new Map<string, string>();
	for (const row of (fileNames?.names as IDataObject[] | undefined) ?? []) {
		const property = String(row.binaryPropertyName ?? '').trim();
		const fileName = String(row.fileName ?? '').trim();
		if (!fileName) continue;
		const problem = headerProblem(fileName);
		if (problem)
			throw invalidInput(
				context,
				itemIndex,
				'Binary File Names',
				`the file name for "${property}" ${problem}`,
			);
		renames.set(property, fileName);
	}
	const binary = context.getInputData()[itemIndex].binary ?? {};
	const planned: PlannedBinary[] = [];
	for (const property of properties) {
		const data = binary[property];
		if (!data) {
			const present = Object.keys(binary);
			throw invalidInput(
				context,
				itemIndex,
				'Binary Attachments',
				`the input item has no binary property "${property}"`,
				present.length
					? `Binary properties on this item: ${present.join(', ')}`
					: 'This item carries no binary data.',
			);
		}
		const fileName =
			renames.get(property) ??
			data.fileName ??
			(data.fileExtension ? `${property}.${data.fileExtension}` : property);
		// The name stored with the binary data (renames are checked above): it may come from anywhere upstream.
		const problem = headerProblem(fileName);
		if (problem)
			throw invalidInput(
				context,
				itemIndex,
				'Binary Attachments',
				`the file name of "${property}" ${problem}`,
				'Give it a one-line name under Binary File Names.',
			);
		if (planned.some((attachment) => attachment.fileName === fileName)) {
			throw invalidInput(
				context,
				itemIndex,
				'Binary Attachments',
				`two attachments are named "${fileName}"`,
				'Rename one under Binary File Names.',
			);
		}
		planned.push({
			property,
			fileName,
			bytes: typeof data.bytes === 'number' ? data.bytes : undefined,
		});
	}
	return planned;
}

/** Reads the planned files through n8n's binary data service (works when n8n keeps binaries on disk or in a database). */
export async function loadBinaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	planned: PlannedBinary[],
	otherBytes: number,
): Promise<Record<string, string>> {
	const attachments: Record<string, string> = {};
	for (const { property, fileName } of planned) {
		attachments[fileName] = (
			await context.helpers.getBinaryDataBuffer(itemIndex, property)
		).toString('base64');
	}
	// Again with the files as read: binary data without a recorded size is checked here, still before sending.
	checkMessageSize(
		context,
		itemIndex,
		otherBytes,
		planned.map(({ fileName }) => ({
			parameter: 'Binary Attachments',
			fileName,
			encodedBytes: attachments[fileName].length,
		})),
	);
	return attachments;
}

/**
 * The item's attachments, checked before anything is sent: text attachments (named, no two alike) and the binary
 * ones planned; a binary attachment may not take a text attachment's name.
 */
export function readAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	/** Binary Attachments as given: the property names, comma-separated. */
	binaryAttachments: unknown,
	contentBytes: number,
): {
	textAttachments: Record<string, string>;
	binaryAttachments: PlannedBinary[];
	attachmentNames: string[];
	/** The email's encoded size without its binary attachments (content and text attachments). */
	otherBytes: number;
} {
	const textAttachments: Record<string, string> = {};
	const texts = readParameter(context, 'textAttachments', itemIndex, {}) as IDataObject;
	for (const row of (texts?.attachments as IDataObject[] | undefined) ?? []) {
		const fileName = String(row.fileName ?? '').trim();
		if (!fileName)
			throw invalidInput(context, itemIndex, 'Text Attachments', 'an attachment has no file name');
		const problem = headerProblem(fileName);
		if (problem)
			throw invalidInput(context, itemIndex, 'Text Attachments', `a file name ${problem}`);
		if (textAttachments[fileName] !== undefined)
			throw invalidInput(
				context,
				itemIndex,
				'Text Attachments',
				`two attachments are named "${fileName}"`,
			);
		textAttachments[fileName] = String(row.content ?? '');
	}
	const planned = planBinaryAttachments(context, itemIndex, binaryAttachments);
	if (planned.some(({ fileName }) => textAttachments[fileName] !== undefined)) {
		throw invalidInput(
			context,
			itemIndex,
			'Binary Attachments',
			'a binary attachment has the name of a text attachment',
		);
	}
	const textSizes = Object.entries(textAttachments).map(([fileName, content]) => ({
		parameter: 'Text Attachments',
		fileName,
		encodedBytes: Buffer.byteLength(content, 'utf8'),
	}));
	checkMessageSize(context, itemIndex, contentBytes, [
		...textSizes,
		...planned.map(({ fileName, bytes }) => ({
			parameter: 'Binary Attachments',
			fileName,
			encodedBytes: base64Length(bytes ?? 0),
		})),
	]);
	return {
		textAttachments,
		binaryAttachments: planned,
		otherBytes: textSizes.reduce((sum, text) => sum + text.encodedBytes, contentBytes),
		attachmentNames: [...Object.keys(textAttachments), ...planned.map(({ fileName }) => fileName)],
	};
}
