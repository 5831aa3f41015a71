/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { killRecordedProcesses } from '../../scripts/n8n/queue';

/** Kills, by id, any process a test file started and could not stop (each file stops its own in afterAll). */
export default async function globalTeardown(): Promise<void> {
	const file = process.env.QUEUE_PIDS_FILE;
	if (!file) return;
	const killed = killRecordedProcesses(file);
	if (killed.length > 0)
		process.stdout.write(`queue: killed left-over processes: ${killed.join(', ')}\n`);
	rmSync(dirname(file), { recursive: true, force: true });
}
