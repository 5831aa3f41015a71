/**
 * The second hardening pass, values that went out wrong: each case runs a node through n8n-core against the
 * sandbox over real HTTP, and a refusal names the parameter and the item with nothing sent (the sandbox's log
 * stays empty); what must keep working is checked on the request the sandbox received.
 */
import type { INodeParameters } from 'n8n-workflow';

import { MAX_MESSAGE_BYTES } from '../../nodes/MessagingEmail/helpers/attachments';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea, emailStateOf } from '../../sandbox/email';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { runNode, type InputItem, type RunNodeResult } from '../harness/run-node';
import { sendParameters } from '../harness/send-parameters';

const email = new MessagingEmail();
const sms = new MessagingSms();
let sandbox: Sandbox;
let store: CredentialStore;

beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [emailArea, smsArea],
		settings: { rateLimitPerSecond: 0 },
	});
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => await sandbox.close());
beforeEach(() => {
	sandbox.log.clear();
	emailStateOf(sandbox).reset();
});

async function sendEmail(parameters: INodeParameters, items?: InputItem[]): Promise<RunNodeResult> {
	return await runNode({
		node: email,
		credentials: store,
		parameters: sendParameters({ requestOptions: { requestsPerSecond: 0 }, ...parameters }),
		items,
	});
}

/** The run failed with exactly this message and nothing reached the service. */
function expectRefused(result: RunNodeResult, message: string) {
	expect(result.error?.message).toBe(message);
	expect(sandbox.log.all()).toEqual([]);
}

const ONE_LINE =
	'must be one line, but it holds a line break (CR or LF) or a NUL character, which would start another mail header';
const INJECTION = 'Hello\r\nBcc: victim@example.com';

describe('header-like fields stay on one line: CR, LF and NUL refused the same way in each', () => {
	const pairs = (key: 'to' | 'cc' | 'bcc'): INodeParameters => ({
		recipientsInput: 'pairs',
		toPairs: { recipients: [{ name: 'Ann', email: 'ann@example.com' }] },
		[`${key}Pairs`]: { recipients: [{ name: '={{ $json.v }}', email: `${key}@example.com` }] },
	});
	const fields: Array<[string, INodeParameters, string, string]> = [
		['Subject', { subject: '={{ $json.v }}' }, INJECTION, `Subject: ${ONE_LINE} [item 0]`],
		['From Name', { fromName: '={{ $json.v }}' }, INJECTION, `From Name: ${ONE_LINE} [item 0]`],
		[
			'a To name (Name/Email Pairs)',
			pairs('to'),
			INJECTION,
			`To: the name of to@example.com ${ONE_LINE} [item 0]`,
		],
		[
			'a Cc name (Name/Email Pairs), NUL',
			pairs('cc'),
			'Carl\u0000',
			`Cc: the name of cc@example.com ${ONE_LINE} [item 0]`,
		],
		[
			'a Bcc name (Name/Email Pairs), a lone CR',
			pairs('bcc'),
			'Audit\rBcc: victim@example.com',
			`Bcc: the name of bcc@example.com ${ONE_LINE} [item 0]`,
		],
		[
			'a To name in text, quoted',
			{ to: '={{ $json.v }}' },
			'"Ann\rBcc: victim@example.com" <ann@example.com>',
			`To: the name of ann@example.com ${ONE_LINE} [item 0]`,
		],
		[
			'a To name in a recipient object',
			{ to: '={{ $json.v }}' },
			JSON.stringify([{ name: INJECTION, email: 'ann@example.com' }]),
			`To: the name of ann@example.com ${ONE_LINE} [item 0]`,
		],
		[
			'Binary File Names',
			{
				options: { binaryAttachments: 'data' },
				attachmentFileNames: {
					names: [{ binaryPropertyName: 'data', fileName: '={{ $json.v }}' }],
				},
			},
			'invoice.pdf\r\nBcc: victim@example.com',
			`Binary File Names: the file name for "data" ${ONE_LINE} [item 0]`,
		],
		[
			'Text Attachments file name',
			{
				textAttachments: { attachments: [{ fileName: '={{ $json.v }}', content: 'x' }] },
			},
			'note.txt\nBcc: victim@example.com',
			`Text Attachments: a file name ${ONE_LINE} [item 0]`,
		],
	];
	test.each(fields)('%s', async (_, parameters, value, message) => {
		const result = await sendEmail(parameters, [
			{
				json: { v: value },
				binary: { data: { data: Buffer.from('x'), fileName: 'x.txt', mimeType: 'text/plain' } },
			},
		]);
		expectRefused(result, message);
	});

	test('the file name stored with the binary data (set upstream)', async () => {
		const result = await sendEmail({ options: { binaryAttachments: 'data' } }, [
			{
				json: {},
				binary: { data: { data: Buffer.from('x'), fileName: INJECTION, mimeType: 'text/plain' } },
			},
		]);
		expectRefused(result, `Binary Attachments: the file name of "data" ${ONE_LINE} [item 0]`);
		expect(result.error?.description).toBe('Give it a one-line name under Binary File Names.');
	});

	test('one-line values with spaces, tabs and other characters still go out as typed', async () => {
		const result = await sendEmail(
			{ subject: 'Hello\tthere — ✓', to: '"Doe, Ann" <ann@example.com>' },
			[{ json: {} }],
		);
		expect(result.error).toBeUndefined();
		const body = sandbox.log.apiCalls().find((call) => call.method === 'POST')?.body as {
			email: { subject: string; to: unknown };
		};
		expect(body.email.subject).toBe('Hello\tthere — ✓');
		expect(body.email.to).toEqual([{ name: 'Doe, Ann', email: 'ann@example.com' }]);
	});
});

