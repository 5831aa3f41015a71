import { items, jsonOf, pairing, useSmsSandbox } from './setup';

const t = useSmsSandbox();

const phoneNumber = (operation: string, extra: Record<string, unknown> = {}) => ({
	resource: 'phoneNumber',
	operation,
	...extra,
});

describe('Phone Number', () => {
	test('Add: phones of all items in one request, normalised; counters from the list', async () => {
		await t.run(phoneNumber('add', { addressBookId: 7, phones: '380631234567' }));
		t.sandbox.log.clear();
		const result = await t.run(
			phoneNumber('add', { addressBookId: 7, phones: '={{ $json.phone }}' }),
			items(
				{ phone: '+380 (98) 623-56-98' },
				{ phone: '380631234567' },
				{ phone: '44 20 7946 0958, 380986235698' },
			),
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/sms/numbers',
				query: {},
				rawQuery: '',
				body: { addressBookId: 7, phones: ['380986235698', '380631234567', '442079460958'] },
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '7',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 1 },
				phones: ['380986235698', '380631234567', '442079460958'],
			},
		]);
		expect(pairing(result)).toEqual([[0, 1, 2]]);
	});

	test('Add: items grouped by mailing list', async () => {
		const result = await t.run(
			phoneNumber('add', { addressBookId: '={{ $json.list }}', phones: '={{ $json.phone }}' }),
			items(
				{ list: 1, phone: '380986235691' },
				{ list: 2, phone: '380986235692' },
				{ list: 1, phone: '380986235693' },
			),
		);
		expect(t.calls().map((call) => call.body)).toEqual([
			{ addressBookId: 1, phones: ['380986235691', '380986235693'] },
			{ addressBookId: 2, phones: ['380986235692'] },
		]);
		expect(jsonOf(result).map((json) => [json.addressBookId, json.counters])).toEqual([
			['1', { added: 2, exceptions: 0, exists: 0 }],
			['2', { added: 1, exceptions: 0, exists: 0 }],
		]);
		expect(pairing(result)).toEqual([[0, 2], [1]]);
	});

	test('Add: per-item mode when Combine Items is off', async () => {
		const result = await t.run(
			phoneNumber('add', {
				addressBookId: 1,
				phones: '={{ $json.phone }}',
				batching: { combineItems: false },
			}),
			items({ phone: '380986235691' }, { phone: '380986235692' }),
		);
		expect(t.calls().map((call) => call.body)).toEqual([
			{ addressBookId: 1, phones: ['380986235691'] },
			{ addressBookId: 1, phones: ['380986235692'] },
		]);
		expect(pairing(result)).toEqual([[0], [1]]);
	});

	test('Add: an invalid phone names its item and nothing is sent', async () => {
		const result = await t.run(
			phoneNumber('add', { addressBookId: 1, phones: '={{ $json.phone }}' }),
			items({ phone: '380986235691' }, { phone: '38098abc' }),
		);
		expect(result.error?.message).toBe('Phones: not a valid phone number: "38098abc" [item 1]');
		expect(t.calls()).toEqual([]);
	});

	test('Add: with Continue On Fail the invalid item is reported and the others go', async () => {
		const result = await t.run(
			phoneNumber('add', { addressBookId: 1, phones: '={{ $json.phone }}' }),
			items({ phone: '380986235691' }, { phone: 'nope' }, { phone: '380986235693' }),
			{ continueOnFail: true },
		);
		expect(t.calls().map((call) => call.body)).toEqual([
			{ addressBookId: 1, phones: ['380986235691', '380986235693'] },
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '1',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 0 },
				phones: ['380986235691', '380986235693'],
			},
			{
				error: 'Phones: not a valid phone number: "nope" [item 1]',
				description:
					'Give international numbers with the country code (7 to 15 digits; spaces, dashes, dots between digit groups, brackets and a leading + are removed)',
			},
		]);
		expect(pairing(result)).toEqual([[0, 2], [1]]);
	});

	test('Add With Variables: phones keyed with their variables; wrapped answer unwrapped', async () => {
		const result = await t.run(
			phoneNumber('addWithVariables', {
				addressBookId: 9,
				phones: '={{ $json.phone }}',
				variablesInput: 'fields',
				variablesUi: {
					variable: [
						{ name: 'Name', type: 'string', value: '={{ $json.name }}' },
						{ name: 'Age', type: 'number', value: '={{ $json.age }}' },
						{ name: 'Birthday', type: 'date', value: '1990-05-01' },
					],
				},
			}),
			items(
				{ phone: '+380 98 623 56 98', name: 'Ann', age: 30 },
				{ phone: '380631234567', name: 'Bob', age: '41' },
			),
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/sms/numbers/variables',
				query: {},
				rawQuery: '',
				body: {
					addressBookId: 9,
					phones: {
						'380986235698': [
							[
								{ name: 'Name', type: 'string', value: 'Ann' },
								{ name: 'Age', type: 'number', value: 30 },
								{ name: 'Birthday', type: 'date', value: '1990-05-01' },
							],
						],
						'380631234567': [
							[
								{ name: 'Name', type: 'string', value: 'Bob' },
								{ name: 'Age', type: 'number', value: 41 },
								{ name: 'Birthday', type: 'date', value: '1990-05-01' },
							],
						],
					},
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '9',
				result: true,
				counters: { added: 2, exceptions: 0, exists: 0 },
				phones: ['380986235698', '380631234567'],
			},
		]);
		expect(pairing(result)).toEqual([[0, 1]]);
	});

	test.each([
		['2018-10-10 23:00:00', 'date'],
		['2017-1-1', 'date'],
		['thirty', 'number'],
	])('Add With Variables: %p as %s is refused before sending', async (value, type) => {
		const result = await t.run(
			phoneNumber('addWithVariables', {
				addressBookId: 9,
				phones: '380986235698',
				variablesInput: 'fields',
				variablesUi: { variable: [{ name: 'V', type, value }] },
			}),
		);
		expect(result.error?.message).toBe(
			type === 'date'
				? `Variables: variable "V" is a date, so its value must be YYYY-MM-DD with no time (got "${value}") [item 0]`
				: `Variables: variable "V" is a number, so its value must be a number (got "${value}") [item 0]`,
		);
		expect(t.calls()).toEqual([]);
	});

	test('Update Variables (JSON object) and Get read back', async () => {
		await t.run(phoneNumber('add', { addressBookId: 5, phones: '380986235698, 380631234567' }));
		t.sandbox.log.clear();
		const result = await t.run(
			phoneNumber('updateVariables', {
				addressBookId: 5,
				phones: '380986235698\n380631234567\n380501112233',
				variablesInput: 'json',
				variablesJson: '{"City":"Kyiv","Visits":3,"Since":"2020-01-31"}',
			}),
		);
		expect(t.calls()).toEqual([
			{
				method: 'PUT',
				path: '/sms/numbers',
				query: {},
				rawQuery: '',
				body: {
					addressBookId: 5,
					phones: ['380986235698', '380631234567', '380501112233'],
					variables: [
						{ name: 'City', type: 'string', value: 'Kyiv' },
						{ name: 'Visits', type: 'number', value: 3 },
						{ name: 'Since', type: 'date', value: '2020-01-31' },
					],
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '5',
				result: true,
				counters: { updated: 2 },
				phones: ['380986235698', '380631234567', '380501112233'],
			},
		]);

		t.sandbox.log.clear();
		const got = await t.run(phoneNumber('get', { addressBookId: 5, phone: '+380 98 623 56 98' }));
		expect(t.calls()).toEqual([
			{
				method: 'GET',
				path: '/sms/numbers/info/5/380986235698',
				query: {},
				rawQuery: '',
				body: undefined,
			},
		]);
		const [contact] = jsonOf(got);
		expect(contact).toEqual({
			phone: '380986235698',
			addressBookId: '5',
			status: 0,
			variables: { City: 'Kyiv', Visits: 3, Since: '2020-01-31' },
			added: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			addedIso: `${String(contact.added).replace(' ', 'T')}.000Z`,
		});
	});

	test('Update Contact Variables sends only name and value', async () => {
		await t.run(
			phoneNumber('addWithVariables', {
				addressBookId: 3,
				phones: '380986235698',
				variablesInput: 'json',
				variablesJson: '{"Name":"Ann","Visits":1}',
			}),
		);
		t.sandbox.log.clear();
		const result = await t.run(
			phoneNumber('updateContactVariables', {
				addressBookId: 3,
				phone: '+380986235698',
				variablesInput: 'fields',
				variablesUi: {
					variable: [
						{ name: 'Name', value: 'Anna' },
						{ name: 'Visits', value: '2' },
					],
				},
			}),
		);
		expect(t.calls()).toEqual([
			{
				method: 'POST',
				path: '/addressbooks/3/phones/variable',
				query: {},
				rawQuery: '',
				body: {
					phone: '380986235698',
					variables: [
						{ name: 'Name', value: 'Anna' },
						{ name: 'Visits', value: '2' },
					],
				},
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				result: true,
				addressBookId: '3',
				phone: '380986235698',
				variables: [
					{ name: 'Name', value: 'Anna' },
					{ name: 'Visits', value: '2' },
				],
			},
		]);
		const state = await t.control('GET', '/sms/state');
		expect(
			(state.lists as Array<{ phones: Record<string, { variables: unknown }> }>)[0].phones[
				'380986235698'
			].variables,
		).toEqual({
			Name: { type: 'string', value: 'Anna' },
			Visits: { type: 'number', value: '2' },
		});
	});

	// The same three shapes Messaging Email takes for template variables (test/email/send.test.ts).
	test.each([
		[
			'Fields rows (values are text)',
			{
				variablesInput: 'fields',
				variablesUi: {
					variable: [
						{ name: 'Name', value: '={{ $json.name }}' },
						{ name: ' Visits ', value: '={{ $json.visits }}' },
					],
				},
			},
			[
				{ name: 'Name', value: 'Ann' },
				{ name: 'Visits', value: '2' },
			],
		],
		[
			'a JSON object from an expression (values as given)',
			{
				variablesInput: 'json',
				variablesJson: '={{ { "Name": $json.name, "Visits": $json.visits } }}',
			},
			[
				{ name: 'Name', value: 'Ann' },
				{ name: 'Visits', value: 2 },
			],
		],
		[
			'a JSON list of {name, value}',
			{
				variablesInput: 'json',
				variablesJson: '[{"name": "Name", "value": "Ann"}, {"name": "Visits", "value": 2}]',
			},
			[
				{ name: 'Name', value: 'Ann' },
				{ name: 'Visits', value: 2 },
			],
		],
	])(
		'Variables: the same shapes as Email — Update Contact Variables with %s',
		async (_, variables, sent) => {
			await t.run(phoneNumber('add', { addressBookId: 6, phones: '380986235698' }));
			t.sandbox.log.clear();
			const result = await t.run(
				phoneNumber('updateContactVariables', {
					addressBookId: 6,
					phone: '380986235698',
					...variables,
				}),
				items({ name: 'Ann', visits: 2 }),
			);
			expect(result.error).toBeUndefined();
			expect(t.calls()).toEqual([
				{
					method: 'POST',
					path: '/addressbooks/6/phones/variable',
					query: {},
					rawQuery: '',
					body: { phone: '380986235698', variables: sent },
				},
			]);
			expect(jsonOf(result)).toEqual([
				{ result: true, addressBookId: '6', phone: '380986235698', variables: sent },
			]);
		},
	);

	test('Variables: a JSON list of {name, type, value}, the type given or inferred (Update Variables)', async () => {
		await t.run(phoneNumber('add', { addressBookId: 8, phones: '380986235698' }));
		t.sandbox.log.clear();
		const result = await t.run(
			phoneNumber('updateVariables', {
				addressBookId: 8,
				phones: '380986235698',
				variablesInput: 'json',
				variablesJson:
					'[{"name": "Code", "type": "string", "value": 42}, {"name": "Visits", "value": 3}, {"name": "Since", "value": "2020-01-31"}, {"name": "Age", "type": "number", "value": "30"}]',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(t.calls()).toEqual([
			{
				method: 'PUT',
				path: '/sms/numbers',
				query: {},
				rawQuery: '',
				body: {
					addressBookId: 8,
					phones: ['380986235698'],
					variables: [
						{ name: 'Code', type: 'string', value: 42 },
						{ name: 'Visits', type: 'number', value: 3 },
						{ name: 'Since', type: 'date', value: '2020-01-31' },
						{ name: 'Age', type: 'number', value: 30 },
					],
				},
			},
		]);
	});

	test.each([
		[
			'addWithVariables',
			{ variablesInput: 'json', variablesJson: '{"a": ' },
			/^Variables \(JSON\): is not valid JSON \(.+\) \[item 0\]$/,
		],
		[
			'addWithVariables',
			{ variablesInput: 'json', variablesJson: '[1]' },
			'Variables (JSON): entry 1 of the list must be an object {name, type, value} (got 1) [item 0]',
		],
		[
			'updateContactVariables',
			{ variablesInput: 'json', variablesJson: '"Ann"' },
			'Variables (JSON): must be a JSON object of variable names and values, or a list of {name, value} objects [item 0]',
		],
		[
			'updateContactVariables',
			{ variablesInput: 'json', variablesJson: '{"Member": true}' },
			'Variables (JSON): variable "Member" must be text, a number or a date (got true) [item 0]',
		],
		[
			'updateVariables',
			{ variablesInput: 'json', variablesJson: '{}' },
			'Variables (JSON): add at least one variable [item 0]',
		],
		[
			'updateContactVariables',
			{ variablesInput: 'fields', variablesUi: {} },
			'Variables: add at least one variable [item 0]',
		],
		[
			'updateVariables',
			{
				variablesInput: 'fields',
				variablesUi: { variable: [{ name: '', type: 'string', value: 'x' }] },
			},
			'Variables: a variable has no name [item 0]',
		],
	])(
		'Variables: %s with %j is refused naming the parameter',
		async (operation, variables, message) => {
			const result = await t.run(
				phoneNumber(operation, {
					addressBookId: 2,
					phone: '380986235698',
					phones: '380986235698',
					...variables,
				}),
			);
			if (typeof message === 'string') expect(result.error?.message).toBe(message);
			else expect(result.error?.message).toMatch(message);
			expect(t.calls()).toEqual([]);
		},
	);

	test('Remove: DELETE with a JSON body; deleted counter', async () => {
		await t.run(phoneNumber('add', { addressBookId: 4, phones: '380986235698, 380631234567' }));
		t.sandbox.log.clear();
		const result = await t.run(
			phoneNumber('remove', { addressBookId: 4, phones: '={{ $json.p }}' }),
			items({ p: '380986235698' }, { p: '380000000001' }),
		);
		expect(t.calls()).toEqual([
			{
				method: 'DELETE',
				path: '/sms/numbers',
				query: {},
				rawQuery: '',
				body: { addressBookId: 4, phones: ['380986235698', '380000000001'] },
			},
		]);
		expect(jsonOf(result)).toEqual([
			{
				addressBookId: '4',
				result: true,
				counters: { deleted: 1 },
				phones: ['380986235698', '380000000001'],
			},
		]);
	});

	test("Get: an unknown contact fails with the service's message", async () => {
		const result = await t.run(phoneNumber('get', { addressBookId: 4, phone: '380986235698' }));
		expect(result.error?.message).toBe('Phone not found in the mailing list (error code 404)');
	});

	test.each([
		[
			// A plain 0 is an empty Mailing List to n8n (it refuses the workflow); an expression reaches the node.
			{ addressBookId: '={{ 0 }}', phones: '380986235698' },
			'Mailing List: must be a positive whole number (got 0) [item 0]',
		],
		[{ addressBookId: 1, phones: '={{ "" }}' }, 'Phones: is empty [item 0]'],
	])('bad input %p → clear error, no request', async (parameters, message) => {
		const result = await t.run(phoneNumber('add', parameters));
		expect(result.error?.message).toBe(message);
		expect(t.calls()).toEqual([]);
	});
});
