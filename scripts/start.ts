/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * The demo behind `npm start`: the API sandbox on 127.0.0.1:8787 (or the live service when MESSAGING_BASE_URL and
 * credentials are set), a real n8n on http://localhost:5678 with the package installed as users install it, an
 * owner account, the credential and every example workflow imported. Ctrl-C stops all of it.
 * `npm start -- --queue`: the same in queue mode (main + 2 workers + webhook processor; scripts/queue/demo.ts).
 */
import { join } from 'node:path';

import { N8nInstance, packPackage, ROOT } from './n8n/instance';
import { demoExamples, registerEmailEventsHandler } from './demo-examples';
import { seedDemo } from './demo-seed';
import { startQueueDemo } from './queue/demo';
import { startSandbox, type Sandbox } from '../sandbox';

const N8N_PORT = Number(process.env.N8N_DEMO_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const OWNER = { email: 'demo@sandbox.test', password: 'Messaging-demo-1' };
const CREDENTIAL_ID = 'messagingSandbox1';

function say(line: string) {
	process.stdout.write(`${line}\n`);
}

/** Live service when configured in the environment, else the sandbox. */
async function credentialData(): Promise<{
	data: Record<string, string>;
	sandbox?: Sandbox;
	target: string;
}> {
	const live = process.env.MESSAGING_BASE_URL;
	if (live) {
		const apiKey = process.env.MESSAGING_API_KEY;
		const clientId = process.env.MESSAGING_CLIENT_ID;
		const clientSecret = process.env.MESSAGING_CLIENT_SECRET;
		if (!apiKey && !(clientId && clientSecret)) {
			throw new Error(
				'MESSAGING_BASE_URL is set: also set MESSAGING_API_KEY, or MESSAGING_CLIENT_ID and MESSAGING_CLIENT_SECRET',
			);
		}
		// The account's time zone (SendPulse: Account Settings → Time zone), for Send At and event times.
		const timeZone = process.env.MESSAGING_TIME_ZONE ?? 'UTC';
		const data: Record<string, string> = apiKey
			? { baseUrl: live, authType: 'apiKey', apiKey, timeZone, accessToken: '' }
			: {
					baseUrl: live,
					authType: 'clientCredentials',
					clientId: clientId!,
					clientSecret: clientSecret!,
					timeZone,
					accessToken: '',
				};
		return { data, target: `the live service at ${live}` };
	}
	const sandbox = await startSandbox({ port: SANDBOX_PORT });
	await seedDemo(sandbox);
	// The API key, as the credential now leads with (the sandbox's account is in UTC, its clock's zone).
	const data = {
		baseUrl: sandbox.url,
		authType: 'apiKey',
		apiKey: sandbox.account.apiKey,
		timeZone: 'UTC',
		accessToken: '',
	};
	return {
		data,
		sandbox,
		target: `the sandbox at ${sandbox.url} (control API: ${sandbox.url}/__sandbox/info)`,
	};
}

async function main() {
	const { data, sandbox, target } = await credentialData();
	const workflows = demoExamples(join(ROOT, 'examples'), sandbox?.url);
	const outbox = sandbox
		? `${sandbox.url}/__sandbox/outbox.html (emails and SMS sent; buttons to bounce, open, click, mark delivered…)`
		: undefined;
	say('Packing the package and provisioning n8n (the first run installs n8n: about 6 minutes)…');
	if (process.argv.includes('--queue')) {
		await startQueueDemo({
			tarball: await packPackage(),
			port: N8N_PORT,
			owner: OWNER,
			credential: { id: CREDENTIAL_ID, name: 'Messaging Sandbox', data },
			workflows,
			say,
			onStopped: async () => await sandbox?.close(),
		}).then(async (stack) => {
			// The webhook processor serves production webhooks in queue mode.
			if (sandbox && stack.webhook)
				await registerEmailEventsHandler(
					sandbox.url,
					workflows,
					`http://127.0.0.1:${stack.webhook.port}/webhook`,
				);
		});
		say(`  talks to:  ${target}`);
		if (outbox) say(`  outbox:    ${outbox}`);
		say('Press Ctrl-C to stop everything.');
		return;
	}
	const n8n = await N8nInstance.create({ tarball: await packPackage() });
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		say('\nStopping n8n and the sandbox…');
		await n8n.dispose();
		await sandbox?.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());

	await n8n.importCredentials([
		{ id: CREDENTIAL_ID, name: 'Messaging Sandbox', type: 'messagingServiceApi', data },
	]);
	await n8n.importWorkflows(workflows);
	// The email-events example's trigger is the sandbox's webhook handler, as if pasted in the service's settings.
	if (sandbox)
		await registerEmailEventsHandler(
			sandbox.url,
			workflows,
			`http://127.0.0.1:${N8N_PORT}/webhook`,
		);
	await n8n.start({
		port: N8N_PORT,
		owner: OWNER,
		env: { N8N_LISTEN_ADDRESS: '0.0.0.0', N8N_HOST: 'localhost' },
	});
	say('');
	say(`n8n is ready: http://localhost:${N8N_PORT}`);
	say(`  login:     ${OWNER.email} / ${OWNER.password}`);
	say(
		`  loaded:    the Messaging nodes, credential "Messaging Sandbox", ${workflows.length} example workflows`,
	);
	say(`  talks to:  ${target}`);
	if (outbox) say(`  outbox:    ${outbox}`);
	say('Press Ctrl-C to stop everything.');
}

main().catch((error: Error) => {
	process.stderr.write(`npm start failed: ${error.message}\n`);
	process.exit(1);
});