describe('recipient objects: the strict text rule reaches their members', () => {
	test.each([
		[{ first: 'A' }, 'an object ({"first":"A"})'],
		[['A', 'B'], 'a list (["A","B"])'],
	])('a name that is %j: refused, never "[object Object]"', async (name, described) => {
		const result = await sendEmail({ to: '={{ $json.v }}' }, [
			{ json: { v: [{ name, email: 'ann@example.com' }] } },
		]);
		expectRefused(
			result,
			`To: the name of ann@example.com must be text, but the value is ${described} [item 0]`,
		);
	});

	test('a number name is its text, a null name is no name', async () => {
		const result = await sendEmail({ to: '={{ $json.v }}' }, [
			{
				json: {
					v: [
						{ name: 42, email: 'ann@example.com' },
						{ name: null, email: 'bob@example.com' },
					],
				},
			},
		]);
		expect(result.error).toBeUndefined();
		const body = sandbox.log.apiCalls().find((call) => call.method === 'POST')?.body as {
			email: { to: unknown };
		};
		expect(body.email.to).toEqual([
			{ name: '42', email: 'ann@example.com' },
			{ email: 'bob@example.com' },
		]);
	});
});

describe('From / Sender Email given null by an expression: "is empty", like the empty string', () => {
	test.each([
		['From, a plain value', 'email', { fromEmail: '={{ $json.v }}' }, 'From'],
		[
			'From, a resource locator',
			'email',
			{ fromEmail: { __rl: true, mode: 'id', value: '={{ $json.v }}' } },
			'From',
		],
		['From, n8n evaluating {{ null }}', 'email', { fromEmail: '={{ null }}' }, 'From'],
	])('%s', async (_, _node, parameters, displayName) => {
		const result = await sendEmail(parameters as INodeParameters, [{ json: { v: null } }]);
		expectRefused(result, `${displayName}: is empty [item 0]`);
	});

	test('Resubscribe → Send Request, Sender Email null', async () => {
		const result = await runNode({
			node: email,
			credentials: store,
			parameters: {
				resource: 'resubscribe',
				operation: 'sendRequest',
				email: 'ann@example.com',
				sender: { __rl: true, mode: 'id', value: '={{ $json.v }}' },
			} as never,
			items: [{ json: { v: null } }],
		});
		expectRefused(result, 'Sender Email: is empty [item 0]');
	});
});

