import { useSmsSandbox } from './setup';

const t = useSmsSandbox();

/** Raw calls to the sandbox's SMS routes, as any client would make them. */
async function api(method: string, path: string, body?: unknown) {
	const response = await fetch(`${t.sandbox.url}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${t.sandbox.account.apiKey}`,
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as unknown };
}

describe('sandbox SMS area: the reference validation', () => {
	test.each([['2018-10-10 23:00:00'], ['2017-1-1']])(
		'a date variable %p is refused',
		async (value) => {
			const reply = await api('POST', '/sms/numbers/variables', {
				addressBookId: 1,
				phones: { '380986235698': [[{ name: 'D', type: 'date', value }]] },
			});
			expect(reply).toEqual({
				status: 400,
				body: {
					message: `Variable "D": a date value must be YYYY-MM-DD without a time, got "${value}"`,
					error_code: 400,
				},
			});
		},
	);

	test('number accepts numbers (and a date, per the reference); string accepts numbers', async () => {
		const ok = await api('POST', '/sms/numbers/variables', {
			addressBookId: 1,
			phones: {
				'380986235698': [
					[
						{ name: 'N', type: 'number', value: 5 },
						{ name: 'S', type: 'string', value: 7 },
						{ name: 'ND', type: 'number', value: '2020-01-01' },
					],
				],
			},
		});
		expect(ok).toEqual({
			status: 200,
			body: [{ result: true, counters: { added: 1, exceptions: 0, exists: 0 } }],
		});
		const bad = await api('PUT', '/sms/numbers', {
			addressBookId: 1,
			phones: ['380986235698'],
			variables: [{ name: 'N', type: 'number', value: 'five' }],
		});
		expect(bad).toEqual({
			status: 400,
			body: { message: 'Variable "N": invalid number value "five"', error_code: 400 },
		});
	});

	test('update-contact-variable takes name and value only', async () => {
		await api('POST', '/sms/numbers', { addressBookId: 1, phones: ['380986235698'] });
		const reply = await api('POST', '/addressbooks/1/phones/variable', {
			phone: '380986235698',
			variables: [{ name: 'A', type: 'string', value: 'x' }],
		});
		expect(reply).toEqual({
			status: 400,
			body: { message: 'Unknown argument variables[0].type', error_code: 400 },
		});
	});

	test('exceptions and exists counters', async () => {
		const reply = await api('POST', '/sms/numbers', {
			addressBookId: 1,
			phones: ['380986235698', '380986235698', '12ab', 79217451232],
		});
		expect(reply).toEqual({
			status: 200,
			body: { result: true, counters: { added: 2, exceptions: 1, exists: 1 } },
		});
	});

	test('sender rules, cost rules, campaign id rules', async () => {
		expect(
			await api('POST', '/sms/send', {
				sender: 'ABCDEFGHIJKL',
				phones: ['380986235698'],
				body: 'x',
			}),
		).toEqual({
			status: 400,
			body: { message: 'Argument sender is invalid', error_code: 400 },
		});
		expect(
			await api(
				'GET',
				'/sms/campaigns/cost?addressBookId=1&phones=%5B%22380986235698%22%5D&sender=S&body=x',
			),
		).toEqual({
			status: 400,
			body: { message: 'Pass either addressBookId or phones, not both', error_code: 400 },
		});
		expect(await api('GET', '/sms/campaigns/cost?sender=S&body=x')).toEqual({
			status: 400,
			body: { message: 'Argument addressBookId or phones missing', error_code: 400 },
		});
		// All three array encodings are accepted.
		for (const query of [
			'phones[0]=380986235698&phones[1]=12025550143',
			'phones=380986235698&phones=12025550143',
		]) {
			expect(await api('GET', `/sms/campaigns/cost?${query}&sender=S&body=x`)).toEqual({
				status: 200,
				body: { result: true, data: { price: 0.04, currency: 'USD' } },
			});
		}
		expect(await api('DELETE', '/sms/campaigns', { id: 99 })).toEqual({
			status: 404,
			body: { message: 'Campaign not found', error_code: 404 },
		});
	});

	test('campaign detail: wrapped, phones as numbers, Cyrillic country-code key', async () => {
		await t.control('PATCH', '/sms/settings', {
			moderationDelaySeconds: 0,
			deliveryDelaySeconds: 0,
		});
		await api('POST', '/sms/send', { sender: 'Sandbox', phones: ['380986235698'], body: 'x' });
		const reply = (await api('GET', '/sms/campaigns/info/1001')).body as Array<{
			data: { task_phones_info: object[] };
		}>;
		expect(reply[0].data.task_phones_info).toEqual([
			{
				phone: 380986235698,
				status: 2,
				status_explain: 'Delivered',
				'\u0441ountry_code': 'UA',
				money_spent: 0.03,
			},
		]);
	});

	test('control routes: senders with a moderation status, lists, settings', async () => {
		const sender = await t.control('POST', '/sms/senders', { sender: 'Shop', status: 0 });
		expect(sender).toEqual({ id: 2, sender: 'Shop', country: '', country_code: '', status: 0 });
		expect(await t.control('PATCH', '/sms/senders/2', { status: 1 })).toEqual({
			...sender,
			status: 1,
		});
		expect(await t.control('POST', '/sms/addressbooks', { id: 77, name: 'VIP' })).toEqual({
			id: 77,
			name: 'VIP',
			phones: 0,
		});
		await t.control('PATCH', '/sms/settings', { autoCreateLists: false });
		expect(
			await api('POST', '/sms/numbers', { addressBookId: 78, phones: ['380986235698'] }),
		).toEqual({
			status: 404,
			body: { message: 'Address book not found', error_code: 404 },
		});
		expect(
			(await api('POST', '/sms/numbers', { addressBookId: 77, phones: ['380986235698'] })).status,
		).toBe(200);
	});
});
