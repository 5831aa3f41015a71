/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION } from '../../scripts/n8n/instance';
import packAndProvision from './global-setup';
import { startSharedN8n } from './shared-n8n';

/**
 * The e2e suite's global setup (jest.e2e.config.js): pack and provision (`global-setup.ts`), then start the one n8n
 * every e2e file shares (`shared-n8n.ts`); `shared-n8n-teardown.ts` stops it.
 */
export default async function globalSetup(): Promise<void> {
	await packAndProvision();
	const started = Date.now();
	const running = await startSharedN8n(
		process.env.E2E_TARBALL!,
		join(mkdtempSync(join(tmpdir(), 'messaging-e2e-n8n-')), 'running.json'),
	);
	process.stdout.write(
		`e2e: shared n8n ${DEFAULT_N8N_VERSION} started (pid ${running.pid}, port ${running.port}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
	);
}
