import { searchMailingLists } from '../../nodes/MessagingSms/methods/listSearch';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { listSearchContext } from '../harness/list-search';
import { useSmsSandbox } from './setup';

const t = useSmsSandbox();
const search = (filter?: string, token?: string) =>
	searchMailingLists.call(
		listSearchContext(t.sandbox, 'n8n-nodes-messaging.messagingSms'),
		filter,
		token,
	);

describe('Mailing List picker (every SMS operation that takes a list)', () => {
	test('is a resource locator (From List or By ID) wherever addressBookId is asked', () => {
		const fields = new MessagingSms().description.properties.filter(
			(property) => property.name === 'addressBookId',
		);
		const operations = fields.flatMap((field) => field.displayOptions?.show?.operation ?? []);
		expect(operations.sort()).toEqual(
			[
				'add',
				'addWithVariables',
				'createForList',
				'get',
				'getCost',
				'remove',
				'updateContactVariables',
				'updateVariables',
			].sort(),
		);
		for (const field of fields) {
			expect(field.type).toBe('resourceLocator');
			expect(field.displayName).toBe('Mailing List');
			expect(field.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			expect(field.modes?.[0].typeOptions?.searchListMethod).toBe('searchMailingLists');
		}
	});

	test('lists the mailing lists (GET /addressbooks, pages of 100), by name, filtered by name or ID', async () => {
		await t.control('POST', '/sms/addressbooks', { id: 7, name: 'Customers' });
		await t.control('POST', '/sms/addressbooks', { id: 12, name: 'Newsletter' });
		t.sandbox.log.clear();
		expect(await search()).toEqual({
			results: [
				{ name: 'Customers', value: '7', description: 'ID 7' },
				{ name: 'Newsletter', value: '12', description: 'ID 12' },
			],
		});
		expect(t.calls().map((call) => [call.method, call.path, call.rawQuery])).toEqual([
			['GET', '/addressbooks', 'limit=100&offset=0'],
		]);
		expect((await search('news')).results.map((entry) => entry.value)).toEqual(['12']);
		expect((await search('7')).results.map((entry) => entry.value)).toEqual(['7']);
	});

	test('more than one page: n8n asks for the next with the offset as its token', async () => {
		for (let id = 1; id <= 130; id++) await t.control('POST', '/sms/addressbooks', { id });
		const first = await search();
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('100');
		const second = await search(undefined, first.paginationToken as string);
		expect(second.results.map((entry) => entry.value)).toEqual(
			Array.from({ length: 30 }, (_, index) => String(101 + index)),
		);
		expect(second.paginationToken).toBeUndefined();
	});

	test('an answer that is not a list is an error, never an empty list', async () => {
		t.sandbox.faults.add({ path: '/addressbooks', status: 200, body: { error: 'x' } });
		await expect(search()).rejects.toThrow(
			'The answer to GET /addressbooks holds no list of records',
		);
	});

	test.each([
		['From List', { __rl: true, mode: 'list', value: '7' }],
		['By ID', { __rl: true, mode: 'id', value: ' 7 ' }],
		['By ID, an expression', { __rl: true, mode: 'id', value: '={{ $json.list }}' }],
		['a plain ID saved before the picker', 7],
	])('Phone Number → Add with the list chosen %s', async (_, addressBookId) => {
		const result = await t.run(
			{ resource: 'phoneNumber', operation: 'add', addressBookId, phones: '380631234567' },
			[{ json: { list: 7 } }],
		);
		expect(result.error).toBeUndefined();
		expect(t.calls().map((call) => call.body)).toEqual([
			{ addressBookId: 7, phones: ['380631234567'] },
		]);
	});

	test('By ID that is not a number: n8n refuses the workflow before it runs (the mode’s validation), nothing sent', async () => {
		await expect(
			t.run({
				resource: 'phoneNumber',
				operation: 'add',
				addressBookId: { __rl: true, mode: 'id', value: 'Customers' },
				phones: '380631234567',
			}),
		).rejects.toThrow('A mailing list ID is a whole number');
		expect(t.calls()).toEqual([]);
	});

	test('an expression giving a name instead of an ID names the parameter and the item, nothing sent', async () => {
		const result = await t.run({
			resource: 'phoneNumber',
			operation: 'add',
			addressBookId: { __rl: true, mode: 'id', value: '={{ "Customers" }}' },
			phones: '380631234567',
		});
		expect(result.error?.message).toBe(
			'Mailing List: must be a positive whole number (got "Customers") [item 0]',
		);
		expect(t.calls()).toEqual([]);
	});
});
