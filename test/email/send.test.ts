import type { INodeParameters } from 'n8n-workflow';

import { ADDRESS_FORM_HINT } from '../../nodes/MessagingEmail/helpers/addresses';
import { sendParameters } from '../harness/send-parameters';
import { b64, jsonOf, useEmailSandbox } from './setup';
import { omit } from '../../sandbox/core/records';

const t = useEmailSandbox();

const SENDERS_CALL = { method: 'GET', path: '/smtp/senders', rawQuery: '', body: undefined };
const from = { name: 'Sandbox Sender', email: 'sender@sandbox.test' };

describe('Email → Send', () => {
	test('HTML and text: the exact request, the sandbox record and the output', async () => {
		const result = await t.run(
			sendParameters({ cc: 'Carl <carl@example.com>', bcc: 'audit@example.com' }),
		);
		expect(result.error).toBeUndefined();
		const id = t.state().emails[0].id;
		expect(id).toMatch(/^[0-9a-z]{6}-[0-9a-z]{6}-[0-9a-z]{2}$/);
		expect(t.calls()).toEqual([
			SENDERS_CALL,
			{
				method: 'POST',
				path: '/smtp/emails',
				rawQuery: '',
				body: {
					email: {
						html: b64('<p>Hello</p>'),
						text: 'Hello',
						subject: 'Hello',
						from,
						to: [{ name: 'Ann', email: 'ann@example.com' }],
						cc: [{ name: 'Carl', email: 'carl@example.com' }],
						bcc: [{ email: 'audit@example.com' }],
					},
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				id,
				result: true,
				subject: 'Hello',
				from,
				to: [{ name: 'Ann', email: 'ann@example.com' }],
				cc: [{ name: 'Carl', email: 'carl@example.com' }],
				bcc: [{ email: 'audit@example.com' }],
			},
		]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	test('UTF-8 HTML (Cyrillic, emoji) round-trips through Base64', async () => {
		const html = '<h1>Привет, мир! 👋🏽</h1><p>Ünïcödé — 日本語 ✉️</p>';
		const result = await t.run(sendParameters({ html, text: '', subject: 'Тема 🚀' }));
		expect(result.error).toBeUndefined();
		const sent = t.calls()[1].body as { email: Record<string, unknown> };
		expect(sent.email).toEqual({
			html: Buffer.from(html, 'utf8').toString('base64'),
			subject: 'Тема 🚀',
			from,
			to: [{ name: 'Ann', email: 'ann@example.com' }],
		});
		expect(Buffer.from(sent.email.html as string, 'base64').toString('utf8')).toBe(html);
		// The sandbox decoded exactly what was typed.
		expect(t.state().emails[0].content.html).toBe(html);
		expect(jsonOf(result)[0].subject).toBe('Тема 🚀');
	});

	test('only the keys in use are sent: text only, Generate Text From HTML', async () => {
		await t.run(sendParameters({ html: '', text: 'Just text' }));
		await t.run(sendParameters({ html: '<b>Only HTML</b>', text: '', autoPlainText: true }));
		const [first, second] = t.calls().filter((call) => call.method === 'POST');
		expect(first.body).toEqual({
			email: {
				text: 'Just text',
				subject: 'Hello',
				from,
				to: [{ name: 'Ann', email: 'ann@example.com' }],
			},
		});
		expect(second.body).toEqual({
			email: {
				html: b64('<b>Only HTML</b>'),
				auto_plain_text: true,
				subject: 'Hello',
				from,
				to: [{ name: 'Ann', email: 'ann@example.com' }],
			},
		});
	});

	test('recipients as a plain string with quoted names and semicolons, as an array from an expression, and as pairs', async () => {
		await t.run(
			sendParameters({
				to: '"Doe, John" <john@example.com>; bob@example.org,  Eve Smith <eve@example.net>',
				fromName: '',
			}),
		);
		await t.run(
			sendParameters({
				to: '={{ [{ "name": "Ann", "email": "ann@example.com" }, "zed@example.com"] }}',
				fromName: '',
			}),
		);
		await t.run(
			sendParameters({
				recipientsInput: 'pairs',
				fromName: '',
				toPairs: {
					recipients: [
						{ name: 'Pat', email: 'pat@example.com' },
						{ name: '', email: 'lee@example.com' },
					],
				},
				ccPairs: { recipients: [{ name: 'Kim', email: 'kim@example.com' }] },
				bccPairs: {},
			}),
		);
		const bodies = t
			.calls()
			.filter((call) => call.method === 'POST')
			.map((call) => (call.body as { email: Record<string, unknown> }).email);
		expect(bodies.map(({ to, cc, bcc, from: sender }) => ({ to, cc, bcc, from: sender }))).toEqual([
			{
				to: [
					{ name: 'Doe, John', email: 'john@example.com' },
					{ email: 'bob@example.org' },
					{ name: 'Eve Smith', email: 'eve@example.net' },
				],
				cc: undefined,
				bcc: undefined,
				from: { email: 'sender@sandbox.test' },
			},
			{
				to: [{ name: 'Ann', email: 'ann@example.com' }, { email: 'zed@example.com' }],
				cc: undefined,
				bcc: undefined,
				from: { email: 'sender@sandbox.test' },
			},
			{
				to: [{ name: 'Pat', email: 'pat@example.com' }, { email: 'lee@example.com' }],
				cc: [{ name: 'Kim', email: 'kim@example.com' }],
				bcc: undefined,
				from: { email: 'sender@sandbox.test' },
			},
		]);
	});

	test('template with name/value variables and a numeric ID', async () => {
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: '101',
				variablesInput: 'fields',
				variablesUi: {
					variable: [
						{ name: 'name', value: 'Ann' },
						{ name: 'code', value: '4711' },
					],
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()[1].body).toEqual({
			email: {
				template: { id: 101, variables: { name: 'Ann', code: '4711' } },
				subject: 'Hello',
				from,
				to: [{ name: 'Ann', email: 'ann@example.com' }],
			},
		});
		expect(jsonOf(result)).toEqual([
			{
				id: t.state().emails[0].id,
				result: true,
				template: { id: 101 },
				subject: 'Hello',
				from,
				to: [{ name: 'Ann', email: 'ann@example.com' }],
			},
		]);
	});

	test('a numeric template ID beyond 2^53 goes as text, digit for digit', async () => {
		const id = '9007199254740993';
		t.state().templates.set(id, { id, name: 'Big ID', subject: 'Big', html: '<p>big</p>' });
		const result = await t.run(
			sendParameters({ content: 'template', templateId: '9007199254740993' }),
		);
		expect(result.error).toBeUndefined();
		expect((t.calls()[1].body as { email: Record<string, unknown> }).email.template).toEqual({
			id: '9007199254740993',
			variables: {},
		});
		expect(t.state().emails[0].content.template).toEqual({ id: '9007199254740993', variables: {} });
	});

	test('template with JSON variables and a text ID', async () => {
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: 'tpl-news',
				variablesInput: 'json',
				variablesJson: '{"title": "Новости", "issue": 7, "draft": false}',
			}),
		);
		expect(result.error).toBeUndefined();
		expect((t.calls()[1].body as { email: Record<string, unknown> }).email.template).toEqual({
			id: 'tpl-news',
			variables: { title: 'Новости', issue: 7, draft: false },
		});
	});

	test('template variables JSON is validated before anything is sent', async () => {
		const broken = await t.run(
			sendParameters({
				content: 'template',
				templateId: '101',
				variablesInput: 'json',
				variablesJson: '{"a": ',
			}),
		);
		expect(broken.error?.message).toMatch(
			/^Template Variables \(JSON\): is not valid JSON .* \[item 0\]$/,
		);
		const list = await t.run(
			sendParameters({
				content: 'template',
				templateId: '101',
				variablesInput: 'json',
				variablesJson: '[1, 2]',
			}),
		);
		expect(list.error?.message).toBe(
			'Template Variables (JSON): entry 1 of the list must be an object {name, value} (got 1) [item 0]',
		);
		const nested = await t.run(
			sendParameters({
				content: 'template',
				templateId: '101',
				variablesInput: 'json',
				variablesJson: '{"a": {"b": 1}}',
			}),
		);
		expect(nested.error?.message).toBe(
			'Template Variables (JSON): variable "a" must be text, a number or a boolean (got {"b":1}) [item 0]',
		);
		expect(t.calls()).toEqual([]);
	});

	// The same three shapes Messaging SMS takes (test/sms/phoneNumber.test.ts, "Variables: the same shapes as Email").
	test.each([
		[
			'Fields rows (values are text)',
			{
				variablesInput: 'fields',
				variablesUi: {
					variable: [
						{ name: 'Name', value: '={{ $json.name }}' },
						{ name: ' Visits ', value: '={{ $json.visits }}' },
						{ name: 'Member', value: '={{ $json.member }}' },
					],
				},
			},
			{ Name: 'Ann', Visits: '2', Member: 'true' },
		],
		[
			'a JSON object from an expression (values as given)',
			{
				variablesInput: 'json',
				variablesJson:
					'={{ { "Name": $json.name, "Visits": $json.visits, "Member": $json.member } }}',
			},
			{ Name: 'Ann', Visits: 2, Member: true },
		],
		[
			'a JSON list of {name, value}',
			{
				variablesInput: 'json',
				variablesJson:
					'[{"name": "Name", "value": "Ann"}, {"name": "Visits", "value": 2}, {"name": "Member", "value": true}, {"name": "Note"}]',
			},
			{ Name: 'Ann', Visits: 2, Member: true, Note: '' },
		],
	])('template variables as %s', async (_, variables, sent) => {
		const result = await t.run(
			sendParameters({ content: 'template', templateId: '101', ...variables } as INodeParameters),
			[{ json: { name: 'Ann', visits: 2, member: true } }],
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()[1]).toEqual({
			method: 'POST',
			path: '/smtp/emails',
			rawQuery: '',
			body: {
				email: {
					template: { id: 101, variables: sent },
					subject: 'Hello',
					from,
					to: [{ name: 'Ann', email: 'ann@example.com' }],
				},
			},
		});
		expect(t.state().emails[0].content.template).toEqual({ id: 101, variables: sent });
	});

	test.each([
		[
			{ variablesInput: 'fields', variablesUi: { variable: [{ name: ' ', value: 'x' }] } },
			'Template Variables: a variable has no name [item 0]',
		],
		[
			{
				variablesInput: 'fields',
				variablesUi: { variable: [{ name: 'A', value: '={{ $json }}' }] },
			},
			'Template Variables: Value must be text, but the value is an object ({"n":1}) [item 0]',
		],
		[
			{ variablesInput: 'json', variablesJson: '"Ann"' },
			'Template Variables (JSON): must be a JSON object of variable names and values, or a list of {name, value} objects [item 0]',
		],
		[
			{ variablesInput: 'json', variablesJson: '[{"value": "Ann"}]' },
			'Template Variables (JSON): a variable has no name [item 0]',
		],
	])('template variables %j are refused before sending', async (variables, message) => {
		const result = await t.run(
			sendParameters({ content: 'template', templateId: '101', ...variables } as INodeParameters),
			[{ json: { n: 1 } }],
		);
		expect(result.error?.message).toBe(message);
		expect(t.calls()).toEqual([]);
	});

	test('an unknown template is the service error', async () => {
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: '999',
				variablesInput: 'fields',
				variablesUi: {},
			}),
		);
		expect(result.error?.message).toBe('Template not found (error code 31)');
		expect(t.calls().map((call) => call.path)).toEqual(['/smtp/senders', '/smtp/emails']);
	});

	test('three attachments from binary data kept on disk, renamed, plus a text attachment', async () => {
		const pdf = Buffer.from('%PDF-1.4 fake pdf body \x00\x01\x02', 'latin1');
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
		const csv = Buffer.from('name;city\nЁлка;Київ\n', 'utf8');
		const result = await t.run(
			sendParameters({
				options: { binaryAttachments: 'invoice, logo ,table' },
				attachmentFileNames: { names: [{ binaryPropertyName: 'table', fileName: 'export.csv' }] },
				textAttachments: { attachments: [{ fileName: 'note.txt', content: 'Plain note ✓' }] },
			}),
			[
				{
					json: {},
					binary: {
						invoice: { data: pdf, fileName: 'invoice-42.pdf', mimeType: 'application/pdf' },
						logo: { data: png, fileName: 'logo.png', mimeType: 'image/png' },
						table: { data: csv, fileName: 'data.csv', mimeType: 'text/csv' },
					},
				},
			],
		);
		expect(result.error).toBeUndefined();
		const email = (t.calls()[1].body as { email: Record<string, unknown> }).email;
		expect(email.attachments).toEqual({ 'note.txt': 'Plain note ✓' });
		expect(email.attachments_binary).toEqual({
			'invoice-42.pdf': pdf.toString('base64'),
			'logo.png': png.toString('base64'),
			'export.csv': csv.toString('base64'),
		});
		expect(
			Buffer.from(t.state().emails[0].content.attachmentsBinary['export.csv'], 'base64').toString(
				'utf8',
			),
		).toBe('name;city\nЁлка;Київ\n');
		expect(jsonOf(result)[0].attachments).toEqual([
			'note.txt',
			'invoice-42.pdf',
			'logo.png',
			'export.csv',
		]);
	});

	test('one request per item, concurrently, one output per item in order, paired', async () => {
		const items = Array.from({ length: 6 }, (_, index) => ({
			json: { address: `user${index}@example.com`, n: index },
		}));
		const result = await t.run(
			sendParameters({ to: '={{ $json.address }}', subject: '=Order {{ $json.n }}', fromName: '' }),
			items,
		);
		expect(result.error).toBeUndefined();
		const posts = t.calls().filter((call) => call.method === 'POST');
		expect(posts).toHaveLength(6);
		expect(t.calls().filter((call) => call.path === '/smtp/senders')).toHaveLength(1);
		const idsBySubject = new Map(t.state().emails.map((email) => [email.subject, email.id]));
		expect(jsonOf(result)).toEqual(
			items.map(({ json }) => ({
				id: idsBySubject.get(`Order ${json.n}`),
				result: true,
				subject: `Order ${json.n}`,
				from: { email: 'sender@sandbox.test' },
				to: [{ email: json.address }],
			})),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	});

	test('sending to the reserved bounce domain creates a bounce record', async () => {
		await t.run(sendParameters({ to: 'ghost@bounce.test' }));
		const [record] = t.state().emails;
		expect(record.smtp_answer_code).toBe(550);
		expect(t.state().bounces.map((bounce) => omit(bounce, 'seq'))).toEqual([
			{
				email_to: 'ghost@bounce.test',
				sender: 'sender@sandbox.test',
				send_date: record.send_date,
				subject: 'Hello',
				smtp_answer_code: 550,
				smtp_answer_subcode: '5.1.1',
				smtp_answer_data: 'User unknown',
			},
		]);
	});
});

