/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * Drives a real, pinned n8n for the end-to-end suite, `npm start` and the benchmarks: provisions it
 * (scripts/n8n/provision.sh, cached outside git), installs the packed package the way users do
 * (<user folder>/.n8n/nodes/node_modules/n8n-nodes-messaging), runs CLI commands and `n8n start` in an isolated
 * user folder with free ports, and stops every process it started by its id. Facts behind each step:
 * scripts/n8n/README.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The repository root, whether this runs from test/ (ts-jest) or from build/test/ (compiled). */
export const ROOT = (() => {
	for (let dir = __dirname; dir !== '/'; dir = dirname(dir)) {
		if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scripts', 'with-node24.sh')))
			return dir;
	}
	throw new Error('Repository root not found');
})();
const WITH_NODE24 = join(ROOT, 'scripts/with-node24.sh');
/**
 * The n8n the suites run: 2.40.7, or the version in $N8N_VERSION (as for provision.sh), e.g. `N8N_VERSION=1.123.81
 * npm run e2e` runs the whole end-to-end suite on n8n 1.x (`npm run e2e:n8n1`).
 */
export const DEFAULT_N8N_VERSION = process.env.N8N_VERSION || '2.40.7';
export const PACKAGE_NAME = 'n8n-nodes-messaging';

export interface CommandResult {
	exitCode: number;
	stdout: string;
	stderr: string;
	/** Peak resident memory of the process (kB, from /proc VmHWM) and its CPU seconds (user + system). */
	peakRssKb: number;
	cpuSeconds: number;
	wallMs: number;
}

/**
 * Runs a command to completion, sampling the process's peak memory and CPU time from /proc while it runs.
 * Output goes to files, not pipes: n8n exits right after printing a run, and through a pipe the end of a large
 * run (tens of MB for 100,000 items) is lost; file writes are synchronous.
 */
export async function runCommand(
	command: string,
	args: string[],
	options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
	const started = Date.now();
	const folder = mkdtempSync(join(tmpdir(), 'messaging-cmd-'));
	const outFd = openSync(join(folder, 'stdout'), 'w');
	const errFd = openSync(join(folder, 'stderr'), 'w');
	const child = spawn(command, args, {
		env: options.env ?? process.env,
		cwd: options.cwd ?? ROOT,
		stdio: ['ignore', outFd, errFd],
	});
	const usage = { peakRssKb: 0, cpuSeconds: 0 };
	const sampler = setInterval(() => sampleProcess(child.pid, usage), 50);
	const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
	const exitCode = await new Promise<number>((resolveExit) => {
		child.on('error', () => resolveExit(127));
		child.on('close', (code) => resolveExit(code ?? 1));
	});
	clearInterval(sampler);
	clearTimeout(timer);
	closeSync(outFd);
	closeSync(errFd);
	const stdout = readFileSync(join(folder, 'stdout'), 'utf8');
	const stderr = readFileSync(join(folder, 'stderr'), 'utf8');
	rmSync(folder, { recursive: true, force: true });
	return { exitCode, stdout, stderr, ...usage, wallMs: Date.now() - started };
}

const CLOCK_TICKS = 100;

function sampleProcess(pid: number | undefined, usage: { peakRssKb: number; cpuSeconds: number }) {
	if (!pid) return;
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
		usage.peakRssKb = Math.max(usage.peakRssKb, hwm);
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		// utime, stime, cutime, cstime (fields 14–17 of stat; 11–14 after the command name)
		const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
		usage.cpuSeconds = Math.max(usage.cpuSeconds, ticks / CLOCK_TICKS);
	} catch {
		// the process has exited between samples
	}
}

/** Ports freePort() gave out in this process. */
const portsGiven = new Set<number>();

/**
 * A port free now, never one this process was given before: the system may hand out a just-closed port again, and
 * two calls before n8n listens (its main port and its task broker's) once got the same port in CI.
 */
export async function freePort(): Promise<number> {
	for (;;) {
		const port = await new Promise<number>((resolvePort, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const { port: given } = server.address() as { port: number };
				server.close(() => resolvePort(given));
			});
		});
		if (!portsGiven.has(port)) {
			portsGiven.add(port);
			return port;
		}
	}
}

