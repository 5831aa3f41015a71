/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';

import { parseArguments, UsageError } from '../../sandbox/cli';
import { DEFAULT_MAX_BODY_BYTES, startSandbox, type Sandbox } from '../../sandbox/core/server';

/**
 * The sandbox as a tool users run (`npm run sandbox`): usage, strict flags, a loud warning and a loopback-only
 * control API when it listens beyond loopback, a request body limit enforced while reading, a clock that refuses
 * to go back with a 400. The CLI runs as its own process, as users start it.
 */
const ROOT = join(__dirname, '..', '..');

interface CliRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

function startCli(args: string[]): { child: ChildProcess; output: () => CliRun } {
	const child = spawn(
		process.execPath,
		[
			'--no-experimental-strip-types',
			'-r',
			join(__dirname, 'run-ts.cjs'),
			join(ROOT, 'sandbox/cli.ts'),
			...args,
		],
		{ cwd: ROOT, env: { ...process.env, SANDBOX_PORT: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	const run: CliRun = { code: null, stdout: '', stderr: '' };
	child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
	child.on('exit', (code) => (run.code = code));
	return { child, output: () => run };
}

async function runCli(args: string[]): Promise<CliRun> {
	const { child, output } = startCli(args);
	const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
	await new Promise((resolve) => child.on('close', resolve));
	clearTimeout(timer);
	return output();
}

describe('command line', () => {
	test.each([['--help'], ['-h']])('%s prints the usage and starts nothing', async (flag) => {
		const run = await runCli([flag, '--port', '1']);
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/^Usage: npm run sandbox -- \[options\]/);
		for (const option of [
			'--port',
			'--host',
			'--allow-remote-control',
			'--rate-limit',
			'--email-off',
			'--max-body-mb',
			'--client-id',
			'--client-secret',
			'--api-key',
			'-h, --help',
		])
			expect(run.stdout).toContain(option);
		expect(run.stdout).not.toContain('listening');
	});

	const refusals: Array<[string[], string]> = [
		[['--rate-limit', 'abc'], '--rate-limit: "abc" is not a whole number from 0 to 1000000'],
		[['--port'], '--port needs a value'],
		[['--port', '--email-off'], '--port needs a value'],
		[['--port', 'abc'], '--port: "abc" is not a whole number from 0 to 65535'],
		[['--port', '70000'], '--port: "70000" is not a whole number from 0 to 65535'],
		[['--port=-1'], '--port: "-1" is not a whole number from 0 to 65535'],
		[['--verbose'], 'Unknown flag --verbose'],
		[['--ratelimit', '5'], 'Unknown flag --ratelimit'],
		[['8787'], 'Unknown argument 8787'],
		[['--email-off=yes'], '--email-off takes no value'],
		[['--max-body-mb', '0'], '--max-body-mb: "0" is not a whole number from 1 to 1024'],
		[['--port', '1', '--port', '2'], '--port is given twice'],
	];

	test.each(refusals)('%j is refused, naming the flag', (args, message) => {
		expect(() => parseArguments(args)).toThrow(new UsageError(message));
	});

	// The same refusals as a user meets them: exit code 2, the message on stderr, nothing started.
	test.each([refusals[0], refusals[1], refusals[6]])(
		'process: %j exits 2 before anything starts',
		async (args, message) => {
			const run = await runCli(args);
			expect(run.code).toBe(2);
			expect(run.stderr).toBe(`${message}\nRun with --help for the options.\n`);
			expect(run.stdout).toBe('');
		},
	);

	test('a bad SANDBOX_PORT is named too', () => {
		expect(() => parseArguments([], { SANDBOX_PORT: 'eighty' })).toThrow(
			'SANDBOX_PORT: "eighty" is not a whole number from 0 to 65535',
		);
	});

	test('flags are read as given (both --flag value and --flag=value)', () => {
		expect(
			parseArguments(['--port=0', '--rate-limit', '0', '--email-off', '--max-body-mb', '2']),
		).toMatchObject({
			help: false,
			warnings: [],
			options: {
				port: 0,
				host: '127.0.0.1',
				allowRemoteControl: false,
				maxBodyBytes: 2 * 1024 * 1024,
				settings: { rateLimitPerSecond: 0, emailActivated: false },
			},
		});
	});
});

/** This machine's first non-loopback IPv4 address, to reach a sandbox from "another machine". */
const outsideAddress = Object.values(networkInterfaces())
	.flat()
	.find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
const withOutsideAddress = outsideAddress ? test : test.skip;

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(url);
	return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function startedCli(args: string[]) {
	const cli = startCli(args);
	const deadline = Date.now() + 20_000;
	while (!/listening on (\S+)/.test(cli.output().stdout)) {
		if (cli.output().code !== null || Date.now() > deadline)
			throw new Error(`sandbox did not start: ${JSON.stringify(cli.output())}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(cli.output().stdout)![1]);
	return { ...cli, port };
}

describe('listening beyond loopback', () => {
	withOutsideAddress(
		'--host 0.0.0.0: a loud warning; control API refused to other machines, service API served',
		async () => {
			const cli = await startedCli(['--host', '0.0.0.0', '--port', '0']);
			try {
				expect(cli.output().stderr).toContain(
					'WARNING: --host 0.0.0.0 makes the sandbox reachable from other machines.',
				);
				expect(cli.output().stderr).toContain(
					'Its control API (/__sandbox) still answers loopback clients only.',
				);
				const local = await getJson(`http://127.0.0.1:${cli.port}/__sandbox/info`);
				expect(local.status).toBe(200);
				const remote = await getJson(`http://${outsideAddress}:${cli.port}/__sandbox/info`);
				expect(remote).toEqual({
					status: 403,
					body: {
						message:
							'The sandbox control API answers loopback clients only (start it with --allow-remote-control to change that)',
						error_code: 403,
					},
				});
				expect(JSON.stringify(remote.body)).not.toContain(String(local.body.clientSecret));
				// The service API itself answers (with its own 401 here: no token).
				const service = await getJson(`http://${outsideAddress}:${cli.port}/sms/senders`);
				expect(service.status).toBe(401);
			} finally {
				cli.child.kill('SIGTERM');
			}
		},
		30_000,
	);

	withOutsideAddress(
		'--allow-remote-control opens the control API to other machines',
		async () => {
			const cli = await startedCli(['--host', '0.0.0.0', '--port', '0', '--allow-remote-control']);
			try {
				expect(cli.output().stderr).toContain(
					'With --allow-remote-control, anyone who can reach it',
				);
				const remote = await getJson(`http://${outsideAddress}:${cli.port}/__sandbox/clock`);
				expect(remote.status).toBe(200);
			} finally {
				cli.child.kill('SIGTERM');
			}
		},
		30_000,
	);
});

