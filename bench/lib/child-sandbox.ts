/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * The sandbox in a child process, for the scenarios that measure the bench process's own CPU and memory (7, 13, 14,
 * 15): the sandbox's answers (building a campaign's details, paging a list of 100,000) then cost the child, not
 * the figures. Its state, clock and request log are reached over HTTP (the control API, /__sandbox).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { freePort, ROOT } from '../../scripts/n8n/instance';

/** Fixed credentials of the child's account (a sandbox is a stand-in: none of these is a secret). */
const ACCOUNT = {
	clientId: 'bench-child-client',
	clientSecret: 'bench-child-secret-0123456789',
	apiKey: 'sp_apikey_benchchild0123456789abcdef',
};

export interface ChildSandbox {
	url: string;
	/** The account's credentials (the shape test/harness/credentials.ts's sandboxCredentials reads). */
	account: typeof ACCOUNT;
	/**
	 * One request; a control path (`/__sandbox/…`) goes without auth, a service path with the API key. Answers the
	 * body as text; a non-2xx answer throws. Safe-to-repeat calls only: a dropped kept-alive connection is retried once.
	 */
	call: (method: string, path: string, body?: unknown) => Promise<string>;
	/** The service requests (the token exchange left out) the child logged after log sequence `since`, and the last sequence. */
	requestsSince: (since: number) => Promise<{ count: number; last: number }>;
	/** Moves the child's clock forward to `ms` (it never goes back). */
	setClock: (ms: number) => Promise<void>;
	stop: () => Promise<void>;
}

/** Starts `build/sandbox/cli.js` on a free port (`rateLimit` 0: off) and waits until it listens. */
export async function startChildSandbox(
	options: { rateLimit?: number } = {},
): Promise<ChildSandbox> {
	const port = await freePort();
	const child = spawn(
		process.execPath,
		[
			join(ROOT, 'build/sandbox/cli.js'),
			'--port',
			String(port),
			'--rate-limit',
			String(options.rateLimit ?? 0),
			'--client-id',
			ACCOUNT.clientId,
			'--client-secret',
			ACCOUNT.clientSecret,
			'--api-key',
			ACCOUNT.apiKey,
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`sandbox child did not start: ${output}`)),
			20_000,
		);
		child.stdout!.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes('listening')) {
				clearTimeout(timer);
				resolve();
			}
		});
		child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('exit', (code) => reject(new Error(`sandbox child exited (${code}): ${output}`)));
	});
	const url = `http://127.0.0.1:${port}`;
	const call = async (method: string, path: string, body?: unknown) => {
		const control = path.startsWith('/__sandbox');
		const send = () =>
			fetch(`${url}${path}`, {
				method,
				headers: {
					'Content-Type': 'application/json',
					...(control ? {} : { Authorization: `Bearer ${ACCOUNT.apiKey}` }),
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		const response = await send().catch(() => send());
		const text = await response.text();
		if (!response.ok)
			throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
		return text;
	};
	return {
		url,
		account: ACCOUNT,
		call,
		requestsSince: async (since) => {
			const entries = JSON.parse(await call('GET', `/__sandbox/requests?since=${since}`)) as Array<{
				seq: number;
				path: string;
			}>;
			return {
				count: entries.filter((entry) => entry.path !== '/oauth/access_token').length,
				last: entries.length ? entries[entries.length - 1].seq : since,
			};
		},
		setClock: async (ms) => {
			await call('POST', '/__sandbox/clock/set', { to: new Date(ms).toISOString() });
		},
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			process.kill(child.pid!, 'SIGTERM');
			await exited;
		},
	};
}
