/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * `npm start -- --queue`: the demo in queue mode. The same sandbox (or live service), login, credential and
 * examples as `npm start`, but n8n runs as a main (the editor, on the same port), two workers that run the
 * executions and a webhook processor, sharing Postgres and Redis started for the demo (scripts/n8n/queue.ts).
 */
import { QueueStack } from '../n8n/queue';

export interface QueueDemoOptions {
	tarball: string;
	port: number;
	owner: { email: string; password: string };
	credential: { id: string; name: string; data: Record<string, string> };
	workflows: object[];
	say: (line: string) => void;
	/** Called once everything is stopped (Ctrl-C). */
	onStopped: () => Promise<void>;
}

export async function startQueueDemo(options: QueueDemoOptions): Promise<QueueStack> {
	const stack = new QueueStack({
		tarball: options.tarball,
		workers: 2,
		main: {
			port: options.port,
			owner: options.owner,
			env: { N8N_LISTEN_ADDRESS: '0.0.0.0', N8N_HOST: 'localhost' },
		},
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		options.say(
			'\nStopping n8n (main, workers, webhook processor), Redis, Postgres and the sandbox…',
		);
		await stack.stop();
		await options.onStopped();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());

	options.say(
		'Queue mode: Postgres and Redis (installed with apt-get when missing), then n8n main + 2 workers…',
	);
	try {
		await stack.start(async (main) => {
			await main.importCredentials([{ ...options.credential, type: 'messagingServiceApi' }]);
			await main.importWorkflows(options.workflows);
		});
	} catch (error) {
		await stack.stop();
		throw error;
	}
	options.say('');
	options.say(`n8n (queue mode) is ready: http://localhost:${options.port}`);
	options.say(`  login:     ${options.owner.email} / ${options.owner.password}`);
	options.say(
		`  loaded:    the Messaging nodes, credential "${options.credential.name}", ${options.workflows.length} example workflows`,
	);
	options.say(
		`  processes: main pid ${stack.main.pid}, workers ${stack.workers.map((worker) => worker.service.pid).join(', ')}, webhook processor pid ${stack.webhook?.service.pid} on http://127.0.0.1:${stack.webhook?.port}/webhook/…`,
	);
	options.say(`  logs:      ${stack.folderPath}`);
	return stack;
}
