import { writeFileSync } from 'node:fs';

import { startSandbox, type Sandbox } from '../../sandbox';
import { N8nInstance } from '../../scripts/n8n/instance';
import { expectTemplateRun } from './expectations';
import { SANDBOX_CREDENTIALS, credentialRecords, describeFailure, example } from './helpers';

/**
 * The n8n 1.x leg: the same packed package in n8n 1.123.81 (the newest 1.x) running the template example (Code
 * node rows → Messaging Email → Send with a template, one email per row) with the assertions of the 2.40.7 leg.
 *
 * Not the bulk SMS or PDF examples: on 1.123.81 under `n8n execute`, `$('Node name')` expressions evaluate to
 * null (`$('Phone List').all().length` and `.first().json.phone` in a Set node → null; `$json` and
 * `$node["Phone List"].json` work), so those examples' inputs are empty there. They pass on 2.40.7.
 */
let sandbox: Sandbox;
let n8n: N8nInstance;
const timings: Record<string, number> = {};

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.close();
	process.stdout.write(`\ne2e n8n 1.x timings (ms): ${JSON.stringify(timings, null, 2)}\n`);
});

it('n8n 1.123.81 loads the package and runs the template email example', async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.e2e.config.js');
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	let started = Date.now();
	n8n = await N8nInstance.create({ version: '1.123.81', tarball });
	timings['provision + install'] = Date.now() - started;
	started = Date.now();
	await n8n.importCredentials(credentialRecords(sandbox.url));
	await n8n.importWorkflows([example('template-email-from-rows.json')]);
	timings.imports = Date.now() - started;
	started = Date.now();
	const result = await n8n.execute('msgExTemplateRow');
	timings.execute = Date.now() - started;
	if (process.env.E2E_DUMP)
		writeFileSync(
			'/tmp/e2e-n8n1.json',
			JSON.stringify({ run: result.run, log: sandbox.log.all() }, null, 2),
		);
	if (result.exitCode !== 0 || result.status !== 'success')
		throw new Error(`The run failed: ${describeFailure(result)}`);
	await expectTemplateRun(result, sandbox, 'token');
	// Client id/secret on 1.x too: one token exchange, stored with the credential.
	expect(
		sandbox.log
			.all()
			.filter((entry) => entry.path === '/oauth/access_token')
			.map((entry) => entry.status),
	).toEqual([200]);
});
