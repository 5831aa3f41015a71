import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { useEmailSandbox } from '../email/setup';
import { hrefs, usePageServers, waitOf } from './setup';

/**
 * Review and Edit: fields pre-filled from the workflow, edited on the page, then approved (the edited values are
 * the output) or declined. Pre-filled values are checked before sending; everything shown is escaped; everything
 * posted is read as strictly as a Custom Form.
 */

const t = useEmailSandbox();

const reviewFields = {
	values: [
		{
			fieldLabel: 'Subject',
			fieldType: 'text',
			fieldValue: '={{ $json.draft.subject }}',
			requiredField: true,
		},
		{ fieldLabel: 'Body', fieldType: 'textarea', fieldValue: '={{ $json.draft.body }}' },
		{ fieldLabel: 'Amount', fieldType: 'number', fieldValue: '={{ $json.draft.amount }}' },
		{ fieldLabel: 'Reply to', fieldType: 'email', fieldValue: 'ann@example.com' },
		{ fieldLabel: 'Send on', fieldType: 'date', fieldValue: '2026-12-01' },
		{
			fieldLabel: 'Tone',
			fieldType: 'dropdown',
			fieldValue: 'Formal',
			fieldOptions: { values: [{ option: 'Formal' }, { option: 'Friendly "warm"' }] },
		},
	],
};

const parameters = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: 'sender@sandbox.test',
	to: 'ann@example.com',
	subject: 'Review the reply',
	message: 'Check the draft before it goes out.',
	responseType: 'reviewAndEdit',
	reviewFields,
	...overrides,
});

const draft = {
	draft: {
		subject: 'Re: "refund" <script>alert(1)</script>',
		body: 'Dear Ann,\n</textarea><script>alert(2)</script>\nRegards',
		amount: 120.5,
	},
};

const servePage = usePageServers();

async function sentAndServed(overrides: INodeParameters = {}) {
	const result = await t.run(parameters(overrides), [{ json: draft }]);
	expect(result.error).toBeUndefined();
	expect(result.run.status).toBe('waiting');
	const post = t.calls().find((call) => call.method === 'POST')!;
	const html = Buffer.from(
		String((post.body as { email: { html: string } }).email.html),
		'base64',
	).toString('utf8');
	const [link] = hrefs(html);
	expect(new URL(link).searchParams.get('w')).toBe(waitOf(result));
	const server = await servePage(
		new MessagingEmail(),
		'messagingEmail',
		parameters(overrides),
		result,
	);
	return { request: server.request, query: new URL(link).search };
}

