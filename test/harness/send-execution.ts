/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * One node execution in a process of its own, as one n8n worker runs it: Messaging Email → Send (a stored template,
 * one request per item) over `count` generated rows, through n8n-core's WorkflowExecute and the real transport.
 * Started by test/harness/convergence.ts (`node -r test/foundation/run-ts.cjs test/harness/send-execution.ts`);
 * nothing is shared with the other executions but the service. It loads, prints `ready`, waits for a `go` line on
 * stdin (so every execution starts at once), runs, and prints one JSON line with what the node output.
 *
 * Arguments (JSON in argv[2]): baseUrl, clientId, clientSecret, tag (makes the recipients unique), count.
 */
import { createInterface } from 'node:readline';

import { CredentialStore } from './credentials';
import { disposeExpressionEngine, runNode, useExpressionEngine } from './run-node';

// Named with its extension: without it Node's resolver finds the node's codex file (MessagingEmail.node.json) first.
/* eslint-disable @typescript-eslint/no-require-imports */
const { MessagingEmail } =
	require('../../nodes/MessagingEmail/MessagingEmail.node.ts') as typeof import('../../nodes/MessagingEmail/MessagingEmail.node');
/* eslint-enable @typescript-eslint/no-require-imports */

export interface SendExecutionArguments {
	baseUrl: string;
	clientId: string;
	clientSecret: string;
	tag: string;
	count: number;
}

export interface SendExecutionResult {
	tag: string;
	/** Output items with `result: true`. */
	sent: number;
	/** Output items carrying an error (the node runs with Continue On Fail, so each failure is counted). */
	failed: number;
	/** The first few error messages, for the report. */
	errors: string[];
	startedAt: number;
	endedAt: number;
}

async function main() {
	const args = JSON.parse(process.argv[2]) as SendExecutionArguments;
	const credentials = new CredentialStore({
		baseUrl: args.baseUrl,
		authType: 'clientCredentials',
		clientId: args.clientId,
		clientSecret: args.clientSecret,
	});
	const items = Array.from({ length: args.count }, (_, index) => ({
		json: {
			name: `User ${index}`,
			email: `user${index}@${args.tag}.example.com`,
			code: `C-${index}`,
		},
	}));
	await useExpressionEngine();
	process.stdout.write('ready\n');
	await new Promise<void>((resolve) => {
		const lines = createInterface({ input: process.stdin });
		lines.on('line', (line) => {
			if (line.trim() === 'go') {
				lines.close();
				resolve();
			}
		});
	});
	const startedAt = Date.now();
	const result = await runNode({
		node: new MessagingEmail(),
		credentials,
		continueOnFail: true,
		items,
		parameters: {
			resource: 'email',
			operation: 'send',
			fromEmail: 'sender@sandbox.test',
			fromName: 'Sandbox Team',
			recipientsInput: 'text',
			to: '={{ $json.name }} <{{ $json.email }}>',
			subject: '=Welcome, {{ $json.name }}',
			content: 'template',
			templateId: '101',
			variablesInput: 'fields',
			variablesUi: {
				variable: [
					{ name: 'name', value: '={{ $json.name }}' },
					{ name: 'code', value: '={{ $json.code }}' },
				],
			},
			options: {},
		},
	});
	const endedAt = Date.now();
	const errors = result.items
		.map((item) => item.json.error)
		.filter((error) => error !== undefined)
		.map((error) => (typeof error === 'string' ? error : JSON.stringify(error)));
	if (result.error) errors.unshift(`execution: ${result.error.message}`);
	const outcome: SendExecutionResult = {
		tag: args.tag,
		sent: result.items.filter((item) => item.json.result === true).length,
		failed: result.items.length - result.items.filter((item) => item.json.result === true).length,
		errors: errors.slice(0, 5),
		startedAt,
		endedAt,
	};
	process.stdout.write(`${JSON.stringify(outcome)}\n`);
	await disposeExpressionEngine();
}

main().then(
	() => process.exit(0),
	(error: Error) => {
		process.stderr.write(`${error.stack ?? error.message}\n`);
		process.exit(1);
	},
);
