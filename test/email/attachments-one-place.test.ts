import { NodeHelpers, type INode, type INodeParameters, type INodeProperties } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { sendParameters } from '../harness/send-parameters';
import { b64, jsonOf, useEmailSandbox } from './setup';

const t = useEmailSandbox();
const description = new MessagingEmail().description;

/** What n8n keeps and shows of Send's parameters at `typeVersion`, as the editor and a workflow load do. */
function asN8nSees(typeVersion: number, saved: INodeParameters) {
	const parameters = { resource: 'email', operation: 'send', ...saved };
	const node = {
		id: 'send',
		name: 'Send',
		type: 'n8n-nodes-messaging.messagingEmail',
		typeVersion,
		position: [0, 0],
		parameters,
	} as INode;
	// What a save keeps (defaults left out), and the values the editor decides what to show by (defaults in).
	const kept =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			false,
			false,
			node,
			description,
		) ?? {};
	const withDefaults =
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	const shown = (property: INodeProperties) =>
		NodeHelpers.displayParameter(withDefaults, property, node, description);
	const sendFields = description.properties.filter(
		(property) => property.displayOptions?.show?.operation?.includes('send') && shown(property),
	);
	const options = sendFields.find((property) => property.name === 'options');
	return {
		kept,
		attachmentFields: sendFields
			.map((property) => property.name)
			.filter((name) => /attachment/i.test(name)),
		optionNames: (options?.options as INodeProperties[]).map((option) => option.name),
	};
}

describe('Send: attachments in one place from version 1.1', () => {
	test('new nodes are 1.1; version 1 stays loadable', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	test('1.1: Binary Attachments beside Binary File Names and Text Attachments, not under Options', () => {
		const { attachmentFields, optionNames, kept } = asN8nSees(1.1, {
			binaryAttachments: 'invoice',
		});
		expect(attachmentFields).toEqual([
			'binaryAttachments',
			'attachmentFileNames',
			'textAttachments',
		]);
		expect(optionNames).toEqual(['sendOnce']);
		expect(kept.binaryAttachments).toBe('invoice');
	});

	test('1 (saved workflows): Binary Attachments stays under Options with its saved value', () => {
		const { attachmentFields, optionNames, kept } = asN8nSees(1, {
			options: { binaryAttachments: 'invoice' },
		});
		expect(attachmentFields).toEqual(['attachmentFileNames', 'textAttachments']);
		expect(optionNames).toEqual(['binaryAttachments', 'sendOnce']);
		expect(kept.options).toEqual({ binaryAttachments: 'invoice' });
		expect(kept.binaryAttachments).toBeUndefined();
	});

	test('1.1 sends the binary attachments named in the field, renamed, with a text attachment', async () => {
		const pdf = Buffer.from('%PDF-1.4 fake pdf body \x00\x01\x02', 'latin1');
		const csv = Buffer.from('name;city\nЁлка;Київ\n', 'utf8');
		const result = await t.run(
			sendParameters({
				binaryAttachments: 'invoice, table',
				attachmentFileNames: { names: [{ binaryPropertyName: 'table', fileName: 'export.csv' }] },
				textAttachments: { attachments: [{ fileName: 'note.txt', content: 'Plain note ✓' }] },
			}),
			[
				{
					json: {},
					binary: {
						invoice: { data: pdf, fileName: 'invoice-42.pdf', mimeType: 'application/pdf' },
						table: { data: csv, fileName: 'data.csv', mimeType: 'text/csv' },
					},
				},
			],
			{ typeVersion: 1.1 },
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()[1]).toEqual({
			method: 'POST',
			path: '/smtp/emails',
			rawQuery: '',
			body: {
				email: {
					html: b64('<p>Hello</p>'),
					text: 'Hello',
					subject: 'Hello',
					from: { name: 'Sandbox Sender', email: 'sender@sandbox.test' },
					to: [{ name: 'Ann', email: 'ann@example.com' }],
					attachments: { 'note.txt': 'Plain note ✓' },
					attachments_binary: {
						'invoice-42.pdf': pdf.toString('base64'),
						'export.csv': csv.toString('base64'),
					},
				},
			},
		});
		expect(jsonOf(result)[0].attachments).toEqual(['note.txt', 'invoice-42.pdf', 'export.csv']);
	});

	test('1.1: a missing binary property names Binary Attachments and the item; nothing is sent', async () => {
		const result = await t.run(sendParameters({ binaryAttachments: 'invoice' }), [{ json: {} }], {
			typeVersion: 1.1,
		});
		expect(result.error?.message).toBe(
			'Binary Attachments: the input item has no binary property "invoice" [item 0]',
		);
		expect(t.calls()).toEqual([]);
	});
});
