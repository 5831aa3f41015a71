import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { usePageServers, type PageServer } from './setup';

const email = new MessagingEmail();
const base: INodeParameters = {
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: 'sender@sandbox.test',
	to: 'ann@example.com',
	subject: 'Refund "1042" <now>',
	message: 'Refund <script>alert(1)</script> & go?',
};

const servePage = usePageServers();
async function serve(parameters: INodeParameters, node = email, type = 'messagingEmail') {
	const server = await servePage(node, type, { ...base, ...parameters });
	return server.request;
}

const respondedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** GET five times and HEAD once: the page each time, nothing resumed. */
async function showsPageOnly(request: PageServer['request'], query: string) {
	const pages: string[] = [];
	for (let n = 0; n < 5; n++) {
		const answer = await request('GET', query);
		expect(answer.status).toBe(200);
		expect(answer.items).toBeUndefined();
		expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(answer.headers.get('content-security-policy')).toBe(
			"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
		);
		pages.push(answer.text);
	}
	const head = await request('HEAD', query);
	expect(head.status).toBe(200);
	expect(head.text).toBe('');
	expect(head.items).toBeUndefined();
	expect(new Set(pages).size).toBe(1);
	return pages[0];
}

function expectEscaped(page: string) {
	expect(page).not.toMatch(/<script/i);
	expect(page).toContain('<title>Refund &quot;1042&quot; &lt;now&gt;</title>');
	expect(page).toContain('Refund &lt;script&gt;alert(1)&lt;/script&gt; &amp; go?');
	expect(page).not.toMatch(/https?:\/\//); // self-contained: no external asset
}

describe('the answer page', () => {
	test('approval (Approve only): GET/HEAD show one button; only its POST resumes with {data: {approved: true}}', async () => {
		const request = await serve({});
		const page = await showsPageOnly(request, '?approved=true&signature=x');
		expectEscaped(page);
		expect(page).toContain('<form method="post">');
		expect(page.match(/<button/g)).toHaveLength(1);
		expect(page).toContain('<button type="submit" name="approved" value="true">Approve</button>');

		const refused = await request('POST', '?approved=true&signature=x', 'approved=false');
		expect(refused.status).toBe(400);
		expect(refused.items).toBeUndefined();
		expect(refused.text).toContain('Choose an answer.');
		expect((await request('POST', '?approved=true&signature=x', '')).items).toBeUndefined();

		const answered = await request('POST', '?approved=true&signature=x', 'approved=true');
		expect(answered.status).toBe(200);
		expect(answered.text).toContain(
			'<p>Your answer was received:</p><dl><dt>Answer</dt><dd>Approve</dd></dl>',
		);
		expect(answered.items?.map((item) => item.json)).toEqual([
			{ data: { approved: true, respondedAt } },
		]);
	});

	test('approval (Approve and Decline): the page offers both (the Decline link puts Decline first); Decline gives approved: false', async () => {
		const request = await serve({
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Yes <b>', disapproveLabel: 'No "way"' },
			},
		});
		const approvePage = await showsPageOnly(request, '?approved=true&signature=x');
		expect(approvePage).toMatch(
			/value="true">Yes &lt;b&gt;<\/button><button type="submit" name="approved" value="false" class="secondary">No &quot;way&quot;<\/button>/,
		);
		const declinePage = await showsPageOnly(request, '?approved=false&signature=x');
		expect(declinePage).toMatch(
			/value="false">No &quot;way&quot;<\/button><button type="submit" name="approved" value="true" class="secondary">Yes &lt;b&gt;/,
		);

		const declined = await request('POST', '?approved=true&signature=x', 'approved=false');
		expect(declined.text).toContain('<dl><dt>Answer</dt><dd>No &quot;way&quot;</dd></dl>');
		expect(declined.items?.map((item) => item.json)).toEqual([
			{ data: { approved: false, respondedAt } },
		]);
	});

	test('free text: a text box; an empty answer is refused; the text resumes with {data: {text}}', async () => {
		const request = await serve({
			responseType: 'freeText',
			options: { responseFormButtonLabel: 'Send <it>' },
		});
		const page = await showsPageOnly(request, '?signature=x');
		expectEscaped(page);
		expect(page).toContain(
			'<textarea id="f0" name="field-0" maxlength="10000" required></textarea>',
		);
		expect(page).toContain('>Send &lt;it&gt;</button>');

		const empty = await request('POST', '?signature=x', 'field-0=%20');
		expect(empty.status).toBe(400);
		expect(empty.items).toBeUndefined();
		expect(empty.text).toContain('Response: required');

		const answered = await request(
			'POST',
			'?signature=x',
			'field-0=' + encodeURIComponent(' Yes, but <only> half '),
		);
		expect(answered.text).toContain(
			'<dl><dt>Response</dt><dd>Yes, but &lt;only&gt; half</dd></dl>',
		);
		expect(answered.items?.map((item) => item.json)).toEqual([
			{ data: { text: 'Yes, but <only> half', respondedAt } },
		]);
	});

	const form: INodeParameters = {
		responseType: 'customForm',
		formFields: {
			values: [
				{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true, placeholder: 'EUR' },
				{ fieldLabel: 'Contact', fieldType: 'email' },
				{ fieldLabel: 'Pay on', fieldType: 'date', requiredField: true },
				{
					fieldLabel: 'Reason',
					fieldType: 'dropdown',
					requiredField: true,
					fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late <2 days>' }] },
				},
				{
					fieldLabel: 'Checks',
					fieldType: 'checkbox',
					fieldOptions: { values: [{ option: 'Photo seen' }, { option: 'Receipt seen' }] },
				},
				{ fieldLabel: 'Note', fieldType: 'text' },
			],
		},
	};

	test('custom form: the fields; a wrong or missing value is refused and refilled; a valid form resumes with the fields', async () => {
		const request = await serve(form);
		const page = await showsPageOnly(request, '?signature=x');
		expectEscaped(page);
		expect(page).toContain(
			'<label for="f0">Amount *</label><input type="number" id="f0" name="field-0" placeholder="EUR" step="any" required>',
		);
		expect(page).toContain('<input type="email" id="f1" name="field-1" maxlength="10000">');
		expect(page).toContain('<input type="date" id="f2" name="field-2" required>');
		expect(page).toContain('<option value="Late &lt;2 days&gt;">Late &lt;2 days&gt;</option>');
		expect(page).toContain('<input type="checkbox" id="f4-1" name="field-4" value="Receipt seen">');

		const wrong = await request(
			'POST',
			'?signature=x',
			'field-0=abc&field-1=nope&field-2=tomorrow&field-3=Other&field-5=' +
				encodeURIComponent('<i>'),
		);
		expect(wrong.status).toBe(400);
		expect(wrong.items).toBeUndefined();
		for (const problem of [
			'Amount: give a number',
			'Contact: give an email address',
			'Pay on: give a date (YYYY-MM-DD)',
			'Reason: choose one of the options',
		])
			expect(wrong.text).toContain(problem);
		expect(wrong.text).toContain('value="&lt;i&gt;"');

		const missing = await request('POST', '?signature=x', 'field-1=ann%40example.com');
		expect(missing.text).toContain('Amount: required');
		expect(missing.text).toContain('Reason: required');
		expect(missing.items).toBeUndefined();

		const answered = await request(
			'POST',
			'?signature=x',
			'field-0=120.5&field-1=ann%40example.com&field-2=2026-12-01&field-3=' +
				encodeURIComponent('Late <2 days>') +
				'&field-4=Photo+seen&field-4=Receipt+seen&field-5=',
		);
		expect(answered.status).toBe(200);
		expect(answered.text).toContain(
			'<dl><dt>Amount</dt><dd>120.5</dd><dt>Contact</dt><dd>ann@example.com</dd><dt>Pay on</dt><dd>2026-12-01</dd><dt>Reason</dt><dd>Late &lt;2 days&gt;</dd><dt>Checks</dt><dd>Photo seen, Receipt seen</dd><dt>Note</dt><dd></dd></dl>',
		);
		expect(answered.items?.map((item) => item.json)).toEqual([
			{
				data: {
					Amount: 120.5,
					Contact: 'ann@example.com',
					'Pay on': '2026-12-01',
					Reason: 'Late <2 days>',
					Checks: ['Photo seen', 'Receipt seen'],
					Note: null,
					respondedAt,
				},
			},
		]);
	});

	test('SMS: the one link shows every choice on one page', async () => {
		const request = await serve(
			{
				resource: 'campaign',
				subject: undefined as unknown as string,
				approvalOptions: { values: { approvalType: 'double' } },
			},
			new MessagingSms() as unknown as MessagingEmail,
			'messagingSms',
		);
		const page = await showsPageOnly(request, '?signature=x');
		expect(page).toContain('<title>Your answer</title>');
		expect(page).toContain('value="true">Approve</button>');
		expect(page).toContain('value="false" class="secondary">Decline</button>');
		const approved = await request('POST', '?signature=x', 'approved=true');
		expect(approved.items?.map((item) => item.json)).toEqual([
			{ data: { approved: true, respondedAt } },
		]);
	});

	test('custom form with Output Keys: the answer uses the keys, the page and its answer show the labels', async () => {
		const request = await serve({
			responseType: 'customForm',
			formFields: {
				values: [
					{ fieldLabel: 'Refund amount', fieldType: 'number', fieldKey: 'refundAmount' },
					{ fieldLabel: 'Note', fieldType: 'text', fieldKey: '  ' },
				],
			},
		});
		const page = await showsPageOnly(request, '?signature=x');
		expect(page).toContain('<label for="f0">Refund amount</label>');
		const answered = await request('POST', '?signature=x', 'field-0=120&field-1=Parcel+damaged');
		expect(answered.items?.map((item) => item.json)).toEqual([
			{ data: { refundAmount: 120, Note: 'Parcel damaged', respondedAt } },
		]);
		expect(answered.text).toContain(
			'<dl><dt>Refund amount</dt><dd>120</dd><dt>Note</dt><dd>Parcel damaged</dd></dl>',
		);
	});

	test("a message expression that cannot be evaluated on the page (an AI agent's $tool) leaves the message out; the page still answers", async () => {
		const request = await serve({ message: "={{ $('No Such Node').item.json.tool }}" });
		const shown = await request('GET', '?approved=true&signature=x');
		expect(shown.status).toBe(200);
		expect(shown.text).toContain('value="true">Approve</button>');
		const answered = await request('POST', '?approved=true&signature=x', 'approved=true');
		expect(answered.items?.map((item) => item.json)).toEqual([
			{ data: { approved: true, respondedAt } },
		]);
	});
});
