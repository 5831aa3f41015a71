/**
 * `npm run sandbox [-- --port 8787 --rate-limit 10 --email-off]`: the simulated service on 127.0.0.1,
 * printing its URL and ready-to-use credentials. Ctrl-C stops it.
 */
import { startSandbox } from './index';

function option(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main() {
	const sandbox = await startSandbox({
		port: Number(option('port') ?? process.env.SANDBOX_PORT ?? 8787),
		host: option('host') ?? '127.0.0.1',
		settings: {
			rateLimitPerSecond: Number(option('rate-limit') ?? 10),
			emailActivated: !process.argv.includes('--email-off'),
		},
		credentials: {
			clientId: option('client-id') ?? process.env.SANDBOX_CLIENT_ID,
			clientSecret: option('client-secret') ?? process.env.SANDBOX_CLIENT_SECRET,
			apiKey: option('api-key') ?? process.env.SANDBOX_API_KEY,
		},
	});
	const info = {
		url: sandbox.url,
		clientId: sandbox.account.clientId,
		clientSecret: sandbox.account.clientSecret,
		apiKey: sandbox.account.apiKey,
		control: `${sandbox.url}/__sandbox/info`,
	};
	process.stdout.write(`Messaging sandbox listening on ${sandbox.url}\n${JSON.stringify(info, null, 2)}\n`);
	const stop = () => void sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error: Error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
