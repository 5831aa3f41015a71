/**
 * 15. Bulk at ten times today: Messaging SMS → Campaign → Send to Numbers with 100,000 and 1,000,000 phones, one
 * per item, combined by the node (default batching: 1,000 phones per campaign request). CPU per phone, requests,
 * wall time and peak memory of our node beside n8n's part (the engine holding the same items, a pass-through node).
 *
 * Through n8n-core's WorkflowExecute in the bench process (test/harness/run-node.ts), not `n8n execute`: scenario 3
 * puts 100,000 items through a real n8n at ~600 MB; a million items there would be saved to its database and printed
 * as JSON whole. The sandbox runs in a child process (rate limit off), so its CPU and memory are not counted.
 */
import {
	Expression,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import {
	defaultEngine,
	runNode,
	useExpressionEngine,
	type InputItem,
} from '../../test/harness/run-node';
import { MB, collectGarbage, loadTracker, measured } from '../lib/measure';
import { fmt, int, seconds } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import { startChildSandbox } from '../lib/child-sandbox';

/** Returns its input: what n8n's engine and the items cost without any node work. */
class PassThrough implements INodeType {
	description = {
		displayName: 'Pass Through',
		name: 'passThrough',
		group: ['transform'],
		version: 1,
		description: 'Returns its input',
		defaults: { name: 'Pass Through' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } })),
		];
	}
}

const phoneAt = (index: number) => `3807${String(index).padStart(8, '0')}`;

export interface BulkRow {
	phones: number;
	side: 'pass' | 'ours';
	requests: number;
	accepted: number;
	outputItems: number;
	cpuMs: number;
	wallMs: number;
	rssBeforeMb: number;
	peakGrowthMb: number;
}

