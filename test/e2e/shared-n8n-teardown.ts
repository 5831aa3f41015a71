/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { stopSharedN8n } from './shared-n8n';

/** Stops the e2e files' shared n8n by its process id (and fails when it is still running), removes its folder. */
export default async function globalTeardown(): Promise<void> {
	const file = process.env.E2E_N8N_STATE;
	await stopSharedN8n();
	if (file) rmSync(dirname(file), { recursive: true, force: true });
}