describe('Email → Send: bad input fails before anything is sent', () => {
	const cases: Array<[string, Record<string, unknown>, string]> = [
		[
			'an invalid To address',
			{ to: 'Ann <ann@example>, bob@example.com' },
			'To: "Ann <ann@example>" is not a valid email address [item 0]',
		],
		[
			'an invalid Cc address',
			{ cc: 'not-an-address' },
			'Cc: "not-an-address" is not a valid email address [item 0]',
		],
		['no recipient', { to: '  ' }, 'To: is empty [item 0]'],
		['no content', { html: '', text: ' ' }, 'HTML: no content: fill in HTML or Text [item 0]'],
		[
			'no subject (an expression that gives nothing)',
			{ subject: '={{ $json.subject ?? "" }}' },
			'Subject: is empty [item 0]',
		],
		[
			'an invalid From address',
			{ fromEmail: 'sender@' },
			'From: "sender@" is not a valid email address [item 0]',
		],
		[
			'no template ID',
			{ content: 'template', templateId: '={{ "" }}' },
			'Template ID: is empty [item 0]',
		],
		[
			'a missing binary property',
			{ options: { binaryAttachments: 'data, missing' } },
			'Binary Attachments: the input item has no binary property "missing" [item 0]',
		],
	];
	test.each(cases)('%s', async (_name, overrides, message) => {
		const result = await t.run(sendParameters(overrides as INodeParameters), [
			{
				json: {},
				binary: { data: { data: Buffer.from('x'), fileName: 'x.txt', mimeType: 'text/plain' } },
			},
		]);
		expect(result.error?.message).toBe(message);
		expect(result.items).toEqual([]);
		expect(t.calls()).toEqual([]);
		expect(t.state().emails).toEqual([]);
	});

	test('the failing item is named, and no item is sent when a later one is bad', async () => {
		const result = await t.run(sendParameters({ to: '={{ $json.to }}' }), [
			{ json: { to: 'a@example.com' } },
			{ json: { to: 'b@example.com' } },
			{ json: { to: 'broken' } },
		]);
		expect(result.error?.message).toBe('To: "broken" is not a valid email address [item 2]');
		expect(t.calls().filter((call) => call.method === 'POST')).toEqual([]);
	});

	test.each([
		[
			'From empty: which sender to give, and where the approved ones are',
			{ fromEmail: '={{ "" }}' },
			'From: is empty [item 0]',
			'Choose an approved sender address from the list, or type one (Email → Sender Address → Get Many lists them; Sender Address → Add adds one).',
		],
		[
			'From with a name in it: only the address goes there',
			{ fromEmail: 'Shop <shop@sandbox.test>' },
			'From: "Shop <shop@sandbox.test>" is not a valid email address [item 0]',
			'Type only the address, such as sender@example.com; the name people see goes in From Name.',
		],
		[
			'a To that cannot be read: the accepted forms',
			{ to: 'Ann ann@example.com' },
			'To: "Ann ann@example.com" is not a valid email address [item 0]',
			'Write each address as ann@example.com or Ann <ann@example.com>, separated by commas (a list of such texts, or of {"name", "email"} objects, works too).',
		],
	])('the error says what to do: %s', async (_name, overrides, message, hint) => {
		const result = await t.run(sendParameters(overrides));
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toBe(hint);
		expect(t.calls()).toEqual([]);
	});

	test('missing binary data names the properties the item has', async () => {
		const result = await t.run(sendParameters({ options: { binaryAttachments: 'file' } }), [
			{ json: {} },
		]);
		expect(result.error?.message).toBe(
			'Binary Attachments: the input item has no binary property "file" [item 0]',
		);
		expect(result.error?.description).toBe('This item carries no binary data.');
	});

	test('an unknown sender is refused before sending, naming From and the item', async () => {
		const result = await t.run(sendParameters({ fromEmail: 'stranger@example.com' }));
		expect(result.error?.message).toBe(
			'From: "stranger@example.com" is not an approved sender of the account [item 0]',
		);
		expect(result.error?.description).toBe(
			'Approved senders: sender@sandbox.test. Add the address with Sender Address → Add, or choose one from the list.',
		);
		expect(t.calls()).toEqual([SENDERS_CALL]);
		expect(t.state().emails).toEqual([]);
	});

	test("a sender the service refuses anyway gets the service's message and code", async () => {
		t.sandbox.faults.add({
			path: '/smtp/emails',
			status: 422,
			body: { message: 'Sender is not valid', error_code: 422 },
		});
		const result = await t.run(sendParameters());
		expect(result.error?.message).toBe('Sender is not valid (error code 422)');
		expect(result.error?.httpCode).toBe('422');
	});

	test('Continue On Fail: bad and refused items become error items, the others are sent', async () => {
		const result = await t.run(
			sendParameters({ to: '={{ $json.to }}', fromEmail: '={{ $json.from }}', fromName: '' }),
			[
				{ json: { to: 'a@example.com', from: 'sender@sandbox.test' } },
				{ json: { to: 'nope', from: 'sender@sandbox.test' } },
				{ json: { to: 'c@example.com', from: 'stranger@example.com' } },
				{ json: { to: 'd@example.com', from: 'sender@sandbox.test' } },
			],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const [first, fourth] = t.state().emails;
		expect(jsonOf(result)).toEqual([
			{
				id: first.id,
				result: true,
				subject: 'Hello',
				from: { email: 'sender@sandbox.test' },
				to: [{ email: 'a@example.com' }],
			},
			{ error: 'To: "nope" is not a valid email address [item 1]', description: ADDRESS_FORM_HINT },
			{
				error: 'From: "stranger@example.com" is not an approved sender of the account [item 2]',
				description:
					'Approved senders: sender@sandbox.test. Add the address with Sender Address → Add, or choose one from the list.',
			},
			{
				id: fourth.id,
				result: true,
				subject: 'Hello',
				from: { email: 'sender@sandbox.test' },
				to: [{ email: 'd@example.com' }],
			},
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(
			t
				.calls()
				.filter((call) => call.method === 'POST')
				.map((call) => (call.body as { email: { to: unknown } }).email.to),
		).toEqual([[{ email: 'a@example.com' }], [{ email: 'd@example.com' }]]);
	});

	test('the email area not activated: an error that says so and how to fix it', async () => {
		t.sandbox.account.settings.emailActivated = false;
		const result = await t.run(sendParameters());
		expect(result.error?.message).toBe("The account's email (SMTP) area is not activated");
		expect(result.error?.description).toContain('Activate the SMTP service in your account');
		expect(result.error?.description).toContain(
			'No such SMTP user, you need to create SMTP account first',
		);
		expect(t.state().emails).toEqual([]);
	});
});