export const bulk1M: Scenario = {
	id: 15,
	title: 'Bulk at ten times today: a million phones',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const sizes = smoke ? [2_000] : [100_000, 1_000_000];
		const load = loadTracker();
		const sandbox = await startChildSandbox();
		const rows: BulkRow[] = [];
		try {
			const credentials = new CredentialStore(sandboxCredentials(sandbox));
			await useExpressionEngine(defaultEngine(), { lazyAcquire: false });
			log(`  expression engine: ${Expression.getActiveImplementation()}`);
			const sides = [
				{ side: 'pass' as const, node: new PassThrough() as INodeType, parameters: {} },
				{
					side: 'ours' as const,
					node: new MessagingSms() as INodeType,
					parameters: {
						resource: 'campaign',
						operation: 'sendToNumbers',
						sender: 'Sandbox',
						body: 'Bulk',
						phones: '={{ $json.phone }}',
						batching: {},
						requestOptions: { requestsPerSecond: 0 },
					},
				},
			];
			// Warm-up (JIT, token), not counted.
			for (const side of sides)
				await runNode({
					node: side.node,
					parameters: side.parameters as never,
					items: Array.from({ length: 200 }, (_, index) => ({ json: { phone: phoneAt(index) } })),
					credentials,
					engine: defaultEngine(),
				});
			for (const phones of sizes)
				for (const side of sides) {
					collectGarbage();
					log(
						`  ${side.side === 'pass' ? 'pass-through' : 'Send to Numbers'}: ${int(phones)} phones…`,
					);
					load.note();
					let items: InputItem[] | undefined = Array.from({ length: phones }, (_, index) => ({
						json: { phone: phoneAt(index) },
					}));
					const run = await measured(() =>
						runNode({
							node: side.node,
							parameters: side.parameters as never,
							items: items!,
							credentials,
							engine: defaultEngine(),
						}),
					);
					load.note();
					if (run.value.error) throw run.value.error;
					const output = run.value.items;
					const campaigns = new Set(
						output.map((item) => item.json.campaign_id).filter((id) => id !== undefined),
					);
					// One output item per campaign request; the service counts the phones it took.
					const accepted =
						side.side === 'pass'
							? 0
							: output.reduce(
									(sum, item) =>
										sum +
										Number((item.json.counters as { sends?: number } | undefined)?.sends ?? 0),
									0,
								);
					rows.push({
						phones,
						side: side.side,
						requests: campaigns.size,
						accepted,
						outputItems: output.length,
						cpuMs: run.cpuMs,
						wallMs: run.wallMs,
						rssBeforeMb: run.rssBefore / MB,
						peakGrowthMb: run.peakGrowth / MB,
					});
					const row = rows[rows.length - 1];
					log(
						`    ${int(row.requests)} requests, ${int(row.accepted)} phones accepted, ${fmt(row.cpuMs / 1000, 2)} s CPU, ${seconds(row.wallMs)}, peak +${int(row.peakGrowthMb)} MB over ${int(row.rssBeforeMb)} MB`,
					);
					items = undefined;
				}
			collectGarbage();
		} finally {
			await sandbox.stop();
		}
		const pairs = sizes.map((phones) => {
			const pass = rows.find((row) => row.phones === phones && row.side === 'pass')!;
			const ours = rows.find((row) => row.phones === phones && row.side === 'ours')!;
			return {
				phones,
				requests: ours.requests,
				accepted: ours.accepted,
				wallSeconds: +(ours.wallMs / 1000).toFixed(2),
				cpuUsPerPhone: Math.round(((ours.cpuMs - pass.cpuMs) * 1000) / phones),
				cpuUsPerPhoneWithEngine: Math.round((ours.cpuMs * 1000) / phones),
				peakGrowthMb: Math.round(ours.peakGrowthMb),
				peakGrowthMbN8nPart: Math.round(pass.peakGrowthMb),
				rssBeforeMb: Math.round(ours.rssBeforeMb),
			};
		});
		const big = pairs[pairs.length - 1];
		const at10 = (requests: number) => seconds((requests / 10) * 1000);
		return {
			id: 15,
			title: 'Bulk at ten times today: a million phones',
			setup: [
				`Messaging SMS → Campaign → Send to Numbers, ${sizes.map(int).join(' and ')} phones one per item (\`{{ $json.phone }}\`), default batching (items combined, 1,000 phones per campaign request), pacing off; beside it a pass-through node given the same items: n8n's part (the engine, the items, the run data).`,
				"Through n8n-core's WorkflowExecute in the bench process (test/harness/run-node.ts, the vm expression engine), not `n8n execute`: scenario 3 puts 100,000 items through a real n8n at ~600 MB, where a million would also be saved to its database and printed whole. The sandbox runs in a child process with no rate limit: its CPU and memory are not counted.",
				`CPU = user + system time of the bench process for the run; per phone, the pass-through run's CPU taken off. Peak memory = the highest resident memory sampled every 5 ms during the run, over the resident memory before it (the items already made, garbage collected before each run). One run per row. The machine is shared (2 cores): load average ${load.range()} during the runs.`,
				'There is no HTTP Request run: one request per phone is 1,000,000 requests (scenario 3 measured 10,000 of them at 1,269 MB and 44.5 s); at the service’s 10 requests per second that is ~27.8 hours.',
			],
			tables: [
				{
					headers: [
						'Run',
						'Phones',
						'Requests',
						'Phones accepted',
						'CPU',
						'Wall time',
						'Peak memory growth',
						'Resident before',
					],
					rows: rows.map((row) => [
						row.side === 'pass' ? 'Pass-through (n8n’s part)' : 'Messaging SMS → Send to Numbers',
						int(row.phones),
						int(row.requests),
						row.side === 'pass' ? '–' : int(row.accepted),
						`${fmt(row.cpuMs / 1000, 2)} s`,
						seconds(row.wallMs),
						`${int(row.peakGrowthMb)} MB`,
						`${int(row.rssBeforeMb)} MB`,
					]),
				},
			],
			findings: [
				`${int(big.phones)} phones in one execution: ${int(big.requests)} requests (${at10(big.requests)} at the service's 10 requests per second; one request per phone would take ~${fmt(big.phones / 10 / 3600, 1)} hours), ${fmt(big.wallSeconds, 1)} s with no rate limit, ${int(big.cpuUsPerPhone)} µs of CPU per phone over the pass-through (${int(big.cpuUsPerPhoneWithEngine)} µs with n8n's engine); ${pairs.length > 1 ? `${int(pairs[0].cpuUsPerPhone)} µs at ${int(pairs[0].phones)} phones. ` : ''}Peak memory grew ${int(big.peakGrowthMb)} MB during our run against ${int(big.peakGrowthMbN8nPart)} MB for the pass-through, over ${int(big.rssBeforeMb)} MB with the items made.`,
			],
			headlineKey: 'scale.bulk1M',
			headline: { sizes: pairs, loadAverage: load.range() },
			summary: [],
			checks: [
				[
					'every phone accepted, in one request per 1,000',
					pairs.every(
						(pair) =>
							pair.accepted === pair.phones && pair.requests === Math.ceil(pair.phones / 1000),
					),
				],
			],
		};
	},
};
