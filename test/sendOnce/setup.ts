import type { INodeParameters } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { deduplicationStore } from '../harness/deduplication';
import {
	runOnSandbox,
	type InputItem,
	type RunNodeResult,
	type SandboxRunOptions,
} from '../harness/run-node';
import { startSandbox, type Sandbox } from '../../sandbox';
import { emailStateOf } from '../../sandbox/email';

export interface SendOnceTest {
	sandbox: Sandbox;
	email(
		parameters: INodeParameters,
		items?: InputItem[],
		options?: SandboxRunOptions,
	): Promise<RunNodeResult>;
	sms(
		parameters: INodeParameters,
		items?: InputItem[],
		options?: SandboxRunOptions,
	): Promise<RunNodeResult>;
	/** Service calls the sandbox received (token exchange excluded): method, path and body. */
	calls(): Array<{ method: string; path: string; body: unknown }>;
	/** Every email the sandbox accepted, as "recipient | subject", sorted. */
	outbox(): string[];
}

const email = new MessagingEmail();
const sms = new MessagingSms();

/** Both areas of the sandbox, no rate limit; n8n's deduplication store emptied before every test. */
export function useSendOnceSandbox(): SendOnceTest {
	const t = {} as SendOnceTest;
	let store: CredentialStore;
	beforeAll(async () => {
		t.sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
		store = new CredentialStore(sandboxCredentials(t.sandbox, 'apiKey'));
	});
	afterAll(async () => await t.sandbox.close());
	beforeEach(async () => {
		emailStateOf(t.sandbox).reset();
		t.sandbox.account.settings.emailActivated = true;
		await fetch(`${t.sandbox.url}/__sandbox/sms/reset`, { method: 'POST' });
		t.sandbox.faults.clear();
		t.sandbox.log.clear();
		deduplicationStore().reset();
	});
	const run =
		(node: MessagingEmail | MessagingSms) =>
		async (parameters: INodeParameters, items?: InputItem[], options?: SandboxRunOptions) =>
			await runOnSandbox(node, store, parameters, items, options);
	t.email = run(email);
	t.sms = run(sms);
	t.calls = () =>
		t.sandbox.log.apiCalls().map(({ method, path, body }) => ({ method, path, body }));
	t.outbox = () =>
		emailStateOf(t.sandbox)
			.emails.map((sent) => `${sent.recipient} | ${sent.subject}`)
			.sort();
	return t;
}
