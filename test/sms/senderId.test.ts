import { listSearchContext } from '../harness/list-search';
import { jsonOf, node, useSmsSandbox } from './setup';

const t = useSmsSandbox();

describe('Sender ID', () => {
	beforeEach(async () => {
		await t.control('POST', '/sms/senders', {
			sender: 'Shop1',
			status: 0,
			country: 'Ukraine',
			country_code: 'UA',
		});
		await t.control('POST', '/sms/senders', { sender: 'Old', status: 2 });
		t.sandbox.log.clear();
	});

	test('Get Many: ids as strings, status with its name', async () => {
		const result = await t.run({ resource: 'senderId', operation: 'getAll', returnAll: true });
		expect(t.calls()).toEqual([
			{ method: 'GET', path: '/sms/senders', query: {}, rawQuery: '', body: undefined },
		]);
		expect(jsonOf(result)).toEqual([
			{
				id: '1',
				sender: 'Sandbox',
				country: '',
				country_code: '',
				status: 1,
				status_explain: 'Active',
				statusName: 'Active',
			},
			{
				id: '2',
				sender: 'Shop1',
				country: 'Ukraine',
				country_code: 'UA',
				status: 0,
				status_explain: 'On moderation',
				statusName: 'In moderation',
			},
			{
				id: '3',
				sender: 'Old',
				country: '',
				country_code: '',
				status: 2,
				status_explain: 'Rejected',
				statusName: 'Rejected',
			},
		]);
		const limited = await t.run({
			resource: 'senderId',
			operation: 'getAll',
			returnAll: false,
			limit: 1,
		});
		expect(jsonOf(limited).map((json) => json.sender)).toEqual(['Sandbox']);
	});

	test('the Sender list shows each sender with its moderation status once (methods.listSearch)', async () => {
		const context = listSearchContext(t.sandbox);
		const options = await node.methods.listSearch.searchSenders.call(context);
		expect(options.results).toEqual([
			{ name: 'Sandbox (Active)', value: 'Sandbox' },
			{ name: 'Shop1 (In moderation)', value: 'Shop1', description: 'Ukraine' },
			{ name: 'Old (Rejected)', value: 'Old' },
		]);
		expect(t.calls().map((call) => call.path)).toEqual(['/sms/senders']);
	});
});
