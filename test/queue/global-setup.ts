/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION, packPackage, provisionN8n } from '../../scripts/n8n/instance';
import { ensureServices } from '../../scripts/n8n/queue';

/**
 * Before the queue-mode files: Postgres and Redis installed (apt-get as root; otherwise a message naming the
 * packages), the package packed once (E2E_TARBALL), the pinned n8n provisioned, and a file where every started
 * process's id is recorded for the global teardown (QUEUE_PIDS_FILE).
 */
export default async function globalSetup(): Promise<void> {
	const say = (line: string) => process.stdout.write(`${line}\n`);
	let started = Date.now();
	await ensureServices();
	say(`\nqueue: postgres + redis present after ${((Date.now() - started) / 1000).toFixed(1)} s`);
	process.env.QUEUE_PIDS_FILE = join(mkdtempSync(join(tmpdir(), 'messaging-queue-pids-')), 'pids');
	if (!process.env.E2E_TARBALL) {
		started = Date.now();
		process.env.E2E_TARBALL = await packPackage();
		say(
			`queue: packed ${process.env.E2E_TARBALL} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
		);
	}
	started = Date.now();
	await provisionN8n(DEFAULT_N8N_VERSION);
	say(`queue: n8n ${DEFAULT_N8N_VERSION} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
