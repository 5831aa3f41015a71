import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/items';
import { readParameter } from '../../shared/parameters';

/** Send's attachment options: binary properties of the item (optionally renamed) and attachments given as text. */
export const attachmentOptions: INodeProperties[] = [
	{
		displayName: 'Binary Attachments',
		name: 'binaryAttachments',
		type: 'string',
		default: '',
		placeholder: 'data, invoice',
		description: 'Names of the binary properties of the input item to attach, comma-separated',
	},
];

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
			'File names to use for the binary properties in Options → Binary Attachments instead of the ones stored with the binary data',
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
): PlannedBinary[] {
	const properties = String(options.binaryAttachments ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	const fileNames = readParameter(context, 'attachmentFileNames', itemIndex, {}) as IDataObject;
	const renames = new Map(
		((fileNames?.names as IDataObject[] | undefined) ?? [])
			.filter((row) => String(row.fileName ?? '').trim() !== '')
			.map((row) => [String(row.binaryPropertyName ?? '').trim(), String(row.fileName).trim()]),
	);
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
		if (planned.some((attachment) => attachment.fileName === fileName)) {
			throw invalidInput(
				context,
				itemIndex,
				'Binary Attachments',
				`two attachments are named "${fileName}"`,
				'Rename one under Binary File Names.',
			);
		}
		planned.push({ property, fileName });
	}
	return planned;
}

/** Reads the planned files through n8n's binary data service (works when n8n keeps binaries on disk or in a database). */
export async function loadBinaryAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	planned: PlannedBinary[],
): Promise<Record<string, string>> {
	const attachments: Record<string, string> = {};
	for (const { property, fileName } of planned) {
		attachments[fileName] = (
			await context.helpers.getBinaryDataBuffer(itemIndex, property)
		).toString('base64');
	}
	return attachments;
}

/**
 * The item's attachments, checked before anything is sent: text attachments (named, no two alike) and the binary
 * ones planned; a binary attachment may not take a text attachment's name.
 */
export function readAttachments(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): {
	textAttachments: Record<string, string>;
	binaryAttachments: PlannedBinary[];
	attachmentNames: string[];
} {
	const textAttachments: Record<string, string> = {};
	const texts = readParameter(context, 'textAttachments', itemIndex, {}) as IDataObject;
	for (const row of (texts?.attachments as IDataObject[] | undefined) ?? []) {
		const fileName = String(row.fileName ?? '').trim();
		if (!fileName)
			throw invalidInput(context, itemIndex, 'Text Attachments', 'an attachment has no file name');
		if (textAttachments[fileName] !== undefined)
			throw invalidInput(
				context,
				itemIndex,
				'Text Attachments',
				`two attachments are named "${fileName}"`,
			);
		textAttachments[fileName] = String(row.content ?? '');
	}
	const binaryAttachments = planBinaryAttachments(context, itemIndex, options);
	if (binaryAttachments.some(({ fileName }) => textAttachments[fileName] !== undefined)) {
		throw invalidInput(
			context,
			itemIndex,
			'Binary Attachments',
			'a binary attachment has the name of a text attachment',
		);
	}
	return {
		textAttachments,
		binaryAttachments,
		attachmentNames: [
			...Object.keys(textAttachments),
			...binaryAttachments.map(({ fileName }) => fileName),
		],
	};
}
