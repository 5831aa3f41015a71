import type { INodeParameters } from 'n8n-workflow';

import { jsonOf } from '../harness/run-node';
import { useSendOnceSandbox } from './setup';

const t = useSendOnceSandbox();

/** SMS → Send to Numbers: each lead's phone, once per lead. */
const welcome = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'campaign',
	operation: 'sendToNumbers',
	sender: 'Sandbox',
	phones: '={{ $json.phone }}',
	body: 'Welcome!',
	options: { sendOnce: { settings: { key: '=lead-{{ $json.lead }}' } } },
	...extra,
});
const leads = (...numbers: number[]) =>
	numbers.map((lead) => ({ json: { lead, phone: `38098623560${lead}` } }));

const smsPosts = () =>
	t.calls().filter((call) => call.method === 'POST' && call.path.startsWith('/sms/'));

describe('SMS → Send to Numbers with Send Once per Key', () => {
	test('one campaign for the new items; the same items again send nothing and each comes out marked', async () => {
		const first = await t.sms(welcome(), leads(1, 2, 3));
		expect(first.error).toBeUndefined();
		expect(smsPosts()).toEqual([
			{
				method: 'POST',
				path: '/sms/send',
				body: {
					sender: 'Sandbox',
					phones: ['380986235601', '380986235602', '380986235603'],
					body: 'Welcome!',
					transliterate: 0,
				},
			},
		]);
		expect(first.items).toEqual([
			{
				json: {
					result: true,
					campaign_id: expect.stringMatching(/^\d+$/),
					counters: { exceptions: 0, sends: 3 },
					phones: ['380986235601', '380986235602', '380986235603'],
					alreadySent: false,
					sendOnceKeys: ['lead-1', 'lead-2', 'lead-3'],
				},
				pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }],
			},
		]);
		const campaignId = jsonOf(first)[0].campaign_id;
		t.sandbox.log.clear();

		const second = await t.sms(welcome(), leads(1, 2, 3, 4));
		expect(smsPosts()).toEqual([
			{
				method: 'POST',
				path: '/sms/send',
				body: { sender: 'Sandbox', phones: ['380986235604'], body: 'Welcome!', transliterate: 0 },
			},
		]);
		expect(second.items.map(({ json, pairedItem }) => ({ json, pairedItem }))).toEqual([
			...[1, 2, 3].map((lead, item) => ({
				json: {
					alreadySent: true,
					sendOnceKey: `lead-${lead}`,
					firstSentAt: null,
					firstSendId: null,
				},
				pairedItem: { item },
			})),
			{
				json: expect.objectContaining({
					alreadySent: false,
					sendOnceKey: 'lead-4',
					phones: ['380986235604'],
				}),
				pairedItem: { item: 3 },
			},
		]);
		expect(jsonOf(second)[3].campaign_id).not.toBe(campaignId);
	});

	test('a refused campaign is not remembered: the re-run sends it', async () => {
		t.sandbox.faults.add({
			method: 'POST',
			path: '/sms/send',
			status: 400,
			body: { is_error: true, message: 'Sender is not active', error_code: 400 },
		});
		const refused = await t.sms(welcome(), leads(1, 2));
		expect(refused.error?.message).toBe('Sender is not active (error code 400)');
		t.sandbox.log.clear();
		const rerun = await t.sms(welcome(), leads(1, 2));
		expect(rerun.error).toBeUndefined();
		expect(smsPosts()).toHaveLength(1);
		expect(jsonOf(rerun)[0]).toMatchObject({
			alreadySent: false,
			sendOnceKeys: ['lead-1', 'lead-2'],
		});
	});

	test('the same lead twice in one run: its phone is sent once, the repeat is marked with the campaign', async () => {
		const result = await t.sms(welcome({ batching: { combineItems: false } }), leads(5, 5));
		expect(smsPosts()).toHaveLength(1);
		expect(jsonOf(result)[1]).toEqual({
			alreadySent: true,
			sendOnceKey: 'lead-5',
			firstSentAt: expect.stringMatching(/Z$/),
			firstSendId: jsonOf(result)[0].campaign_id,
		});
	});

	test("Key left empty: a digest of sender, message, settings and the item's phones", async () => {
		const byDigest = welcome({ options: { sendOnce: { settings: {} } } });
		await t.sms(byDigest, leads(1, 2));
		t.sandbox.log.clear();
		const again = await t.sms({ ...byDigest, body: 'Welcome back!' }, leads(1, 2));
		expect(smsPosts()).toHaveLength(1);
		t.sandbox.log.clear();
		await t.sms(byDigest, leads(2, 1));
		expect(smsPosts()).toEqual([]);
		expect(jsonOf(again)[0]).toMatchObject({ alreadySent: false });
	});
});

describe('SMS → Create for List with Send Once per Key', () => {
	test('the same campaign twice: created once', async () => {
		const parameters: INodeParameters = {
			resource: 'campaign',
			operation: 'createForList',
			sender: 'Sandbox',
			addressBookId: '={{ $json.list }}',
			body: 'Sale starts today',
			options: { sendOnce: { settings: { key: '=sale-{{ $json.list }}' } } },
		};
		const list = 11;
		await t.sms({
			resource: 'phoneNumber',
			operation: 'add',
			addressBookId: list,
			phones: '380986235601',
		});
		t.sandbox.log.clear();
		const first = await t.sms(parameters, [{ json: { list } }]);
		expect(first.error).toBeUndefined();
		expect(smsPosts()).toEqual([
			{
				method: 'POST',
				path: '/sms/campaigns',
				body: {
					sender: 'Sandbox',
					addressBookId: list,
					body: 'Sale starts today',
					transliterate: 0,
				},
			},
		]);
		expect(jsonOf(first)[0]).toMatchObject({ alreadySent: false, sendOnceKey: `sale-${list}` });
		t.sandbox.log.clear();
		const second = await t.sms(parameters, [{ json: { list } }]);
		expect(smsPosts()).toEqual([]);
		expect(second.items).toEqual([
			{
				json: {
					alreadySent: true,
					sendOnceKey: `sale-${list}`,
					firstSentAt: null,
					firstSendId: null,
				},
				pairedItem: { item: 0 },
			},
		]);
	});
});
