import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { REFUND_EMAIL, usePageServers } from './setup';

/**
 * Answers are read as strictly as the page shows them (over real HTTP): crafted POSTs with dates that do not exist,
 * numbers in notations a person does not type, or megabytes of text get the page again with what to fix (400) and
 * leave the execution waiting.
 */

const form: INodeParameters = {
	responseType: 'customForm',
	formFields: {
		values: [
			{ fieldLabel: 'Amount', fieldType: 'number' },
			{ fieldLabel: 'Pay on', fieldType: 'date' },
			{ fieldLabel: 'Note', fieldType: 'text' },
			{
				fieldLabel: 'Checks',
				fieldType: 'checkbox',
				fieldOptions: { values: [{ option: 'Photo' }, { option: 'Receipt' }] },
			},
		],
	},
};

const servePage = usePageServers();
async function serve(parameters: INodeParameters) {
	const server = await servePage(new MessagingEmail(), 'messagingEmail', {
		...REFUND_EMAIL,
		...parameters,
	});
	return server.request;
}

const NUMBER_PROBLEM =
	'Amount: give a number in plain decimal notation, such as 1250 or 1250.50 (no exponent, no hex, no decimal comma)';

describe('custom form answers read strictly', () => {
	test.each([
		['field-1=2026-02-31', 'Pay on: 2026-02-31 is not a date: February 2026 has no day 31'],
		['field-1=2026-13-45', 'Pay on: 2026-13-45 is not a date: there is no month 13'],
		['field-1=2026-2-3', 'Pay on: give a date (YYYY-MM-DD)'],
		['field-0=0x10', NUMBER_PROBLEM],
		['field-0=0b11', NUMBER_PROBLEM],
		['field-0=0o17', NUMBER_PROBLEM],
		['field-0=1e3', NUMBER_PROBLEM],
		['field-0=Infinity', NUMBER_PROBLEM],
		['field-0=1%2C5', NUMBER_PROBLEM],
		['field-0=1+000', NUMBER_PROBLEM],
		[`field-2=${'x'.repeat(10_001)}`, 'Note: at most 10,000 characters (this has 10,001)'],
		['field-2=a&field-2=b', 'Note: give one value'],
		['field-3=Photo&field-3=Other', 'Checks: choose from the options shown'],
	])('%s is refused; the execution goes on waiting', async (body, problem) => {
		const request = await serve(form);
		const answer = await request('POST', '?signature=x', body);
		expect(answer.status).toBe(400);
		expect(answer.items).toBeUndefined();
		expect(answer.text).toContain(`<p class="error">${problem}</p>`);
	});

	test('a 2 MB text answer is refused, and the page does not send the 2 MB back', async () => {
		const request = await serve(form);
		const answer = await request('POST', '?signature=x', `field-2=${'y'.repeat(2_000_000)}`);
		expect(answer.status).toBe(400);
		expect(answer.items).toBeUndefined();
		expect(answer.text).toContain('Note: at most 10,000 characters (this has 2,000,000)');
		expect(answer.text.length).toBeLessThan(20_000);
	});

	test('the page shows the limit and the inputs carry it', async () => {
		const request = await serve(form);
		const page = (await request('GET', '?signature=x')).text;
		expect(page).toContain('<p class="note">At most 10,000 characters.</p>');
		expect(page).toContain('<input type="text" id="f2" name="field-2" maxlength="10000">');
		expect(page).toContain('<input type="number" id="f0" name="field-0" step="any">');
	});

	test('plain decimals, real dates, 10,000 characters and a ticked option twice are accepted', async () => {
		const request = await serve(form);
		const answer = await request(
			'POST',
			'?signature=x',
			`field-0=-0012.50&field-1=2028-02-29&field-2=${'z'.repeat(10_000)}&field-3=Photo&field-3=Photo`,
		);
		expect(answer.status).toBe(200);
		const data = answer.items?.[0].json.data as Record<string, unknown>;
		expect(data.Amount).toBe(-12.5);
		expect(data['Pay on']).toBe('2028-02-29');
		expect(data.Note).toBe('z'.repeat(10_000));
		expect(data.Checks).toEqual(['Photo']);
	});
});

describe('free text answers are bounded', () => {
	test('over 10,000 characters is refused with what to fix; at 10,000 it resumes', async () => {
		const request = await serve({ responseType: 'freeText' });
		const page = (await request('GET', '?signature=x')).text;
		expect(page).toContain(
			'<textarea id="f0" name="field-0" maxlength="10000" required></textarea>',
		);
		expect(page).toContain('At most 10,000 characters.');

		const long = await request('POST', '?signature=x', `field-0=${'a'.repeat(2_000_000)}`);
		expect(long.status).toBe(400);
		expect(long.items).toBeUndefined();
		expect(long.text).toContain('Response: at most 10,000 characters (this has 2,000,000)');

		const fits = await request('POST', '?signature=x', `field-0=${'a'.repeat(10_000)}`);
		expect(fits.status).toBe(200);
		expect((fits.items?.[0].json.data as { text: string }).text).toHaveLength(10_000);
	});
});
