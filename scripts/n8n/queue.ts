/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * n8n in queue mode on one machine, for `npm run e2e:queue` and `npm start -- --queue`: Postgres and Redis (Debian's
 * packages, installed by scripts/queue/ensure-services.sh when missing) on free loopback ports with their data in a
 * temporary folder, then a main (`n8n start`), workers (`n8n worker`) and a webhook processor (`n8n webhook`) of
 * the pinned n8n, each in its own user folder with the packed package installed, all with the same encryption key,
 * database and Redis. Every process started here is stopped by its id in `stop()`.
 *
 * Facts from n8n 2.40.7's source (packages/cli): `n8n execute` falls back to regular mode, so executions reach the
 * workers through the main's REST `POST /rest/workflows/:id/run` (with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true),
 * through production webhooks (webhook processor) or through active triggers (the leader main enqueues). The
 * execution record has no worker column: a worker logs "Worker started/finished execution <id>", which is how
 * `workerOf()` tells which worker ran an execution. In queue mode binary data defaults to the database.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	freePort,
	N8nInstance,
	ROOT,
	runCommand,
	type ExecuteResult,
	type StartOptions,
} from './instance';

const WITH_NODE24 = join(ROOT, 'scripts/with-node24.sh');
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Installs Postgres/Redis when missing (root), or throws the message that says what to install. */
export async function ensureServices(): Promise<number> {
	const started = Date.now();
	const result = await runCommand(join(ROOT, 'scripts/queue/ensure-services.sh'), [], {
		timeoutMs: 15 * 60_000,
	});
	if (result.exitCode !== 0) throw new Error(result.stderr.trim().split('\n').slice(-8).join('\n'));
	return Date.now() - started;
}

/** A background process started here, stopped by its id (its whole process group). */
export class Service {
	readonly exited: Promise<void>;

	constructor(
		readonly name: string,
		readonly child: ChildProcess,
		readonly logFile: string,
	) {
		this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
	}

	get pid(): number {
		return this.child.pid!;
	}

	get running(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	log(): string {
		return readFileSync(this.logFile, 'utf8');
	}

	static spawn(
		name: string,
		command: string,
		args: string[],
		options: { env: NodeJS.ProcessEnv; logFile: string; uid?: number; gid?: number },
	): Service {
		writeFileSync(options.logFile, '');
		if (options.uid !== undefined) chownSync(options.logFile, options.uid, options.gid!);
		const child = spawn(command, args, {
			env: options.env,
			cwd: '/',
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			uid: options.uid,
			gid: options.gid,
		});
		const append = (chunk: Buffer) => writeFileSync(options.logFile, chunk, { flag: 'a' });
		child.stdout!.on('data', append);
		child.stderr!.on('data', append);
		recordPid(child.pid, name);
		return new Service(name, child, options.logFile);
	}

	async waitForLog(pattern: RegExp, timeoutMs = 180_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!pattern.test(this.log())) {
			if (!this.running) throw new Error(`${this.name} exited early:\n${this.log().slice(-4000)}`);
			if (Date.now() > deadline)
				throw new Error(
					`${this.name}: no ${pattern} within ${timeoutMs} ms:\n${this.log().slice(-4000)}`,
				);
			await new Promise((resolveWait) => setTimeout(resolveWait, 250));
		}
	}

	/** SIGTERM to the process group, SIGKILL after `graceMs`; `signal` SIGKILL kills at once (a crash). */
	async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
		if (!this.running) return;
		const kill = (sig: NodeJS.Signals) => {
			try {
				process.kill(-this.pid, sig);
			} catch {
				// already gone
			}
		};
		kill(signal);
		const killer = setTimeout(() => kill('SIGKILL'), graceMs);
		await this.exited;
		clearTimeout(killer);
	}
}

export interface QueueStackOptions {
	tarball: string;
	workers?: number;
	/** Jobs each worker runs at once (`n8n worker --concurrency`). */
	workerConcurrency?: number;
	webhook?: boolean;
	/** Extra environment for every n8n process. */
	env?: NodeJS.ProcessEnv;
	/** For the main (`n8n start`): port, owner, env. */
	main?: StartOptions;
}

export class QueueStack {
	readonly services: Service[] = [];
	main!: N8nInstance;
	workers: Array<{ instance: N8nInstance; service: Service }> = [];
	webhook?: { instance: N8nInstance; service: Service; port: number };
	private postgres?: Service;
	private redis?: Service;
	private readonly folder = mkdtempSync(join(tmpdir(), 'messaging-queue-'));
	private sharedEnv: NodeJS.ProcessEnv = {};
	timings: Record<string, number> = {};

	constructor(private readonly options: QueueStackOptions) {
		chmodSync(this.folder, 0o755);
	}