describe('attachments over the message size: refused before the upload, naming the attachment and the item', () => {
	const MB = 1024 * 1024;
	const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
	const contentBytes = Buffer.from('<p>Hello</p>').toString('base64').length + 'Hello'.length;

	test('a binary file whose Base64 passes the limit (7.6 MB → 10.1 MB encoded)', async () => {
		const bytes = Math.round(7.6 * MB);
		const encoded = 4 * Math.ceil(bytes / 3);
		const result = await sendEmail({ options: { binaryAttachments: 'small, big' } }, [
			{
				json: {},
				binary: {
					small: { data: Buffer.from('tiny'), fileName: 'tiny.txt', mimeType: 'text/plain' },
					big: {
						data: Buffer.alloc(bytes, 97),
						fileName: 'big.bin',
						mimeType: 'application/octet-stream',
					},
				},
			},
		]);
		// "tiny" is 8 characters of Base64; big.bin crosses the limit, and the error names it.
		expectRefused(
			result,
			`Binary Attachments: "big.bin" (${mb(encoded)} encoded) brings the email to ${mb(contentBytes + 8 + encoded)}, over the ${mb(MAX_MESSAGE_BYTES)} an email may have [item 0]`,
		);
	});

	test('text attachments count too', async () => {
		const content = 'x'.repeat(MAX_MESSAGE_BYTES);
		const result = await sendEmail(
			{
				textAttachments: { attachments: [{ fileName: 'log.txt', content: '={{ $json.v }}' }] },
			},
			[{ json: { v: content } }],
		);
		expectRefused(
			result,
			`Text Attachments: "log.txt" (${mb(content.length)} encoded) brings the email to ${mb(contentBytes + content.length)}, over the ${mb(MAX_MESSAGE_BYTES)} an email may have [item 0]`,
		);
	});

	test('an HTML body over the limit without any attachment (11 MB of HTML, 14.7 MB encoded)', async () => {
		const html = '<p>' + 'x'.repeat(11 * MB) + '</p>';
		const encoded = Buffer.from(html).toString('base64').length;
		const result = await sendEmail({ html: '={{ $json.v }}', text: '' }, [{ json: { v: html } }]);
		expectRefused(
			result,
			`HTML: the content is ${mb(encoded)} as sent (HTML travels Base64-encoded), over the ${mb(MAX_MESSAGE_BYTES)} an email may have [item 0]`,
		);
	});

	test('a Text body over the limit is refused naming Text', async () => {
		const text = 'y'.repeat(MAX_MESSAGE_BYTES + 1);
		const result = await sendEmail({ html: '', text: '={{ $json.v }}' }, [{ json: { v: text } }]);
		expectRefused(
			result,
			`Text: the content is ${mb(text.length)} as sent (HTML travels Base64-encoded), over the ${mb(MAX_MESSAGE_BYTES)} an email may have [item 0]`,
		);
	});

	test('a file whose encoded size stays within the limit is sent whole (7 MB)', async () => {
		const bytes = 7 * MB;
		const result = await sendEmail({ options: { binaryAttachments: 'data' } }, [
			{
				json: {},
				binary: {
					data: {
						data: Buffer.alloc(bytes, 98),
						fileName: 'ok.bin',
						mimeType: 'application/octet-stream',
					},
				},
			},
		]);
		expect(result.error).toBeUndefined();
		const sent = emailStateOf(sandbox).emails[0].content.attachmentsBinary['ok.bin'];
		expect(Buffer.from(sent, 'base64').length).toBe(bytes);
	});
});

describe('phones: a dot is decoration only between digit groups', () => {
	const SMS: INodeParameters = {
		resource: 'campaign',
		operation: 'sendToNumbers',
		sender: 'Sandbox',
		body: 'Hi',
		requestOptions: { requestsPerSecond: 0 },
	};
	const sendSms = async (phones: unknown, items: InputItem[] = [{ json: {} }]) =>
		await runNode({
			node: sms,
			credentials: store,
			parameters: { ...SMS, phones } as never,
			items,
		});

	test('+380.98.623.56.98 and (098) style decoration still give the one number', async () => {
		const result = await sendSms('={{ $json.v }}', [
			{ json: { v: '+380.98.623.56.98' } },
			{ json: { v: '+1 202.555.0143' } },
		]);
		expect(result.error).toBeUndefined();
		const sends = sandbox.log.apiCalls().filter((call) => call.path === '/sms/send');
		expect(sends.map((call) => (call.body as { phones: string[] }).phones)).toEqual([
			['380986235698', '12025550143'],
		]);
	});

	test('{{ 380986235698.5 }} evaluated by n8n: refused with the hint, not sent to 3809862356985', async () => {
		const result = await sendSms('={{ 380986235698.5 }}');
		expectRefused(
			result,
			'Phones: not a valid phone number: "380986235698.5" (a number with a decimal part) [item 0]',
		);
		expect(result.error?.description).toContain(
			'comes from a column read as a number: format the column as text',
		);
	});

	test('"380986235698.0" from a CSV column: refused, not sent to 3809862356980', async () => {
		const result = await sendSms('380986235698.0');
		expectRefused(
			result,
			'Phones: not a valid phone number: "380986235698.0" (a number with a decimal part) [item 0]',
		);
	});

	test('Get Cost reads phones the same way (one reader: same words, same hint)', async () => {
		const result = await runNode({
			node: sms,
			credentials: store,
			parameters: {
				resource: 'campaign',
				operation: 'getCost',
				sender: 'Sandbox',
				body: 'Hi',
				phones: '380986235698, 380986235698.0',
				requestOptions: { requestsPerSecond: 0 },
			} as never,
		});
		expectRefused(
			result,
			'Phones: not a valid phone number: "380986235698.0" (a number with a decimal part) [item 0]',
		);
		expect(result.error?.description).toContain('format the column as text');
	});
});
