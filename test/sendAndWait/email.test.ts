import { WAIT_INDEFINITELY, type INodeParameters } from 'n8n-workflow';

import { node, useEmailSandbox } from '../email/setup';
import { executionIdOf, hrefs, resumeAfterTimeout, signedUrl, waitOf } from './setup';

const t = useEmailSandbox();

function parameters(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'email',
		operation: 'sendAndWait',
		fromEmail: 'sender@sandbox.test',
		to: 'Ann <ann@example.com>',
		subject: 'Refund for order 1042',
		message: 'Refund 120 EUR?',
		...overrides,
	};
}

const decode = (base64: unknown) => Buffer.from(String(base64), 'base64').toString('utf8');
const NOTE = 'Each link opens a page where you confirm your answer.';
/** Under a single link or button the note speaks of that one. */
const ONE_NOTE = 'The link opens a page where you confirm your answer.';

/** The one POST /smtp/emails the run made, with its HTML decoded. */
function sentEmail() {
	const posts = t.calls().filter((call) => call.method === 'POST');
	expect(posts.map((call) => call.path)).toEqual(['/smtp/emails']);
	const { email } = posts[0].body as { email: Record<string, unknown> };
	return { ...email, html: decode(email.html) } as Record<string, unknown> & {
		html: string;
		text: string;
	};
}

describe('Email → Send and Wait for Response: the request', () => {
	test('approval (Approve only): one email through POST /smtp/emails, one signed link, the execution waits', async () => {
		const result = await t.run(parameters());
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		expect(result.run.waitTill).toEqual(WAIT_INDEFINITELY);
		const ann = { w: waitOf(result), to: 'ann@example.com', name: 'Ann' };
		const approve = signedUrl(executionIdOf(result), { approved: 'true', ...ann });
		expect(t.calls().map((call) => `${call.method} ${call.path}`)).toEqual([
			'GET /smtp/senders',
			'POST /smtp/emails',
		]);
		const email = sentEmail();
		expect(Object.keys(email).sort()).toEqual(['from', 'html', 'subject', 'text', 'to']);
		expect(email.subject).toBe('Refund for order 1042');
		expect(email.from).toEqual({ email: 'sender@sandbox.test' });
		expect(email.to).toEqual([{ name: 'Ann', email: 'ann@example.com' }]);
		expect(email.text).toBe(`Refund 120 EUR?\n\nApprove: ${approve}\n\n${ONE_NOTE}`);
		expect(hrefs(email.html)).toEqual([approve]);
		expect(email.html).toContain('The button opens a page where you confirm your answer.');
		expect(email.html).toContain('>Approve</a>');
		expect(email.html).toContain('Refund 120 EUR?');
	});

	test('approval (Approve and Decline, own labels): two signed links, approved=true and approved=false', async () => {
		const result = await t.run(
			parameters({
				approvalOptions: {
					values: { approvalType: 'double', approveLabel: 'Yes, refund', disapproveLabel: 'No' },
				},
			}),
		);
		const id = executionIdOf(result);
		const ann = { w: waitOf(result), to: 'ann@example.com', name: 'Ann' };
		const yes = signedUrl(id, { approved: 'true', ...ann });
		const no = signedUrl(id, { approved: 'false', ...ann });
		const email = sentEmail();
		expect(hrefs(email.html)).toEqual([yes, no]);
		expect(email.text).toBe(`Refund 120 EUR?\n\nYes, refund: ${yes}\nNo: ${no}\n\n${NOTE}`);
		expect(email.html).toContain('Each button opens a page where you confirm your answer.');
		expect(email.html).toMatch(/>Yes, refund<\/a>.*>No<\/a>/);
	});

	test.each([
		['freeText', {}],
		[
			'customForm',
			{
				formFields: {
					values: [{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true }],
				},
			},
		],
	])('%s: one signed link labelled Respond (or the label given)', async (responseType, extra) => {
		const result = await t.run(parameters({ responseType, ...extra }));
		expect(result.run.status).toBe('waiting');
		const link = signedUrl(executionIdOf(result), {
			w: waitOf(result),
			to: 'ann@example.com',
			name: 'Ann',
		});
		const email = sentEmail();
		expect(hrefs(email.html)).toEqual([link]);
		expect(email.text).toBe(`Refund 120 EUR?\n\nRespond: ${link}\n\n${ONE_NOTE}`);
		expect(email.html).not.toContain('Each button');

		t.sandbox.log.clear();
		const labelled = await t.run(
			parameters({ responseType, ...extra, options: { messageButtonLabel: 'Answer here' } }),
		);
		expect(sentEmail().text).toBe(
			`Refund 120 EUR?\n\nAnswer here: ${signedUrl(executionIdOf(labelled), { w: waitOf(labelled), to: 'ann@example.com', name: 'Ann' })}\n\n${ONE_NOTE}`,
		);
	});

	test('subject, message and labels are escaped in the HTML; the text part keeps them as typed', async () => {
		const result = await t.run(
			parameters({
				subject: '<script>alert(1)</script> "quoted"',
				message: 'Pay <b>"all"</b> & \'more\'?\nSecond line',
				approvalOptions: {
					values: { approvalType: 'single', approveLabel: '<img src=x onerror=1>' },
				},
			}),
		);
		expect(result.error).toBeUndefined();
		const email = sentEmail();
		expect(email.subject).toBe('<script>alert(1)</script> "quoted"');
		expect(email.html).not.toMatch(/<script|<b>|<img/);
		expect(email.html).toContain(
			'<title>&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot;</title>',
		);
		expect(email.html).toContain(
			'Pay &lt;b&gt;&quot;all&quot;&lt;/b&gt; &amp; &#39;more&#39;?<br>Second line',
		);
		expect(email.html).toContain('>&lt;img src=x onerror=1&gt;</a>');
		expect(email.text).toContain('Pay <b>"all"</b> & \'more\'?\nSecond line');
	});
});

