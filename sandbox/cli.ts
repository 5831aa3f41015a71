/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * `npm run sandbox [-- --port 8787 --rate-limit 10 --email-off]`: the simulated service, printing its URL and
 * ready-to-use credentials. Ctrl-C stops it. `--help` lists the flags; a bad value or an unknown flag is refused
 * with the flag's name, before anything starts.
 */
import { DEFAULT_MAX_BODY_BYTES, isLoopback, type SandboxOptions } from './core/server';
import { startSandbox } from './index';

export const USAGE = `Usage: npm run sandbox -- [options]

Starts the messaging service sandbox and prints its URL, a client id/secret and an API key.

Options:
  --port <0-65535>          Port to listen on (default 8787, or $SANDBOX_PORT; 0 = any free port)
  --host <address>          Address to listen on (default 127.0.0.1). Anything but loopback makes the
                            sandbox reachable from other machines: it warns, and its control API
                            (/__sandbox, which hands out the secret and API key) still answers loopback
                            clients only unless --allow-remote-control is given
  --allow-remote-control    Let non-loopback clients use the control API too
  --rate-limit <n>          Requests per second before the rate-limit answer (default 10; 0 = off)
  --email-off               Start with the account's email area not activated
  --max-body-mb <n>         Largest request body read, in MiB (default ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024}); larger ones get 413
  --client-id <id>          Fixed client id (default random, or $SANDBOX_CLIENT_ID)
  --client-secret <secret>  Fixed client secret (default random, or $SANDBOX_CLIENT_SECRET)
  --api-key <key>           Fixed API key (default random, or $SANDBOX_API_KEY)
  -h, --help                Print this and exit
`;

/** A command-line mistake: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}

type Parsed = { help: true } | { help: false; options: SandboxOptions; warnings: string[] };

const VALUE_FLAGS = [
	'port',
	'host',
	'rate-limit',
	'max-body-mb',
	'client-id',
	'client-secret',
	'api-key',
] as const;
const SWITCHES = ['email-off', 'allow-remote-control'] as const;

function wholeNumber(source: string, raw: string, min: number, max: number): number {
	const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
	if (!(value >= min && value <= max))
		throw new UsageError(`${source}: "${raw}" is not a whole number from ${min} to ${max}`);
	return value;
}

/** Reads the flags (and the SANDBOX_* variables) strictly; throws UsageError naming the flag at fault. */
export function parseArguments(argv: string[], env: NodeJS.ProcessEnv = {}): Parsed {
	const values: Partial<Record<(typeof VALUE_FLAGS)[number], string>> = {};
	const switches = new Set<string>();
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index];
		if (argument === '--help' || argument === '-h') return { help: true };
		const [flag, inline] = argument.startsWith('--')
			? (argument.slice(2).split(/=(.*)/s) as [string, string | undefined])
			: [undefined, undefined];
		if (flag && (SWITCHES as readonly string[]).includes(flag)) {
			if (inline !== undefined) throw new UsageError(`--${flag} takes no value`);
			switches.add(flag);
		} else if (flag && (VALUE_FLAGS as readonly string[]).includes(flag)) {
			const value = inline ?? argv[index + 1];
			if (value === undefined || value === '' || (inline === undefined && value.startsWith('-')))
				throw new UsageError(`--${flag} needs a value`);
			if (inline === undefined) index++;
			if (values[flag as (typeof VALUE_FLAGS)[number]] !== undefined)
				throw new UsageError(`--${flag} is given twice`);
			values[flag as (typeof VALUE_FLAGS)[number]] = value;
		} else {
			throw new UsageError(`Unknown ${argument.startsWith('-') ? 'flag' : 'argument'} ${argument}`);
		}
	}

	const port =
		values.port !== undefined
			? wholeNumber('--port', values.port, 0, 65535)
			: env.SANDBOX_PORT
				? wholeNumber('SANDBOX_PORT', env.SANDBOX_PORT, 0, 65535)
				: 8787;
	const host = values.host ?? '127.0.0.1';
	const warnings: string[] = [];
	const loopbackHost = host === 'localhost' || isLoopback(host);
	if (!loopbackHost) {
		warnings.push(
			`WARNING: --host ${host} makes the sandbox reachable from other machines. Its service API accepts the ` +
				'printed credentials. ' +
				(switches.has('allow-remote-control')
					? 'With --allow-remote-control, anyone who can reach it can also read the secret and API key and change its state through /__sandbox.'
					: 'Its control API (/__sandbox) still answers loopback clients only.'),
		);
	}
	const maxBodyMb =
		values['max-body-mb'] !== undefined
			? wholeNumber('--max-body-mb', values['max-body-mb'], 1, 1024)
			: undefined;
	return {
		help: false,
		warnings,
		options: {
			port,
			host,
			allowRemoteControl: switches.has('allow-remote-control'),
			maxBodyBytes: maxBodyMb === undefined ? undefined : maxBodyMb * 1024 * 1024,
			settings: {
				rateLimitPerSecond:
					values['rate-limit'] !== undefined
						? wholeNumber('--rate-limit', values['rate-limit'], 0, 1_000_000)
						: 10,
				emailActivated: !switches.has('email-off'),
			},
			credentials: {
				clientId: values['client-id'] ?? env.SANDBOX_CLIENT_ID,
				clientSecret: values['client-secret'] ?? env.SANDBOX_CLIENT_SECRET,
				apiKey: values['api-key'] ?? env.SANDBOX_API_KEY,
			},
		},
	};
}

async function main() {
	let parsed: Parsed;
	try {
		parsed = parseArguments(process.argv.slice(2), process.env);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		process.stderr.write(`${error.message}\nRun with --help for the options.\n`);
		process.exit(2);
	}
	if (parsed.help) {
		process.stdout.write(USAGE);
		return;
	}
	for (const warning of parsed.warnings) process.stderr.write(`\n${warning}\n\n`);
	const sandbox = await startSandbox(parsed.options);
	const info = {
		url: sandbox.url,
		clientId: sandbox.account.clientId,
		clientSecret: sandbox.account.clientSecret,
		apiKey: sandbox.account.apiKey,
		control: `${sandbox.url}/__sandbox/info`,
	};
	process.stdout.write(
		`Messaging sandbox listening on ${sandbox.url}\n${JSON.stringify(info, null, 2)}\n`,
	);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: Error) => {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	});
}
