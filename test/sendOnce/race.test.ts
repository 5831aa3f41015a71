import type { INodeParameters } from 'n8n-workflow';

import { useSendOnceSandbox } from './setup';

const t = useSendOnceSandbox();

const welcome: INodeParameters = {
	resource: 'campaign',
	operation: 'sendToNumbers',
	sender: 'Sandbox',
	phones: '={{ $json.phone }}',
	body: 'Welcome!',
	options: { sendOnce: { settings: { key: '=lead-{{ $json.phone }}' } } },
};

const sentPhones = () =>
	t
		.calls()
		.filter((call) => call.path === '/sms/send')
		.flatMap((call) => (call.body as { phones: string[] }).phones);

/**
 * Two executions of the same node with the same 100 keys at the same moment, 10 times (fresh keys each time).
 * n8n's store reads the node's row and writes it back with no lock (test/harness/deduplication.ts follows it):
 * when both reads come before either write, both executions claim every key and both send.
 */
describe('Send Once per Key: two executions at the same moment', () => {
	test('what n8n’s store lets through: counted, and the first ever write of a row refused', async () => {
		const rounds: Array<{ sent: number; duplicates: number; failedRuns: number }> = [];
		for (let round = 0; round < 10; round++) {
			t.sandbox.log.clear();
			const items = Array.from({ length: 100 }, (_, n) => ({
				json: { phone: `3809862${String(round * 100 + n).padStart(5, '0')}` },
			}));
			const runs = await Promise.all([t.sms(welcome, items), t.sms(welcome, items)]);
			const phones = sentPhones();
			rounds.push({
				sent: phones.length,
				duplicates: phones.length - new Set(phones).size,
				failedRuns: runs.filter((run) => run.error).length,
			});
			// Nothing is lost: every key was sent at least once.
			expect(new Set(phones).size).toBe(100);
		}
		// The first round finds no row: both executions insert it, the database refuses the second insert
		// (its primary key), so that execution fails before sending anything.
		expect(rounds[0]).toEqual({ sent: 100, duplicates: 0, failedRuns: 1 });
		// Then the row exists, and two executions whose store calls overlap both send every key: the limit
		// docs/send-once.md states (at most once only for executions whose store calls do not overlap).
		expect(rounds.slice(1)).toEqual(Array(9).fill({ sent: 200, duplicates: 100, failedRuns: 0 }));
	});
});