describe('Email → Send and Wait for Response: wait limit', () => {
	test('after an interval: waits until then; when it passes the output says it timed out', async () => {
		const before = Date.now();
		const result = await t.run(
			parameters({
				options: {
					limitWaitTime: {
						values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
					},
				},
			}),
		);
		expect(result.run.status).toBe('waiting');
		const waitTill = result.run.waitTill!.getTime();
		expect(waitTill).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
		expect(waitTill).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

		const resumed = await resumeAfterTimeout(result);
		expect(resumed.run.status).toBe('success');
		expect(resumed.items.map((item) => item.json)).toEqual([
			{ data: { timedOut: true, approved: false } },
		]);
		// Nothing else went to the service.
		expect(t.calls().filter((call) => call.method === 'POST')).toHaveLength(1);
	});

	test('at a date: free text times out with {data: {timedOut: true}} added to each input item (the rest kept)', async () => {
		// Whole seconds: a wait limit is read to the second, as Send At is.
		const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString();
		const result = await t.run(
			parameters({
				responseType: 'freeText',
				message: '=Refund for order {{ $json.order }}?',
				options: {
					limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: at } },
				},
			}),
			[{ json: { order: 7, data: 'replaced' } }, { json: { order: 8 } }],
		);
		expect(result.run.waitTill).toEqual(new Date(at));
		expect(sentEmail().text).toMatch(/^Refund for order 7\?/);
		// What the page's expressions see while waiting: the stored input, its own fields intact.
		const stored = result.run.data.executionData!.nodeExecutionStack[0].data.main[0]!;
		expect(stored.map((item) => item.json.order)).toEqual([7, 8]);
		const resumed = await resumeAfterTimeout(result);
		expect(resumed.items.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ order: 7, data: { timedOut: true } }, { item: 0 }],
			[{ order: 8, data: { timedOut: true } }, { item: 1 }],
		]);
		// The previous node's items are untouched.
		expect(
			resumed.run.data.resultData.runData.Input[0].data!.main[0]!.map((item) => item.json),
		).toEqual([{ order: 7, data: 'replaced' }, { order: 8 }]);
	});
});

describe('Email → Send and Wait for Response: bad input is refused, nothing sent', () => {
	test.each([
		['no recipient (an expression that gives none)', { to: '={{ "" }}' }, 'To: is empty [item 0]'],
		['a bad address', { to: 'ann@' }, 'To: '],
		['no subject', { subject: ' ' }, 'Subject: is empty [item 0]'],
		['no message', { message: '={{ " " }}' }, 'Message: is empty [item 0]'],
		[
			'a wait limit in the past',
			{
				options: {
					limitWaitTime: {
						values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2020-01-01T10:00:00.000Z' },
					},
				},
			},
			'Limit Wait Time: Max Date and Time 2020-01-01T10:00:00.000Z is not in the future [item 0]',
		],
		[
			'a wait of 0',
			{
				options: { limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: 0 } } },
			},
			'Limit Wait Time: the amount must be more than 0 (got 0) [item 0]',
		],
		[
			'a form without fields',
			{ responseType: 'customForm', formFields: { values: [] } },
			'Form Elements: no field: add at least one form element [item 0]',
		],
		[
			'a dropdown without options',
			{
				responseType: 'customForm',
				formFields: { values: [{ fieldLabel: 'Reason', fieldType: 'dropdown' }] },
			},
			'Form Elements: "Reason" offers no option: add Field Options [item 0]',
		],
		[
			'two fields with one output key',
			{
				responseType: 'customForm',
				formFields: {
					values: [
						{ fieldLabel: 'Refund amount', fieldKey: 'amount' },
						{ fieldLabel: 'Amount paid', fieldKey: ' amount ' },
					],
				},
			},
			'Form Elements: two elements have the output key "amount" [item 0]',
		],
	])('%s', async (_case, overrides, message) => {
		const result = await t.run(parameters(overrides as INodeParameters));
		expect(result.error?.message).toContain(message);
		expect(result.run.status).toBe('error');
		expect(t.calls()).toEqual([]);
	});

	test('an unapproved sender: only the sender list is read', async () => {
		const result = await t.run(parameters({ fromEmail: 'stranger@example.com' }));
		expect(result.error?.message).toBe(
			'From: "stranger@example.com" is not an approved sender of the account [item 0]',
		);
		expect(t.calls().map((call) => `${call.method} ${call.path}`)).toEqual(['GET /smtp/senders']);
	});

	test('the node declares n8n resume webhooks and no webhook lifecycle', () => {
		expect(
			node.description.webhooks?.map((hook) => [hook.httpMethod, hook.path, hook.restartWebhook]),
		).toEqual([
			['GET', '={{ $nodeId }}', true],
			['HEAD', '={{ $nodeId }}', true],
			['POST', '={{ $nodeId }}', true],
		]);
		expect((node as unknown as { webhookMethods?: unknown }).webhookMethods).toBeUndefined();
	});
});