	/** Database, Redis, imports (run the migrations), then main, workers and webhook processor. */
	async start(setup: (main: N8nInstance) => Promise<void> = async () => {}): Promise<void> {
		let started = Date.now();
		this.timings['install postgres/redis (when missing)'] = await ensureServices();
		started = Date.now();
		const [pgPort, redisPort] = await Promise.all([this.startPostgres(), this.startRedis()]);
		this.timings['postgres + redis up'] = Date.now() - started;
		this.sharedEnv = {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(pgPort),
			DB_POSTGRESDB_DATABASE: 'postgres',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redisPort),
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_ENCRYPTION_KEY: 'messaging-queue-encryption-key',
			N8N_RUNNERS_ENABLED: 'true',
			GENERIC_TIMEZONE: 'UTC',
			...this.options.env,
		};
		started = Date.now();
		this.main = await this.instance('main');
		await setup(this.main);
		this.timings['imports (migrations)'] = Date.now() - started;
		started = Date.now();
		await Promise.all([
			this.startMain(),
			...Array.from({ length: this.options.workers ?? 2 }, (_, index) =>
				this.startWorker(index + 1),
			),
			this.options.webhook === false ? Promise.resolve() : this.startWebhook(),
		]);
		this.timings['main + workers + webhook up'] = Date.now() - started;
	}

	private async instance(name: string): Promise<N8nInstance> {
		const instance = await N8nInstance.create({
			tarball: this.options.tarball,
			userFolder: join(this.folder, name),
		});
		instance.extraEnv = this.sharedEnv;
		return instance;
	}

	/** `n8n start` for the main (again after `stopMain()`); the main's REST API is at `main.baseUrl`. */
	async startMain(): Promise<void> {
		await this.main.start({
			...this.options.main,
			port: this.options.main?.port ?? this.main.port,
		});
		recordPid(this.main.pid, 'main');
	}

	async stopMain(): Promise<void> {
		await this.main.stop();
	}

	async startWorker(index: number): Promise<void> {
		const instance = await this.instance(`worker${index}`);
		const service = Service.spawn(
			`worker ${index}`,
			WITH_NODE24,
			[instance.bin, 'worker', `--concurrency=${this.options.workerConcurrency ?? 5}`],
			{ env: await instance.env(), logFile: join(this.folder, `worker${index}.log`) },
		);
		this.services.push(service);
		this.workers[index - 1] = { instance, service };
		await service.waitForLog(/n8n worker is now ready/);
	}

	private async startWebhook(): Promise<void> {
		const instance = await this.instance('webhook');
		const port = await freePort();
		const service = Service.spawn('webhook', WITH_NODE24, [instance.bin, 'webhook'], {
			env: await instance.env({
				N8N_PORT: String(port),
				N8N_LISTEN_ADDRESS: '127.0.0.1',
				N8N_HOST: '127.0.0.1',
			}),
			logFile: join(this.folder, 'webhook.log'),
		});
		this.services.push(service);
		this.webhook = { instance, service, port };
		await service.waitForLog(/Webhook listener waiting for requests/);
	}

	/** Which worker (1-based) logged that it finished execution `id`; undefined when none did. */
	workerOf(executionId: string): number | undefined {
		const finished = new RegExp(`Worker finished execution ${executionId} \\(`);
		const index = this.workers.findIndex(({ service }) => finished.test(service.log()));
		return index < 0 ? undefined : index + 1;
	}

	/** Postgres refuses to run as root: as root, the cluster belongs to the `postgres` system user. */
	private async startPostgres(): Promise<number> {
		const data = join(this.folder, 'postgres');
		mkdirSync(data, { mode: 0o700 });
		const owner = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
		if (owner) chownSync(data, owner.uid, owner.gid);
		const initdb = spawnSync(
			join(PG_BIN, 'initdb'),
			['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync'],
			{ uid: owner?.uid, gid: owner?.gid, encoding: 'utf8', cwd: '/' },
		);
		if (initdb.status !== 0) throw new Error(`initdb failed:\n${initdb.stdout}\n${initdb.stderr}`);
		const port = await freePort();
		this.postgres = Service.spawn(
			'postgres',
			join(PG_BIN, 'postgres'),
			[
				'-D',
				data,
				'-p',
				String(port),
				'-h',
				'127.0.0.1',
				'-k',
				data,
				'-c',
				'fsync=off',
				'-c',
				'max_connections=200',
			],
			{
				env: { PATH: process.env.PATH, LANG: 'C.UTF-8' },
				logFile: join(this.folder, 'postgres.log'),
				uid: owner?.uid,
				gid: owner?.gid,
			},
		);
		this.services.push(this.postgres);
		await this.postgres.waitForLog(/database system is ready to accept connections/, 60_000);
		return port;
	}

	private async startRedis(): Promise<number> {
		const port = await freePort();
		const data = join(this.folder, 'redis');
		mkdirSync(data);
		this.redis = Service.spawn(
			'redis',
			'redis-server',
			[
				'--port',
				String(port),
				'--bind',
				'127.0.0.1',
				'--dir',
				data,
				'--save',
				'',
				'--appendonly',
				'no',
			],
			{ env: { PATH: process.env.PATH }, logFile: join(this.folder, 'redis.log') },
		);
		this.services.push(this.redis);
		await this.redis.waitForLog(/Ready to accept connections/, 30_000);
		return port;
	}

	/** Stops n8n processes first (they flush to the database), then Redis and Postgres; removes the folder. */
	async stop(): Promise<void> {
		const errors: unknown[] = [];
		const attempt = async (step: () => Promise<void>) => {
			try {
				await step();
			} catch (error) {
				errors.push(error);
			}
		};
		const n8nServices = this.services.filter(
			(service) => service !== this.postgres && service !== this.redis,
		);
		await attempt(async () => await this.main?.stop());
		await Promise.all(
			n8nServices.map(async (service) => await attempt(async () => await service.stop())),
		);
		if (this.redis) await attempt(async () => await this.redis!.stop());
		if (this.postgres) await attempt(async () => await this.postgres!.stop('SIGINT'));
		if (!process.env.QUEUE_KEEP) rmSync(this.folder, { recursive: true, force: true });
		if (errors.length > 0) throw errors[0];
	}

	get folderPath(): string {
		return this.folder;
	}
}

