import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { useEmailSandbox } from '../email/setup';
import { executionIdOf, hrefs, signedUrl, usePageServers, waitOf } from './setup';
import type { RunNodeResult } from '../harness/run-node';

/**
 * Who answered, each wait's own links, and the truth after a lost race: the node runs in n8n-core against the
 * sandbox, then its page is served over real HTTP against the stored execution the run left waiting.
 */

const t = useEmailSandbox();

const parameters = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'email',
	operation: 'sendAndWait',
	fromEmail: 'sender@sandbox.test',
	to: 'Ann Lee <ann@example.com>, bob@example.com',
	subject: 'Refund for order 1042',
	message: 'Refund 120 EUR?',
	approvalOptions: { values: { approvalType: 'double' } },
	...overrides,
});

const decode = (base64: unknown) => Buffer.from(String(base64), 'base64').toString('utf8');

function sentEmails() {
	return t
		.calls()
		.filter((call) => call.method === 'POST')
		.map((call) => {
			const { email } = call.body as { email: Record<string, unknown> };
			return { ...email, html: decode(email.html) } as Record<string, unknown> & { html: string };
		});
}

const servePage = usePageServers();
const serverOf = async (result: RunNodeResult, overrides: INodeParameters = {}) =>
	await servePage(new MessagingEmail(), 'messagingEmail', parameters(overrides), result);
const pageOf = async (result: RunNodeResult, overrides: INodeParameters = {}) =>
	(await serverOf(result, overrides)).request;

/** The query string of a link (what the page's form posts back to). */
const queryOf = (url: string) => new URL(url).search;

describe('several recipients', () => {
	test('each gets an email of their own with their own signed links; the answer names who gave it', async () => {
		const result = await t.run(parameters());
		expect(result.run.status).toBe('waiting');
		const id = executionIdOf(result);
		const w = waitOf(result);
		const ann = { w, to: 'ann@example.com', name: 'Ann Lee' };
		const bob = { w, to: 'bob@example.com' };
		const emails = sentEmails();
		expect(emails.map((email) => email.to)).toEqual([
			[{ name: 'Ann Lee', email: 'ann@example.com' }],
			[{ email: 'bob@example.com' }],
		]);
		expect(hrefs(emails[0].html)).toEqual([
			signedUrl(id, { approved: 'true', ...ann }),
			signedUrl(id, { approved: 'false', ...ann }),
		]);
		expect(hrefs(emails[1].html)).toEqual([
			signedUrl(id, { approved: 'true', ...bob }),
			signedUrl(id, { approved: 'false', ...bob }),
		]);
		// No recipient sees another's address.
		expect(JSON.stringify(emails[0])).not.toContain('bob@example.com');
		expect(JSON.stringify(emails[1])).not.toContain('ann');

		const request = await pageOf(result);
		const bobDeclines = await request('POST', queryOf(hrefs(emails[1].html)[1]), 'approved=false');
		expect(bobDeclines.status).toBe(200);
		expect(bobDeclines.items?.map((item) => item.json)).toEqual([
			{
				data: { approved: false, respondedAt: expect.any(String) },
				responder: { email: 'bob@example.com' },
			},
		]);

		// Ann answers a moment later, before n8n has moved on: she is told hers did not count.
		const annApproves = await request('POST', queryOf(hrefs(emails[0].html)[0]), 'approved=true');
		expect(annApproves.status).toBe(409);
		expect(annApproves.items).toBeUndefined();
		expect(annApproves.text).toContain(
			'Someone answered this request just before you. Their answer stands; yours was not recorded.',
		);
	});

	test('the name travels with the link: Ann is named in the output', async () => {
		const result = await t.run(parameters({ responseType: 'freeText' }));
		const [annEmail] = sentEmails();
		const request = await pageOf(result, { responseType: 'freeText' });
		const answer = await request('POST', queryOf(hrefs(annEmail.html)[0]), 'field-0=Yes');
		expect(answer.items?.[0].json.responder).toEqual({ email: 'ann@example.com', name: 'Ann Lee' });
	});

	test('two answers at the same moment: one resumes, the other is told the truth', async () => {
		const result = await t.run(parameters());
		const [annEmail, bobEmail] = sentEmails();
		const { request, harness } = await serverOf(result);
		const answers = await Promise.all([
			request('POST', queryOf(hrefs(annEmail.html)[0]), 'approved=true'),
			request('POST', queryOf(hrefs(bobEmail.html)[1]), 'approved=false'),
		]);
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
		// What n8n would resume with: one answer only (read from the harness, the two requests overlap).
		expect(harness.hits.filter((hit) => hit.items !== undefined)).toHaveLength(1);
		const winner = answers.find((answer) => answer.status === 200)!;
		expect(winner.text).toContain('Your answer was received:');
		expect(winner.text).toContain('Only the first answer counts');
	});
});

describe("each wait's links are its own", () => {
	test('two waits draw different values, so their links differ; a link of an earlier wait shows "No action required"', async () => {
		const round1 = await t.run(parameters({ to: 'ann@example.com' }));
		const [first] = sentEmails();
		t.sandbox.log.clear();
		const round2 = await t.run(parameters({ to: 'ann@example.com' }));
		const [second] = sentEmails();
		expect(waitOf(round1)).not.toBe(waitOf(round2));
		expect(new URL(hrefs(first.html)[0]).searchParams.get('signature')).not.toBe(
			new URL(hrefs(second.html)[0]).searchParams.get('signature'),
		);

		// The execution now waits for round 2: round 1's Approve link answers nothing.
		const request = await pageOf(round2, { to: 'ann@example.com' });
		for (const method of ['GET', 'POST'] as const) {
			const stale = await request(
				method,
				queryOf(hrefs(first.html)[0]),
				method === 'POST' ? 'approved=true' : undefined,
			);
			expect(stale.status).toBe(200);
			expect(stale.items).toBeUndefined();
			expect(stale.text).toContain('<title>No action required</title>');
		}
		// A link without the wait value (as links were before) does not answer a wait that has one.
		const bare = await request('POST', '?approved=true&to=ann%40example.com', 'approved=true');
		expect(bare.items).toBeUndefined();
		expect(bare.text).toContain('No action required');

		const current = await request('POST', queryOf(hrefs(second.html)[0]), 'approved=true');
		expect(current.items?.[0].json).toEqual({
			data: { approved: true, respondedAt: expect.any(String) },
			responder: { email: 'ann@example.com' },
		});
	});
});