const edited = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('Review and Edit', () => {
	test('the page shows every field pre-filled from the workflow, escaped; Approve and Decline', async () => {
		const { request, query } = await sentAndServed();
		const page = (await request('GET', query)).text;
		expect(page).not.toMatch(/<script/i);
		expect(page).toContain(
			'<input type="text" id="f0" name="field-0" value="Re: &quot;refund&quot; &lt;script&gt;alert(1)&lt;/script&gt;" maxlength="10000" required>',
		);
		expect(page).toContain(
			'<textarea id="f1" name="field-1" maxlength="10000">Dear Ann,\n&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;\nRegards</textarea>',
		);
		expect(page).toContain('<input type="number" id="f2" name="field-2" value="120.5" step="any">');
		expect(page).toContain('<input type="date" id="f4" name="field-4" value="2026-12-01">');
		expect(page).toContain('<option value="Formal" selected>Formal</option>');
		expect(page).toContain(
			'<option value="Friendly &quot;warm&quot;">Friendly &quot;warm&quot;</option>',
		);
		expect(page).toContain('name="approved" value="true">Approve</button>');
		expect(page).toContain('name="approved" value="false" class="secondary">Decline</button>');
	});

	test('Approve gives the edited values with approved: true', async () => {
		const { request, query } = await sentAndServed();
		const answer = await request(
			'POST',
			query,
			edited({
				'field-0': ' Re: your refund ',
				// A browser posts a text area's line breaks as CRLF; the output has them as typed ("\n").
				'field-1': 'Dear Ann,\r\nDone.\r\n\r\nRegards',
				'field-2': '100',
				'field-3': 'ann@example.com',
				'field-4': '2026-12-02',
				'field-5': 'Friendly "warm"',
				approved: 'true',
			}),
		);
		expect(answer.status).toBe(200);
		expect(answer.items?.map((item) => item.json)).toEqual([
			{
				data: {
					approved: true,
					Subject: 'Re: your refund',
					Body: 'Dear Ann,\nDone.\n\nRegards',
					Amount: 100,
					'Reply to': 'ann@example.com',
					'Send on': '2026-12-02',
					Tone: 'Friendly "warm"',
					respondedAt: expect.any(String),
				},
				responder: { email: 'ann@example.com' },
			},
		]);
	});

	test('edited values are read strictly: refused values show the page again with the edits kept, nothing resumed', async () => {
		const { request, query } = await sentAndServed();
		const answer = await request(
			'POST',
			query,
			edited({
				'field-0': '',
				'field-1': 'x'.repeat(10_001),
				'field-2': '0x10',
				'field-3': 'nope',
				'field-4': '2026-02-31',
				'field-5': 'Rude',
				approved: 'true',
			}),
		);
		expect(answer.status).toBe(400);
		expect(answer.items).toBeUndefined();
		for (const problem of [
			'Subject: required',
			'Body: at most 10,000 characters (this has 10,001)',
			'Amount: give a number in plain decimal notation',
			'Reply to: give an email address',
			'Send on: 2026-02-31 is not a date: February 2026 has no day 31',
			'Tone: choose one of the options',
		])
			expect(answer.text).toContain(problem);
		expect(answer.text).toContain('value="0x10"');
	});

	test('Decline gives approved: false and no values (even unreadable ones)', async () => {
		const { request, query } = await sentAndServed();
		const answer = await request('POST', query, edited({ 'field-2': 'abc', approved: 'false' }));
		expect(answer.items?.[0].json.data).toEqual({
			approved: false,
			respondedAt: expect.any(String),
		});
	});

	test('with a comment required on Decline', async () => {
		const overrides = { approvalOptions: { values: { comment: 'onDecline' } } };
		const { request, query } = await sentAndServed(overrides);
		const refused = await request('POST', query, edited({ approved: 'false' }));
		expect([refused.status, refused.items]).toEqual([400, undefined]);
		expect(refused.text).toContain('Comment: required to decline');
		const declined = await request(
			'POST',
			query,
			edited({ approved: 'false', comment: 'Too cold' }),
		);
		expect(declined.items?.[0].json.data).toEqual({
			approved: false,
			comment: 'Too cold',
			respondedAt: expect.any(String),
		});
	});
});

describe('Review and Edit: refused before sending', () => {
	test.each([
		[
			'a pre-filled number that is not one',
			{ values: [{ fieldLabel: 'Amount', fieldType: 'number', fieldValue: 'abc' }] },
			'Fields to Review: "Amount" is pre-filled with "abc": give a number in plain decimal notation',
		],
		[
			'a pre-filled date that does not exist',
			{ values: [{ fieldLabel: 'On', fieldType: 'date', fieldValue: '2026-02-30' }] },
			'Fields to Review: "On" is pre-filled with "2026-02-30": 2026-02-30 is not a date',
		],
		[
			'a pre-filled object',
			{ values: [{ fieldLabel: 'Body', fieldType: 'textarea', fieldValue: '={{ $json.draft }}' }] },
			// The parameter reader refuses it first, as every text parameter.
			'Value must be text, but the value is an object',
		],
		[
			'a field named like the answer',
			{ values: [{ fieldLabel: 'approved', fieldType: 'text' }] },
			'Fields to Review: "approved" is a name the answer uses itself',
		],
		['no field', { values: [] }, 'Fields to Review: no field: add at least one form element'],
	])('%s', async (_case, fields, message) => {
		const result = await t.run(parameters({ reviewFields: fields }), [{ json: draft }]);
		expect(result.error?.message).toContain(message);
		expect(t.calls()).toEqual([]);
	});
});
