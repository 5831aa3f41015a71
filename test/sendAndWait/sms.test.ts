import type { INodeParameters } from 'n8n-workflow';

import { smsLength } from '../../nodes/shared/sendAndWait/smsLength';
import { useSmsSandbox } from '../sms/setup';
import { executionIdOf, resumeAfterTimeout, signedUrl, waitOf } from './setup';

const t = useSmsSandbox();

function parameters(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'campaign',
		operation: 'sendAndWait',
		sender: { __rl: true, mode: 'name', value: 'Sandbox' },
		phone: '+380 98 623 5698',
		message: 'Refund 120 EUR for order 1042?',
		...overrides,
	};
}

describe('SMS → Campaign → Send and Wait for Response', () => {
	test.each([
		['approval, Approve only', {}],
		['approval, Approve and Decline', { approvalOptions: { values: { approvalType: 'double' } } }],
		['free text', { responseType: 'freeText' }],
		[
			'custom form',
			{
				responseType: 'customForm',
				formFields: { values: [{ fieldLabel: 'Amount', fieldType: 'number' }] },
			},
		],
	])(
		'%s: one SMS to one phone through POST /sms/send with ONE link, the execution waits',
		async (_name, extra) => {
			const result = await t.run(parameters(extra as INodeParameters));
			expect(result.error).toBeUndefined();
			expect(result.run.status).toBe('waiting');
			const link = signedUrl(executionIdOf(result), { w: waitOf(result) });
			expect(t.calls().map(({ method, path, body }) => ({ method, path, body }))).toEqual([
				{
					method: 'POST',
					path: '/sms/send',
					body: {
						sender: 'Sandbox',
						phones: ['380986235698'],
						body: `Refund 120 EUR for order 1042?\n${link}`,
					},
				},
			]);
			expect(result.run.data.executionData?.nodeExecutionStack[0].node.name).toBe('Node');
		},
	);

	test('a message that makes the SMS longer than one part adds a warning with the figures', async () => {
		const result = await t.run(parameters({ message: 'x'.repeat(120) }));
		const body = (t.calls()[0].body as { body: string }).body;
		const length = smsLength(body);
		expect(length.parts).toBe(2);
		// (The harness's n8n is on 127.0.0.1: the link warning comes first, see link-warning.test.ts.)
		expect(result.run.data.resultData.runData.Node?.[0]?.hints?.slice(1)).toEqual([
			{
				message: `The SMS with its link is ${length.length} GSM-7 characters: 2 parts of 153 (each part is charged). Shorten the message to send one part.`,
				type: 'warning',
				location: 'outputPane',
			},
		]);
	});

	test('wait limit: when it passes the output says it timed out', async () => {
		const result = await t.run(
			parameters({
				options: {
					limitWaitTime: {
						values: { limitType: 'afterTimeInterval', resumeAmount: 30, resumeUnit: 'minutes' },
					},
				},
			}),
		);
		expect(result.run.status).toBe('waiting');
		const resumed = await resumeAfterTimeout(result);
		expect(resumed.items.map((item) => item.json)).toEqual([
			{ data: { timedOut: true, approved: false } },
		]);
	});

	test.each([
		['no phone', { phone: '={{ "" }}' }, 'Phone: is empty [item 0]'],
		[
			'no sender',
			{ sender: { __rl: true, mode: 'name', value: '={{ "" }}' } },
			'Sender: is empty [item 0]',
		],
		['no message', { message: '={{ "" }}' }, 'Message: is empty [item 0]'],
		[
			'a wait limit in the past',
			{
				options: {
					limitWaitTime: {
						values: { limitType: 'atSpecifiedTime', maxDateAndTime: '2021-06-01T00:00:00.000Z' },
					},
				},
			},
			'Limit Wait Time: Max Date and Time 2021-06-01T00:00:00.000Z is not in the future [item 0]',
		],
		[
			'a form without fields',
			{ responseType: 'customForm' },
			'Form Elements: no field: add at least one form element [item 0]',
		],
	])('bad input, %s: refused naming the field, nothing sent', async (_case, overrides, message) => {
		const result = await t.run(parameters(overrides as INodeParameters));
		expect(result.error?.message).toBe(message);
		expect(t.calls()).toEqual([]);
	});
});

describe('SMS length and parts', () => {
	test.each([
		['a'.repeat(160), { encoding: 'GSM-7', length: 160, parts: 1, perPart: 160 }],
		['a'.repeat(161), { encoding: 'GSM-7', length: 161, parts: 2, perPart: 153 }],
		['a'.repeat(306), { encoding: 'GSM-7', length: 306, parts: 2, perPart: 153 }],
		['a'.repeat(307), { encoding: 'GSM-7', length: 307, parts: 3, perPart: 153 }],
		['€'.repeat(80), { encoding: 'GSM-7', length: 160, parts: 1, perPart: 160 }],
		['[' + 'a'.repeat(159), { encoding: 'GSM-7', length: 161, parts: 2, perPart: 153 }],
		['я'.repeat(70), { encoding: 'UCS-2', length: 70, parts: 1, perPart: 70 }],
		['я'.repeat(71), { encoding: 'UCS-2', length: 71, parts: 2, perPart: 67 }],
		['я'.repeat(134), { encoding: 'UCS-2', length: 134, parts: 2, perPart: 67 }],
		['a'.repeat(60) + '😀', { encoding: 'UCS-2', length: 62, parts: 1, perPart: 70 }],
	])('%#', (text, expected) => {
		expect(smsLength(text)).toEqual(expected);
	});
});