export interface QueueExecution {
	id: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt: string;
	stoppedAt?: string;
	workflowId: string;
	data?: NonNullable<ExecuteResult['run']>['data'];
}

/** Starts a manual execution on the main (REST, as the editor's button does); a worker runs it. */
export async function startExecution(
	main: N8nInstance,
	workflow: { id: string; nodes: Array<{ name: string; type: string }> },
): Promise<string> {
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!trigger) throw new Error(`${workflow.id} has no manual trigger`);
	const answer = (await main.runManually(workflow.id, {
		triggerToStartFrom: { name: trigger.name },
	})) as { data: { executionId?: string; waitingForWebhook?: boolean } };
	if (!answer.data.executionId)
		throw new Error(`${workflow.id}: no execution started: ${JSON.stringify(answer)}`);
	return answer.data.executionId;
}

const DONE = new Set(['success', 'error', 'crashed', 'canceled']);

/** Waits until every execution has ended; returns them with their data, in the order of `ids`. */
export async function finished(
	main: N8nInstance,
	ids: string[],
	timeoutMs = 300_000,
): Promise<QueueExecution[]> {
	const deadline = Date.now() + timeoutMs;
	const done = new Map<string, QueueExecution>();
	while (done.size < ids.length) {
		for (const id of ids.filter((candidate) => !done.has(candidate))) {
			const execution = (await main.api('GET', `/executions/${id}`)) as QueueExecution;
			if (DONE.has(execution.status))
				done.set(
					id,
					(await main.api('GET', `/executions/${id}?includeData=true`)) as QueueExecution,
				);
		}
		if (done.size === ids.length) break;
		if (Date.now() > deadline)
			throw new Error(
				`Executions not finished after ${timeoutMs} ms: ${ids.filter((id) => !done.has(id))}`,
			);
		await new Promise((resolveWait) => setTimeout(resolveWait, 500));
	}
	return ids.map((id) => done.get(id)!);
}

/**
 * Every process started here, appended to $QUEUE_PIDS_FILE (when set) as `<pid> <name>`: the jest global teardown
 * kills those still alive, by id, when a test file could not stop them (a crash or a timeout).
 */
function recordPid(pid: number | undefined, name: string) {
	const file = process.env.QUEUE_PIDS_FILE;
	if (file && pid) writeFileSync(file, `${pid} ${name}\n`, { flag: 'a' });
}

/** Kills (SIGKILL, by process group) each process in $QUEUE_PIDS_FILE that is still running; returns their names. */
export function killRecordedProcesses(file: string): string[] {
	const killed: string[] = [];
	let lines: string[] = [];
	try {
		lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
	} catch {
		return killed;
	}
	for (const line of lines) {
		const [pid, ...name] = line.split(' ');
		try {
			process.kill(-Number(pid), 'SIGKILL');
			killed.push(`${name.join(' ')} (${pid})`);
		} catch {
			// already stopped
		}
	}
	return killed;
}

function systemUser(name: string): { uid: number; gid: number } {
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith(`${name}:`));
	if (!line) throw new Error(`System user ${name} not found (the postgresql package creates it)`);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}