describe('request bodies and the clock', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ maxBodyBytes: 1024 });
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => sandbox.log.clear());

	/** Sends headers and `bytes` of body without ending the request; resolves with the answer if one comes. */
	async function partialPost(
		path: string,
		headers: Record<string, string | number>,
		bytes: number,
	): Promise<{ status?: number; body: string }> {
		const { port } = new URL(sandbox.url);
		return await new Promise((resolve, reject) => {
			const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
				let body = '';
				res.on('data', (chunk: Buffer) => (body += chunk.toString()));
				res.on('end', () => resolve({ status: res.statusCode, body }));
			});
			req.on('error', reject);
			const timer = setTimeout(() => {
				req.destroy();
				resolve({ status: undefined, body: 'no answer before the body ended' });
			}, 3000);
			req.on('close', () => clearTimeout(timer));
			if (bytes > 0) req.write('x'.repeat(bytes));
			req.flushHeaders();
		});
	}

	test('the documented limit is 40 MiB', () => {
		expect(DEFAULT_MAX_BODY_BYTES).toBe(40 * 1024 * 1024);
	});

	test('a body announced larger than the limit is answered 413 before it is sent', async () => {
		const answer = await partialPost(
			'/smtp/emails',
			{ 'Content-Type': 'application/json', 'Content-Length': 50 * 1024 * 1024 },
			0,
		);
		expect(answer.status).toBe(413);
		expect(JSON.parse(answer.body)).toEqual({
			message: 'Request body larger than 1024 bytes',
			error_code: 413,
		});
		expect(sandbox.log.all().map((entry) => [entry.method, entry.path, entry.status])).toEqual([
			['POST', '/smtp/emails', 413],
		]);
	});

	test('a chunked body is cut off with 413 while reading, once it passes the limit', async () => {
		const answer = await partialPost(
			'/smtp/emails',
			{ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
			2048,
		);
		expect(answer.status).toBe(413);
	});

	test('a body within the limit is read as before', async () => {
		const response = await fetch(`${sandbox.url}/oauth/access_token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				grant_type: 'client_credentials',
				client_id: 'x',
				client_secret: 'y',
			}),
		});
		expect(response.status).toBe(401);
	});

	test('a negative clock advance answers 400 with a message and leaves the clock alone', async () => {
		const before = sandbox.clock.nowMs();
		const response = await fetch(`${sandbox.url}/__sandbox/clock/advance`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ hours: 1, minutes: -120 }),
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({
			message:
				'The sandbox clock only moves forward: hours, minutes and seconds must add up to zero or more',
			error_code: 400,
		});
		expect(sandbox.clock.nowMs() - before).toBeLessThan(1000);
	});
});
