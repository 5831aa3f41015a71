import { searchTemplates } from '../../nodes/MessagingEmail/methods/listSearch';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { listSearchContext } from '../harness/list-search';
import { sendParameters } from '../harness/send-parameters';
import { useEmailSandbox } from './setup';

const t = useEmailSandbox();
const search = (filter?: string) =>
	searchTemplates.call(listSearchContext(t.sandbox, 'n8n-nodes-messaging.messagingEmail'), filter);

describe('Template picker (Email → Send)', () => {
	test('is a resource locator: From List (the account’s templates) or By ID', () => {
		const field = new MessagingEmail().description.properties.find(
			(property) => property.name === 'templateId',
		);
		expect(field).toMatchObject({
			type: 'resourceLocator',
			displayName: 'Template',
			default: { mode: 'list', value: '' },
			displayOptions: { show: { content: ['template'] } },
		});
		expect(field?.modes?.map((mode) => [mode.name, mode.type])).toEqual([
			['list', 'list'],
			['id', 'string'],
		]);
		expect(field?.modes?.[0].typeOptions?.searchListMethod).toBe('searchTemplates');
	});

	test('lists the account’s own templates (GET /templates?owner=me) by name, the value a send takes', async () => {
		await t.control('POST', '/email/templates', {
			id: 202,
			name: 'Order shipped',
			html: '<p>x</p>',
		});
		t.sandbox.log.clear();
		expect((await search()).results).toEqual([
			{ name: 'Welcome', value: '101', description: 'ID 101' },
			{ name: 'Newsletter', value: 'tpl-news', description: 'ID tpl-news' },
			{ name: 'Order shipped', value: '202', description: 'ID 202' },
		]);
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/templates', rawQuery: 'owner=me', body: undefined },
		]);
		expect((await search('SHIP')).results.map((entry) => entry.value)).toEqual(['202']);
		expect((await search('tpl')).results.map((entry) => entry.value)).toEqual(['tpl-news']);
	});

	test('an answer that is not a list is an error, never an empty list', async () => {
		t.sandbox.faults.add({ path: '/templates', status: 200, body: { result: true } });
		await expect(search()).rejects.toThrow('The answer to GET /templates holds no list of records');
	});

	test.each([
		['From List', { __rl: true, mode: 'list', value: '101' }, 101],
		['By ID', { __rl: true, mode: 'id', value: 'tpl-news' }, 'tpl-news'],
		['By ID, an expression', { __rl: true, mode: 'id', value: '={{ $json.template }}' }, 101],
		['a plain ID saved before the picker', '101', 101],
	])('a send with the template chosen %s', async (_, templateId, sentId) => {
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId,
				variablesInput: 'json',
				variablesJson: '{}',
			}),
			[{ json: { template: '101' } }],
		);
		expect(result.error).toBeUndefined();
		const sends = t.calls().filter((call) => call.path === '/smtp/emails');
		expect(
			sends.map(
				(call) => (call.body as { email: { template: { id: unknown } } }).email.template.id,
			),
		).toEqual([sentId]);
	});
});