/** `npm run build` then `npm pack`: the tarball users install. */
export async function packPackage(): Promise<string> {
	const build = await runCommand(WITH_NODE24, ['npm', 'run', 'build', '--silent']);
	if (build.exitCode !== 0)
		throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
	const destination = mkdtempSync(join(tmpdir(), 'messaging-pack-'));
	const pack = await runCommand(WITH_NODE24, [
		'npm',
		'pack',
		'--silent',
		'--pack-destination',
		destination,
	]);
	if (pack.exitCode !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
	return join(destination, pack.stdout.trim().split('\n').pop()!);
}

/** Provisions (or reuses) a pinned n8n and returns its binary. */
export async function provisionN8n(version = DEFAULT_N8N_VERSION): Promise<string> {
	const result = await runCommand(join(ROOT, 'scripts/n8n/provision.sh'), [version], {
		timeoutMs: 30 * 60_000,
	});
	if (result.exitCode !== 0)
		throw new Error(`Provisioning n8n ${version} failed:\n${result.stderr.slice(-4000)}`);
	return result.stdout.trim().split('\n').pop()!;
}

export interface ExecuteResult extends CommandResult {
	status?: string;
	/** The run as `n8n execute --rawOutput` printed it. */
	run?: {
		status?: string;
		data: {
			resultData: {
				runData: Record<
					string,
					Array<{
						data?: { main: Array<Array<{ json: Record<string, unknown>; binary?: unknown }>> };
						error?: { message: string };
					}>
				>;
				error?: { message: string; description?: string };
			};
		};
	};
}

export interface StartOptions {
	port?: number;
	owner?: { email: string; password: string; firstName?: string; lastName?: string };
	env?: NodeJS.ProcessEnv;
}

/** What another process needs to use a running `n8n start` (`N8nInstance.attach`): the e2e suite's shared n8n. */
export interface RunningN8n {
	version: string;
	bin: string;
	userFolder: string;
	port: number;
	pid: number;
	apiKey: string;
	authCookie: string;
}

export class N8nInstance {
	private server?: ChildProcess;
	/** The `n8n start` this instance was attached to (started by another module or process), by its id. */
	private attachedPid?: number;
	port?: number;
	apiKey?: string;
	authCookie?: string;
	/** Added to the environment of every process of this instance (queue mode: database, Redis; scripts/n8n/queue.ts). */
	extraEnv: NodeJS.ProcessEnv = {};

	private constructor(
		readonly version: string,
		readonly bin: string,
		readonly userFolder: string,
		private readonly ownsUserFolder: boolean,
	) {}

	/** A fresh user folder with the package installed, or an existing one (`userFolder`) reused as it is. */
	static async create(options: {
		version?: string;
		tarball: string;
		userFolder?: string;
	}): Promise<N8nInstance> {
		const version = options.version ?? DEFAULT_N8N_VERSION;
		const bin = await provisionN8n(version);
		const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), `n8n-${version}-`));
		const target = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		rmSync(target, { recursive: true, force: true });
		mkdirSync(target, { recursive: true });
		const untar = await runCommand('tar', [
			'-xzf',
			options.tarball,
			'-C',
			target,
			'--strip-components=1',
		]);
		if (untar.exitCode !== 0)
			throw new Error(`Could not unpack ${options.tarball}: ${untar.stderr}`);
		return new N8nInstance(version, bin, userFolder, !options.userFolder);
	}

	/**
	 * An instance for an `n8n start` that is already running (`running()` of the instance that started it): CLI calls,
	 * REST and the public API work as on the original; `stop()` stops it by its process id.
	 */
	static attach(running: RunningN8n): N8nInstance {
		const instance = new N8nInstance(running.version, running.bin, running.userFolder, false);
		instance.port = running.port;
		instance.apiKey = running.apiKey;
		instance.authCookie = running.authCookie;
		instance.attachedPid = running.pid;
		return instance;
	}

	/** This instance's running server, for `attach` elsewhere. */
	running(): RunningN8n {
		if (!this.pid || !this.port || !this.apiKey || !this.authCookie)
			throw new Error('n8n is not running: start() it first');
		return {
			version: this.version,
			bin: this.bin,
			userFolder: this.userFolder,
			port: this.port,
			pid: this.pid,
			apiKey: this.apiKey,
			authCookie: this.authCookie,
		};
	}

	get major(): number {
		return Number(this.version.split('.')[0]);
	}

	get pid(): number | undefined {
		return this.server?.pid ?? this.attachedPid;
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	/** The isolated environment every n8n process of this instance runs with. */
	async env(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
		return {
			PATH: process.env.PATH,
			HOME: process.env.HOME,
			MESSAGING_TOOLS_DIR: process.env.MESSAGING_TOOLS_DIR,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: 'messaging-e2e-encryption-key',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			// The isolate (vm) expression engine, n8n's default on 2.x and on 1.123.x since August 2026, named here so a
			// change of n8n's default cannot move the suites to another engine unnoticed; $N8N_EXPRESSION_ENGINE
			// chooses another (`legacy`: the examples that use $('…') on n8n 1.x, RELEASING.md "n8n versions").
			N8N_EXPRESSION_ENGINE: process.env.N8N_EXPRESSION_ENGINE || 'vm',
			// Every n8n process opens a task broker; concurrent processes need their own port.
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			...this.extraEnv,
			...extra,
		};
	}

	async cli(
		args: string[],
		options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
	): Promise<CommandResult> {
		return await runCommand(WITH_NODE24, [this.bin, ...args], {
			env: await this.env(options.env),
			timeoutMs: options.timeoutMs,
		});
	}

	private async cliOrThrow(args: string[]): Promise<CommandResult> {
		const result = await this.cli(args);
		if (result.exitCode !== 0)
			throw new Error(
				`n8n ${args.join(' ')} failed (${result.exitCode}):\n${(result.stdout + result.stderr).slice(-4000)}`,
			);
		return result;
	}

	async importCredentials(
		credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>,
	) {
		const file = join(this.userFolder, `credentials-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(credentials));
		await this.cliOrThrow(['import:credentials', `--input=${file}`]);
		rmSync(file);
	}

	async importWorkflows(workflows: object[]) {
		const file = join(this.userFolder, `workflows-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(workflows));
		await this.cliOrThrow(['import:workflow', `--input=${file}`]);
		rmSync(file);
	}

	/** `n8n execute --id --rawOutput`; the run JSON is the block from a line `{` to a line `}`. */
	async execute(
		workflowId: string,
		options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
	): Promise<ExecuteResult> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], options);
		const lines = result.stdout.split('\n');
		const first = lines.indexOf('{');
		const last = lines.lastIndexOf('}');
		if (first < 0 || last < first) return result;
		const run = JSON.parse(lines.slice(first, last + 1).join('\n')) as ExecuteResult['run'];
		return { ...result, run, status: run?.status };
	}

	/** Marks a workflow active for the next `start()` (n8n must be stopped). */
	async activate(workflowId: string) {
		await this.cliOrThrow(
			this.major >= 2
				? ['publish:workflow', `--id=${workflowId}`]
				: ['update:workflow', `--id=${workflowId}`, '--active=true'],
		);
	}

	/**
	 * Publishes a workflow in the running n8n (the public API's activate: its triggers start at once, a polling trigger
	 * polls right away), as the editor's Publish does; `activate()` is the same for a stopped n8n.
	 */
	async activateNow(workflowId: string) {
		await this.api('POST', `/workflows/${workflowId}/activate`);
	}

	/** `n8n start` in the background; resolves once REST answers, the owner exists and an API key is made. */
	async start(options: StartOptions = {}): Promise<void> {
		this.port = options.port ?? (await freePort());
		const env = await this.env({
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_SECURE_COOKIE: 'false',
			...options.env,
		});
		// A server still running (a test that failed before its own stop()) is stopped first: replacing it here
		// would leave it running with nobody holding its process id.
		await this.stop();
		const log = join(this.userFolder, 'n8n-start.log');
		writeFileSync(log, '');
		this.server = spawn(WITH_NODE24, [this.bin, 'start'], {
			env,
			cwd: ROOT,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const append = (chunk: Buffer) => {
			try {
				writeFileSync(log, chunk, { flag: 'a' });
			} catch (error) {
				// Output of a process still exiting after dispose() removed its folder: nothing left to log to.
				if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
			}
		};
		this.server.stdout!.on('data', append);
		this.server.stderr!.on('data', append);
		await this.waitForRest(log);
		const owner = options.owner ?? { email: 'owner@sandbox.test', password: 'Sandbox-n8n-1' };
		await this.rest(
			'POST',
			'/rest/owner/setup',
			{ firstName: 'Sandbox', lastName: 'Owner', ...owner },
			{ allowFailure: true },
		);
		const login = await fetch(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
		});
		if (!login.ok) throw new Error(`n8n login failed: ${login.status} ${await login.text()}`);
		this.authCookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
		const scopes = ((await this.rest('GET', '/rest/api-keys/scopes')) as { data: string[] }).data;
		const key = (await this.rest('POST', '/rest/api-keys', {
			label: `e2e-${Date.now()}`,
			scopes,
			expiresAt: null,
		})) as {
			data: { rawApiKey: string };
		};
		this.apiKey = key.data.rawApiKey;
	}

	private async waitForRest(log: string) {
		const deadline = Date.now() + 180_000;
		while (Date.now() < deadline) {
			if (this.server?.exitCode !== null)
				throw new Error(`n8n start exited early:\n${readFileSync(log, 'utf8').slice(-4000)}`);
			try {
				// /rest/settings answers early; other routes say "n8n is starting up" until the server is ready.
				const settings = await fetch(`${this.baseUrl}/rest/settings`);
				// Under load the login route can still be unregistered (404 "Cannot GET") after the settings answer.
				const login = await fetch(`${this.baseUrl}/rest/login`);
				const text = await login.text();
				if (settings.ok && login.status !== 404 && !text.includes('starting up')) return;
			} catch {
				// not listening yet
			}
			await new Promise((resolveWait) => setTimeout(resolveWait, 500));
		}
		throw new Error(
			`n8n did not answer on ${this.baseUrl} within 180 s:\n${readFileSync(log, 'utf8').slice(-4000)}`,
		);
	}

	/** n8n's internal REST API with the owner's session cookie. */
	async rest(
		method: string,
		path: string,
		body?: unknown,
		options: { allowFailure?: boolean } = {},
	): Promise<unknown> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: {
				'Content-Type': 'application/json',
				...(this.authCookie ? { Cookie: this.authCookie } : {}),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok && !options.allowFailure)
			throw new Error(`${method} ${path} → ${response.status}: ${text}`);
		try {
			return text ? JSON.parse(text) : undefined;
		} catch {
			return text;
		}
	}

	/**
	 * A manual run as the editor starts it (POST /rest/workflows/:id/run), e.g. `{ triggerToStartFrom: { name } }`.
	 * n8n 1.x also wants the workflow itself in the body (`workflowData`); 2.x reads it from the database.
	 */
	async runManually(workflowId: string, body: Record<string, unknown>): Promise<unknown> {
		const workflowData =
			this.major < 2
				? ((await this.rest('GET', `/rest/workflows/${workflowId}`)) as { data: unknown }).data
				: undefined;
		return await this.rest('POST', `/rest/workflows/${workflowId}/run`, {
			...body,
			...(workflowData ? { workflowData } : {}),
		});
	}

	/** n8n's public API (`/api/v1`) with the API key made at start. */
	async api(method: string, path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: { 'Content-Type': 'application/json', 'X-N8N-API-KEY': this.apiKey ?? '' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /api/v1${path} → ${response.status}: ${text}`);
		return text ? JSON.parse(text) : undefined;
	}

	/** Stops `n8n start` and its children (its whole process group), by id. */
	async stop(): Promise<void> {
		if (this.attachedPid) {
			await stopProcessGroup(this.attachedPid);
			this.attachedPid = undefined;
		}
		const server = this.server;
		if (!server?.pid || server.exitCode !== null) return;
		const exited = new Promise<void>((resolveExit) => server.once('exit', () => resolveExit()));
		process.kill(-server.pid, 'SIGTERM');
		const killer = setTimeout(() => {
			try {
				process.kill(-server.pid!, 'SIGKILL');
			} catch {
				// already gone
			}
		}, 15_000);
		await exited;
		clearTimeout(killer);
		this.server = undefined;
	}

	async dispose(): Promise<void> {
		await this.stop();
		if (this.ownsUserFolder) rmSync(this.userFolder, { recursive: true, force: true });
	}
}

/**
 * Stops a process group led by `pid` that this module did not spawn (SIGTERM, SIGKILL after 15 s) and resolves once
 * the leader is gone. Its parent reaps it (Node does for the children it spawned), so "gone" is a failed signal 0.
 */
export async function stopProcessGroup(pid: number): Promise<void> {
	const alive = () => {
		try {
			process.kill(pid, 0);
			return true;
		} catch {
			return false;
		}
	};
	if (!alive()) return;
	process.kill(-pid, 'SIGTERM');
	const killAt = Date.now() + 15_000;
	while (alive()) {
		if (Date.now() > killAt) {
			try {
				process.kill(-pid, 'SIGKILL');
			} catch {
				// gone meanwhile
			}
		}
		if (Date.now() > killAt + 15_000) throw new Error(`n8n (pid ${pid}) did not exit`);
		await new Promise((resolveWait) => setTimeout(resolveWait, 200));
	}
}
