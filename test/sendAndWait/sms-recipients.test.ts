import type { INodeParameters } from 'n8n-workflow';

import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { useSmsSandbox } from '../sms/setup';
import { executionIdOf, signedUrl, usePageServers, waitOf } from './setup';
import type { RunNodeResult } from '../harness/run-node';

/**
 * Several phones in SMS Send and Wait: the node runs in n8n-core against the sandbox (the SMS requests it received,
 * exactly), then its page is served over real HTTP against the stored execution the run left waiting.
 */

const t = useSmsSandbox();

const parameters = (overrides: INodeParameters = {}): INodeParameters => ({
	resource: 'campaign',
	operation: 'sendAndWait',
	sender: { __rl: true, mode: 'name', value: 'Sandbox' },
	phone: '+380 98 623 5698, 380631234567\n+380986235698',
	message: 'Refund 120 EUR for order 1042?',
	approvalOptions: { values: { approvalType: 'double' } },
	...overrides,
});

const sentSms = () =>
	t
		.calls()
		.filter((call) => call.method === 'POST')
		.map(({ path, body }) => ({ path, body }));

const servePage = usePageServers();
async function pageOf(result: RunNodeResult, overrides: INodeParameters = {}) {
	const server = await servePage(new MessagingSms(), 'messagingSms', parameters(overrides), result);
	return server.request;
}

const queryOf = (url: string) => new URL(url).search;

describe('SMS Send and Wait to several phones', () => {
	test('each phone gets an SMS of its own with its own signed link (a phone given twice, once); the first answer names its phone, a later one is told it did not count', async () => {
		const result = await t.run(parameters());
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		const id = executionIdOf(result);
		const w = waitOf(result);
		const annLink = signedUrl(id, { w, phone: '380986235698' });
		const bobLink = signedUrl(id, { w, phone: '380631234567' });
		const message = 'Refund 120 EUR for order 1042?';
		expect(sentSms()).toEqual([
			{
				path: '/sms/send',
				body: { sender: 'Sandbox', phones: ['380986235698'], body: `${message}\n${annLink}` },
			},
			{
				path: '/sms/send',
				body: { sender: 'Sandbox', phones: ['380631234567'], body: `${message}\n${bobLink}` },
			},
		]);

		const request = await pageOf(result);
		// Opening the link answers nothing.
		const opened = await request('GET', queryOf(bobLink));
		expect(opened.status).toBe(200);
		expect(opened.items).toBeUndefined();

		const bobDeclines = await request('POST', queryOf(bobLink), 'approved=false');
		expect(bobDeclines.status).toBe(200);
		expect(bobDeclines.items?.map((item) => item.json)).toEqual([
			{
				data: { approved: false, respondedAt: expect.any(String) },
				responder: { phone: '380631234567' },
			},
		]);
		const annApproves = await request('POST', queryOf(annLink), 'approved=true');
		expect(annApproves.status).toBe(409);
		expect(annApproves.items).toBeUndefined();
		expect(annApproves.text).toContain(
			'Someone answered this request just before you. Their answer stands; yours was not recorded.',
		);
	});

	test('one phone: one SMS with the link as before (no phone in it) and no responder in the output', async () => {
		const result = await t.run(parameters({ phone: '+380 98 623 5698' }));
		const link = signedUrl(executionIdOf(result), { w: waitOf(result) });
		expect(sentSms()).toEqual([
			{
				path: '/sms/send',
				body: {
					sender: 'Sandbox',
					phones: ['380986235698'],
					body: `Refund 120 EUR for order 1042?\n${link}`,
				},
			},
		]);
		const request = await pageOf(result, { phone: '+380 98 623 5698' });
		const answer = await request('POST', queryOf(link), 'approved=true');
		expect(answer.items?.map((item) => item.json)).toEqual([
			{ data: { approved: true, respondedAt: expect.any(String) } },
		]);
	});

	test('one of the phones is not a phone: refused naming the parameter and the entry, nothing sent', async () => {
		const result = await t.run(parameters({ phone: '+380986235698, 12ab' }));
		expect(result.error?.message).toMatch(/^Phone: not a valid phone number: "12ab" \[item 0\]$/);
		expect(t.calls()).toEqual([]);
	});

	test('one SMS too long: none is sent', async () => {
		const result = await t.run(parameters({ message: 'x'.repeat(850) }));
		expect(result.error?.message).toMatch(
			/^Message: the SMS with its link is \d+ GSM-7 characters: 7 parts, more than the 6 a Send and Wait SMS may take \[item 0\]$/,
		);
		expect(t.calls()).toEqual([]);
	});
});
