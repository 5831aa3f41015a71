import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { getTemplateVariables } from '../../nodes/MessagingEmail/methods/loadOptions';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { listSearchContext } from '../harness/list-search';
import type { RunNodeResult } from '../harness/run-node';
import { sendParameters } from '../harness/send-parameters';
import { b64, useEmailSandbox } from './setup';

const t = useEmailSandbox();

/** What n8n hands a loadOptions method: the node's current parameters besides the list-search context. */
const loadOptionsContext = (templateId: unknown): ILoadOptionsFunctions =>
	({
		...listSearchContext(t.sandbox, 'n8n-nodes-messaging.messagingEmail'),
		getCurrentNodeParameter: (name: string, options?: { extractValue?: boolean }) => {
			if (name !== 'templateId') return undefined;
			const locator = templateId as { __rl?: boolean; value?: unknown } | undefined;
			return options?.extractValue && locator?.__rl ? locator.value : templateId;
		},
	}) as unknown as ILoadOptionsFunctions;

const hintsOf = (result: RunNodeResult) =>
	(result.run.data.resultData.runData.Node?.[0]?.hints ?? []).map(({ message, type }) => ({
		message,
		type,
	}));

const itemsGiving = (rows: Array<Array<{ name: string; value: string }>>) =>
	rows.map((variables) => ({ json: { variables } }));

describe('Template variables (Email → Send)', () => {
	test('the service gives one template with its HTML as Base64 in body (GET /template/{id})', async () => {
		expect(await t.api('GET', '/template/101')).toEqual({
			id: '101',
			real_id: 101,
			name: 'Welcome',
			lang: 'en',
			owner: 'me',
			body: b64('<p>Hello {{name}}, your code is {{code}}.</p>'),
		});
	});

	test('Name offers the chosen template’s variables; other names stay allowed', () => {
		const rows = new MessagingEmail().description.properties.find(
			(property) =>
				property.name === 'variablesUi' &&
				property.displayOptions?.show?.operation?.includes('send'),
		);
		const values = (rows?.options?.[0] as unknown as { values: Array<Record<string, unknown>> })
			.values;
		expect(values[0]).toMatchObject({
			name: 'name',
			type: 'options',
			allowArbitraryValues: true,
			typeOptions: {
				loadOptionsMethod: 'getTemplateVariables',
				loadOptionsDependsOn: ['templateId.value'],
			},
		});
	});

	test('lists the names of the {{name}} placeholders, each once, in order of use', async () => {
		await t.control('POST', '/email/templates', {
			id: 202,
			name: 'Order shipped',
			html: '<p>{{ first_name }}, order {{order}} ships to {{first_name}}; {{ }} is none.</p>',
		});
		t.sandbox.log.clear();
		const context = loadOptionsContext({ __rl: true, mode: 'list', value: '202' });
		expect(await getTemplateVariables.call(context)).toEqual([
			{
				name: 'first_name',
				value: 'first_name',
				description: 'Used in the template as {{first_name}}',
			},
			{ name: 'order', value: 'order', description: 'Used in the template as {{order}}' },
		]);
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/template/202', rawQuery: '', body: undefined },
		]);
	});

	test.each([
		['no template chosen yet', { __rl: true, mode: 'list', value: '' }],
		[
			'an expression the editor cannot resolve',
			{ __rl: true, mode: 'id', value: '={{ $json.id }}' },
		],
	])('%s: no names and no request', async (_, templateId) => {
		expect(await getTemplateVariables.call(loadOptionsContext(templateId))).toEqual([]);
		expect(t.calls()).toEqual([]);
	});

	test('a plain text ID, saved before the picker', async () => {
		expect(await getTemplateVariables.call(loadOptionsContext('tpl-news'))).toEqual([
			{ name: 'title', value: 'title', description: 'Used in the template as {{title}}' },
		]);
	});

	test('a send that leaves out a variable: sent as given, then one read of the template and a run warning', async () => {
		const items = itemsGiving([
			[{ name: 'name', value: 'Ann' }],
			[
				{ name: 'name', value: 'Bob' },
				{ name: 'code', value: 'B-2' },
			],
			[{ name: 'other', value: 'x' }],
		]);
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: { __rl: true, mode: 'list', value: '101' },
				variablesInput: 'json',
				variablesJson: '={{ $json.variables }}',
			}),
			items,
		);
		expect(result.error).toBeUndefined();
		expect(t.calls().map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /smtp/senders',
			'POST /smtp/emails',
			'POST /smtp/emails',
			'POST /smtp/emails',
			'GET /template/101',
		]);
		expect(
			t
				.calls()
				.slice(1, 4)
				.map((call) => (call.body as { email: { template: unknown } }).email.template),
		).toEqual([
			{ id: 101, variables: { name: 'Ann' } },
			{ id: 101, variables: { name: 'Bob', code: 'B-2' } },
			{ id: 101, variables: { other: 'x' } },
		]);
		expect(result.items).toHaveLength(3);
		expect(hintsOf(result)).toEqual([
			{
				message:
					'Template 101 uses variables that Template Variables did not give: {{name}} (item 2), {{code}} (items 0, 2). Add them, or recipients get the template without these values.',
				type: 'warning',
			},
		]);
	});

	test('every variable given: no warning; two templates in one run: one read each', async () => {
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
				variablesInput: 'json',
				variablesJson: '={{ $json.variables }}',
			}),
			[
				{
					json: {
						template: '101',
						variables: [
							{ name: 'name', value: 'A' },
							{ name: 'code', value: '1' },
						],
					},
				},
				{ json: { template: 'tpl-news', variables: [{ name: 'title', value: 'T' }] } },
				{
					json: {
						template: '101',
						variables: [
							{ name: 'name', value: 'B' },
							{ name: 'code', value: '2' },
						],
					},
				},
			],
		);
		expect(result.error).toBeUndefined();
		expect(t.calls().map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /smtp/senders',
			'POST /smtp/emails',
			'POST /smtp/emails',
			'POST /smtp/emails',
			'GET /template/101',
			'GET /template/tpl-news',
		]);
		expect(hintsOf(result)).toEqual([]);
	});

	test('a template the service does not give: the sends stand, no warning', async () => {
		t.sandbox.faults.add({
			method: 'GET',
			path: '/template/101',
			status: 404,
			body: { message: 'Not Found' },
		});
		const result = await t.run(
			sendParameters({
				content: 'template',
				templateId: '101',
				variablesInput: 'fields',
				variablesUi: {},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(t.calls().map(({ path }) => path)).toEqual([
			'/smtp/senders',
			'/smtp/emails',
			'/template/101',
		]);
		expect(hintsOf(result)).toEqual([]);
	});
});
