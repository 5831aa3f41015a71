import {
	DEFAULT_N8N_VERSION,
	type ExecuteResult,
	type N8nInstance,
} from '../../scripts/n8n/instance';
import { sharedN8n } from './shared-n8n';

/**
 * Why two examples (bulk SMS, PDF attachment) run on n8n 1.x with the legacy expression engine (`npm run
 * e2e:n8n1`): on 1.123.81 the isolate (vm) engine cannot evaluate `$('Node name')` — not in this package's nodes,
 * and not in n8n's own Set node, shown here with n8n's nodes only (Manual Trigger → Code → Set). The legacy engine
 * evaluates the same workflow. Under `n8n execute` and in a manual run from the editor (REST) alike (checked
 * once by hand). Runs on n8n 1.x only; when a 1.x release fixes it, the first test fails: then run every example
 * on the isolate engine there too (package.json "e2e:n8n1") and update RELEASING.md.
 */
const describeOn1 = DEFAULT_N8N_VERSION.startsWith('1.') ? describe : describe.skip;

const WORKFLOW = {
	id: 'msgN8n1NodeRefs1',
	name: "n8n 1.x: $('Node') in n8n's own Set node",
	active: false,
	settings: { executionOrder: 'v1' },
	connections: {
		Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
		Rows: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
	},
	nodes: [
		{
			id: 'n1',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'n2',
			name: 'Rows',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { jsCode: 'return [{ json: { a: 1 } }, { json: { a: 2 } }];' },
		},
		{
			id: 'n3',
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [400, 0],
			parameters: {
				mode: 'raw',
				jsonOutput:
					"={{ JSON.stringify({ item: $('Rows').item.json.a, all: $('Rows').all().length, json: $json.a }) }}",
			},
		},
	],
};

let n8n: N8nInstance;

beforeAll(async () => {
	if (!DEFAULT_N8N_VERSION.startsWith('1.')) return;
	n8n = await sharedN8n();
	await n8n.importWorkflows([WORKFLOW]);
});

const setOutput = (result: ExecuteResult) =>
	(
		result.run as
			| {
					data: {
						resultData: {
							error?: { message: string };
							runData: Record<string, Array<{ data?: { main: Array<Array<{ json: unknown }>> } }>>;
						};
					};
			  }
			| undefined
	)?.data.resultData;

describeOn1(`n8n ${DEFAULT_N8N_VERSION}: $('Node name') and the expression engines`, () => {
	it("isolate (vm) engine: n8n's own Set node fails on $('Rows')", async () => {
		const result = await n8n.execute(WORKFLOW.id, { env: { N8N_EXPRESSION_ENGINE: 'vm' } });
		expect(result.status).toBe('error');
		expect(setOutput(result)?.error?.message).toBe('Cannot convert undefined or null to object');
	});

	it('legacy engine: the same workflow evaluates', async () => {
		const result = await n8n.execute(WORKFLOW.id, { env: { N8N_EXPRESSION_ENGINE: 'legacy' } });
		expect(result.status).toBe('success');
		expect(setOutput(result)?.runData.Set[0].data?.main[0].map((item) => item.json)).toEqual([
			{ item: 1, all: 2, json: 1 },
			{ item: 2, all: 2, json: 2 },
		]);
	});
});
