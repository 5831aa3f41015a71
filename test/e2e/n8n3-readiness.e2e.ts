/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox } from '../../sandbox';
import { DEFAULT_N8N_VERSION, type N8nInstance } from '../../scripts/n8n/instance';
import { expectTemplateRun } from './expectations';
import { SANDBOX_CREDENTIALS, credentialRecords, describeFailure, loadExamples } from './helpers';
import { sharedN8n } from './shared-n8n';

/**
 * n8n 3.0 against the package, as far as n8n 2.x can tell (3.0 is not on the registry this project reaches):
 * - n8n 2.40.7's own breaking-changes report for v3 (GET /rest/breaking-changes/report?version=v3, one rule per
 *   announced change) over every example workflow: no workflow-level finding;
 * - SSRF protection (opt-in in 2.x; 3.0 blocks more ranges by default): the sandbox's loopback address is refused
 *   already by 2.40.7's default list, and allowed by N8N_SSRF_ALLOWED_IP_RANGES; the real service's public
 *   address is in no blocked range. RELEASING.md lists every v3 change with "affects us / does not, because".
 * n8n 1.x has neither the v3 report nor SSRF protection: this file runs on 2.x only.
 */
const major = Number(DEFAULT_N8N_VERSION.split('.')[0]);
const describeOn2 = major >= 2 ? describe : describe.skip;

let sandbox: Sandbox;
let n8n: N8nInstance;

beforeAll(async () => {
	if (major < 2) return;
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	n8n = await sharedN8n();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	await n8n.importWorkflows(loadExamples().map(({ workflow }) => workflow));
});

afterAll(async () => {
	await sandbox?.close();
});

describeOn2(`n8n 3.0 readiness on n8n ${DEFAULT_N8N_VERSION}`, () => {
	it('SSRF protection on: the loopback sandbox is refused (nothing reaches it); allowed by N8N_SSRF_ALLOWED_IP_RANGES, the template example runs', async () => {
		sandbox.log.clear();
		const refused = await n8n.execute('msgExTemplateRow', {
			env: { N8N_SSRF_PROTECTION_ENABLED: 'true', GENERIC_TIMEZONE: 'UTC' },
		});
		expect(refused.status).not.toBe('success');
		// n8n refuses before any byte is sent; the node reports it as unreachable (RELEASING.md, SSRF row).
		expect(describeFailure(refused)).toMatch(/could not be reached|SSRF|restricted IP/i);
		expect(sandbox.log.all()).toEqual([]);

		const allowed = await n8n.execute('msgExTemplateRow', {
			env: {
				N8N_SSRF_PROTECTION_ENABLED: 'true',
				N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
				GENERIC_TIMEZONE: 'UTC',
			},
		});
		if (allowed.status !== 'success') throw new Error(describeFailure(allowed));
		await expectTemplateRun(allowed, sandbox, 'token');
	});

	it("n8n's v3 breaking-changes report finds nothing in the example workflows", async () => {
		const answer = (await n8n.rest('GET', '/rest/breaking-changes/report?version=v3')) as {
			data: {
				totalWorkflows: number;
				report: {
					targetVersion: string;
					workflowResults: Array<{ ruleId: string; nbAffectedWorkflows: number }>;
					instanceResults: Array<{ ruleId: string }>;
				};
			};
		};
		const { report, totalWorkflows } = answer.data;
		expect(report.targetVersion).toBe('v3');
		expect(
			report.workflowResults
				.filter((result) => result.nbAffectedWorkflows > 0)
				.map((result) => result.ruleId),
		).toEqual([]);
		// Every example was looked at.
		expect(totalWorkflows).toBe(loadExamples().length);
		// What the report says about this test instance (its settings, not the package), for RELEASING.md.
		process.stdout.write(
			`\nv3 report, instance-level rules: ${report.instanceResults.map((result) => result.ruleId).join(', ')}\n`,
		);
	});
});
