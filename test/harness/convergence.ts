/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * Several node executions that share nothing but the service, as n8n's queue mode runs them on separate workers:
 * the sandbox (in this process, its one account limited to `limit` requests/s) and `executions` child processes
 * (test/harness/send-execution.ts), each sending `count` template emails through Messaging Email → Send, started
 * at once. What the sandbox saw is summed up: accepted rate over the run, 429s, failed items, duplicates.
 *
 * Used by test/foundation/pacer-convergence.test.ts; from a shell (longer runs):
 * `scripts/with-node24.sh node --no-experimental-strip-types -r ./test/foundation/run-ts.cjs test/harness/convergence.ts [executions] [count] [limit]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { startSandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';
import type { SendExecutionArguments, SendExecutionResult } from './send-execution';

const ROOT = join(__dirname, '..', '..');
const CLIENT = {
	clientId: 'convergence-client',
	clientSecret: 'convergence-secret-0123456789abcdef',
	apiKey: 'sp_apikey_convergence0123456789abcdef',
};

export interface ConvergenceOptions {
	executions: number;
	count: number;
	limit: number;
}

export interface ConvergenceFigures extends ConvergenceOptions {
	/** Requests on rate-limited routes (every route but the token exchange), accepted or not. */
	requests: number;
	accepted: number;
	rateLimited: number;
	/** Seconds between the first and the last accepted request. */
	seconds: number;
	/** Accepted requests per second over the run: (accepted − 1) / seconds. */
	acceptedPerSecond: number;
	shareOfLimit: number;
	emailsAccepted: number;
	failedItems: number;
	duplicates: number;
	tokenExchanges: number;
	/** Accepted requests in each whole second of the run (where the rate dipped). */
	perSecond: number[];
	/** The same per execution (by the recipients' domain), to see how the executions shared the limit. */
	perSecondByExecution: Record<string, number[]>;
	executionsOut: SendExecutionResult[];
}

function startExecution(args: SendExecutionArguments): {
	child: ChildProcess;
	ready: Promise<void>;
	done: Promise<SendExecutionResult>;
} {
	const child = spawn(
		process.execPath,
		[
			'--no-experimental-strip-types',
			'-r',
			join(ROOT, 'test/foundation/run-ts.cjs'),
			join(ROOT, 'test/harness/send-execution.ts'),
			JSON.stringify(args),
		],
		{
			cwd: ROOT,
			env: { ...process.env, N8N_LOG_LEVEL: 'silent' },
			stdio: ['pipe', 'pipe', 'pipe'],
		},
	);
	let stdout = '';
	let stderr = '';
	let markReady!: () => void;
	const ready = new Promise<void>((resolve) => (markReady = resolve));
	child.stdout!.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		if (stdout.startsWith('ready\n')) markReady();
	});
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const done = new Promise<SendExecutionResult>((resolve, reject) => {
		child.on('close', (code) => {
			const last = stdout.trim().split('\n').pop() ?? '';
			if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as SendExecutionResult);
			else reject(new Error(`execution ${args.tag} exited ${code}:\n${stderr.slice(-3000)}`));
		});
	});
	// A child that dies before it is ready must not leave the caller waiting for it.
	done.catch(() => markReady());
	return { child, ready, done };
}

export async function runConvergence(options: ConvergenceOptions): Promise<ConvergenceFigures> {
	const sandbox = await startSandbox({
		settings: { rateLimitPerSecond: options.limit },
		credentials: CLIENT,
	});
	const children: ChildProcess[] = [];
	try {
		const runs = Array.from({ length: options.executions }, (_, index) => {
			const run = startExecution({
				baseUrl: sandbox.url,
				clientId: CLIENT.clientId,
				clientSecret: CLIENT.clientSecret,
				tag: `execution${index + 1}`,
				count: options.count,
			});
			children.push(run.child);
			return run;
		});
		await Promise.all(runs.map(async (run) => await run.ready));
		for (const run of runs) run.child.stdin!.write('go\n');
		const executionsOut = await Promise.all(runs.map(async (run) => await run.done));

		const log = sandbox.log.all();
		const limitedRoutes = log.filter((entry) => entry.path !== '/oauth/access_token');
		const accepted = limitedRoutes.filter((entry) => entry.status === 200);
		const rateLimited = limitedRoutes.filter((entry) => entry.status === 429).length;
		const times = accepted.map((entry) => entry.receivedAt).sort((a, b) => a - b);
		const seconds = (times[times.length - 1] - times[0]) / 1000;
		const acceptedPerSecond = (times.length - 1) / seconds;
		const secondOf = (time: number) =>
			Math.min(Math.ceil(seconds) - 1, Math.floor((time - times[0]) / 1000));
		const perSecond = Array.from({ length: Math.ceil(seconds) }, () => 0);
		for (const time of times) perSecond[secondOf(time)]++;
		const perSecondByExecution: Record<string, number[]> = {};
		for (const entry of accepted) {
			const tag = /@(execution\d+)\./.exec(JSON.stringify(entry.body))?.[1];
			if (!tag) continue;
			perSecondByExecution[tag] ??= Array.from({ length: Math.ceil(seconds) }, () => 0);
			perSecondByExecution[tag][secondOf(entry.receivedAt)]++;
		}
		const recipients = new Map<string, number>();
		for (const email of emailStateOf(sandbox).emails) {
			const key = String(email.recipient);
			recipients.set(key, (recipients.get(key) ?? 0) + 1);
		}
		return {
			...options,
			requests: limitedRoutes.length,
			accepted: accepted.length,
			rateLimited,
			seconds,
			acceptedPerSecond,
			shareOfLimit: acceptedPerSecond / options.limit,
			emailsAccepted: emailStateOf(sandbox).emails.length,
			failedItems: executionsOut.reduce(
				(sum, out) => sum + out.failed + (options.count - out.sent - out.failed),
				0,
			),
			duplicates: [...recipients.values()].filter((count) => count > 1).length,
			tokenExchanges: log.filter((entry) => entry.path === '/oauth/access_token').length,
			perSecond,
			perSecondByExecution,
			executionsOut,
		};
	} finally {
		for (const child of children)
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		await sandbox.close();
	}
}

if (require.main === module) {
	const [executions = 3, count = 300, limit = 10] = process.argv.slice(2).map(Number);
	runConvergence({ executions, count, limit }).then(
		(figures) => {
			const { executionsOut, perSecond, perSecondByExecution, ...rest } = figures;
			const rows = Object.entries(perSecondByExecution).map(
				([tag, counts]) => `${tag}: ${counts.join(' ')}`,
			);
			process.stdout.write(
				`${JSON.stringify({ ...rest, perSecond: perSecond.join(' '), executionsOut }, null, 1)}\n${rows.join('\n')}\n`,
			);
			process.exit(0);
		},
		(error: Error) => {
			process.stderr.write(`${error.stack ?? error.message}\n`);
			process.exit(1);
		},
	);
}
