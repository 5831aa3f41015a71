/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * Send Once per Key's cost and its race, through n8n-core (test/harness/run-node.ts) against the sandbox, with the
 * harness's store (test/harness/deduplication.ts: n8n 2.40.7's logic, the row kept as JSON text as in the
 * database, no database itself). Merges `sendOnce` into bench/results.json:
 *   cpuUsPerSendOff / cpuUsPerSendOn: CPU of this process (node, n8n-core, sandbox) per email sent, the option off
 *     and on (an empty store); cpuUsPerSendOn100k: on, with 100,000 keys already remembered by the node;
 *   duplicatesUnderRaceModel: two executions started together in this process with the same 100 keys, 10 rounds,
 *     on the store's model: messages sent twice. duplicatesUnderRace (the real n8n's figure) is kept as found: it
 *     comes from the queue suite (test/queue/queue.queue.ts check 8 with QUEUE_SEND_ONCE_RACE=full).
 * Run: `npx tsc -p tsconfig.dev.json && node build/bench/send-once.js`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../nodes/MessagingSms/MessagingSms.node';
import { startSandbox } from '../sandbox';
import { emailStateOf } from '../sandbox/email';
import { CredentialStore, sandboxCredentials } from '../test/harness/credentials';
import { deduplicationStore } from '../test/harness/deduplication';
import { disposeExpressionEngine, runNode, type InputItem } from '../test/harness/run-node';

const ROOT = join(__dirname, '..', '..');
const ITEMS_PER_RUN = 200;
const RUNS = 10;

async function main() {
	const sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	const credentials = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
	const store = deduplicationStore();
	const email = new MessagingEmail();
	let serial = 0;
	const items = (): InputItem[] =>
		Array.from({ length: ITEMS_PER_RUN }, () => ({
			json: { orderId: ++serial, email: `buyer${serial}@example.com` },
		}));
	const parameters = (sendOnce: boolean): INodeParameters => ({
		resource: 'email',
		operation: 'send',
		fromEmail: 'sender@sandbox.test',
		to: '={{ $json.email }}',
		subject: '=Order {{ $json.orderId }}',
		content: 'htmlAndText',
		text: 'Thank you',
		requestOptions: { requestsPerSecond: 0 },
		options: sendOnce ? { sendOnce: { settings: { key: '={{ $json.orderId }}' } } } : {},
	});

	/** CPU microseconds of this process per email sent, over RUNS runs (after one warm-up run). */
	const cpuPerSend = async (sendOnce: boolean) => {
		await runNode({ node: email, credentials, parameters: parameters(sendOnce), items: items() });
		emailStateOf(sandbox).reset();
		const before = emailStateOf(sandbox).emails.length;
		const start = process.cpuUsage();
		for (let run = 0; run < RUNS; run++) {
			const result = await runNode({
				node: email,
				credentials,
				parameters: parameters(sendOnce),
				items: items(),
			});
			if (result.error) throw result.error;
		}
		const used = process.cpuUsage(start);
		const sent = emailStateOf(sandbox).emails.length - before;
		if (sent !== RUNS * ITEMS_PER_RUN)
			throw new Error(`sent ${sent}, expected ${RUNS * ITEMS_PER_RUN}`);
		emailStateOf(sandbox).reset();
		sandbox.log.clear();
		return Math.round((used.user + used.system) / sent);
	};

	const cpuUsPerSendOff = await cpuPerSend(false);
	store.reset();
	const cpuUsPerSendOn = await cpuPerSend(true);
	// 100,000 keys remembered by this node: 200,000 values, as the option records them (two per key).
	store.reset();
	await store.checkProcessedAndRecord(
		Array.from({ length: 200_000 }, (_, n) => `send-once:old:${n}`),
		'node',
		{ node: { id: 'subject' } as never, workflow: { id: 'test-workflow', active: false } },
		{ mode: 'entries', maxEntries: 200_000 },
	);
	const cpuUsPerSendOn100k = await cpuPerSend(true);

	// The race: two executions of Send to Numbers with the same 100 keys, started together, 10 rounds.
	store.reset();
	const sms = new MessagingSms();
	let duplicatesUnderRaceModel = 0;
	for (let round = 0; round < 10; round++) {
		sandbox.log.clear();
		const leads = Array.from({ length: 100 }, (_, n) => ({
			json: { phone: `3809862${String(round * 100 + n).padStart(5, '0')}` },
		}));
		const smsParameters: INodeParameters = {
			resource: 'campaign',
			operation: 'sendToNumbers',
			sender: 'Sandbox',
			phones: '={{ $json.phone }}',
			body: 'Welcome!',
			requestOptions: { requestsPerSecond: 0 },
			options: { sendOnce: { settings: { key: '=lead-{{ $json.phone }}' } } },
		};
		await Promise.all(
			[0, 1].map(
				async () =>
					await runNode({ node: sms, credentials, parameters: smsParameters, items: leads }),
			),
		);
		const phones = sandbox.log
			.apiCalls()
			.filter((call) => call.path === '/sms/send')
			.flatMap((call) => (call.body as { phones: string[] }).phones);
		duplicatesUnderRaceModel += phones.length - new Set(phones).size;
	}

	const figures = { cpuUsPerSendOff, cpuUsPerSendOn, cpuUsPerSendOn100k, duplicatesUnderRaceModel };
	const file = join(ROOT, 'bench', 'results.json');
	const results = JSON.parse(readFileSync(file, 'utf8')) as { sendOnce?: Record<string, unknown> };
	results.sendOnce = {
		...results.sendOnce,
		...figures,
		note: `harness: n8n-core + the in-memory store modelled on n8n 2.40.7's (no database); ${RUNS} runs of ${ITEMS_PER_RUN} emails each; race model: 2 executions x 100 keys x 10 rounds in one process`,
	};
	writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
	process.stdout.write(`${JSON.stringify(figures)}\n`);
	await disposeExpressionEngine();
	await sandbox.close();
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
