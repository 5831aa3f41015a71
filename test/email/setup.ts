import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	jsonOf,
	runOnSandbox,
	type InputItem,
	type RunNodeResult,
	type SandboxRunOptions,
} from '../harness/run-node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea, emailStateOf } from '../../sandbox/email';

export const node = new MessagingEmail();

export interface EmailTestContext {
	sandbox: Sandbox;
	run(
		parameters: INodeParameters,
		items?: InputItem[],
		options?: SandboxRunOptions,
	): Promise<RunNodeResult>;
	/** Service calls the sandbox received (token exchange excluded), as method/path/query/body. */
	calls(): Array<{ method: string; path: string; rawQuery: string; body: unknown }>;
	control(method: string, path: string, body?: unknown): Promise<IDataObject>;
	state(): ReturnType<typeof emailStateOf>;
	/** Calls the service API directly (API key), e.g. to seed sent emails; returns the JSON answer. */
	api(method: string, path: string, body?: unknown): Promise<unknown>;
	/** Sends `count` emails through the API (`to` of email n is given by `recipient(n)`); clears the log after. */
	seedEmails(
		count: number,
		recipient?: (n: number) => string,
		subject?: (n: number) => string,
	): Promise<string[]>;
}

/** One sandbox (email area only, no rate limit) per test file; state and log reset before every test. */
export function useEmailSandbox(): EmailTestContext {
	let sandbox: Sandbox;
	let store: CredentialStore;
	beforeAll(async () => {
		sandbox = await startSandbox({ areas: [emailArea], settings: { rateLimitPerSecond: 0 } });
		store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
	});
	afterAll(async () => await sandbox.close());
	beforeEach(() => {
		emailStateOf(sandbox).reset();
		sandbox.account.settings.emailActivated = true;
		sandbox.log.clear();
	});
	const context: EmailTestContext = {
		get sandbox() {
			return sandbox;
		},
		run: async (parameters, items, options) =>
			await runOnSandbox(node, store, parameters, items, options),
		calls: () =>
			sandbox.log
				.apiCalls()
				.map(({ method, path, rawQuery, body }) => ({ method, path, rawQuery, body })),
		control: async (method, path, body) => {
			const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
				method,
				headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			const json = (await response.json()) as IDataObject;
			if (!response.ok)
				throw new Error(`control ${path}: ${response.status} ${JSON.stringify(json)}`);
			return json;
		},
		state: () => emailStateOf(sandbox),
		api: async (method, path, body) => {
			const response = await fetch(`${sandbox.url}${path}`, {
				method,
				headers: {
					Authorization: `Bearer ${sandbox.account.apiKey}`,
					'Content-Type': 'application/json',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
			return (await response.json()) as unknown;
		},
		seedEmails: async (
			count,
			recipient = (n) => `user${n}@example.com`,
			subject = (n) => `Seed ${n}`,
		) => {
			const ids: string[] = [];
			for (let start = 0; start < count; start += 50) {
				const batch = Array.from(
					{ length: Math.min(50, count - start) },
					(_, offset) => start + offset,
				);
				const answers = await Promise.all(
					batch.map(
						async (n) =>
							(await context.api('POST', '/smtp/emails', {
								email: {
									text: `Body ${n}`,
									subject: subject(n),
									from: { email: 'sender@sandbox.test' },
									to: [{ email: recipient(n) }],
								},
							})) as { id: string },
					),
				);
				ids.push(...answers.map((answer) => answer.id));
			}
			sandbox.log.clear();
			return ids;
		},
	};
	return context;
}

export { jsonOf };

export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
