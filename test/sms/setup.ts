import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	jsonOf,
	runOnSandbox,
	type InputItem,
	type RunNodeResult,
	type SandboxRunOptions,
} from '../harness/run-node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { smsArea } from '../../sandbox/sms';

export const node = new MessagingSms();

export interface SmsTestContext {
	sandbox: Sandbox;
	store: CredentialStore;
	/** Runs the node (no pacing) with the given parameters and input items. */
	run(
		parameters: INodeParameters,
		items?: InputItem[],
		options?: SandboxRunOptions,
	): Promise<RunNodeResult>;
	/** Calls a control route: control('POST', '/sms/senders', {...}). */
	control(method: string, path: string, body?: unknown): Promise<IDataObject>;
	/** Service requests the node made (token exchange excluded). */
	calls(): Array<{
		method: string;
		path: string;
		query: Record<string, unknown>;
		rawQuery: string;
		body: unknown;
	}>;
}

export function useSmsSandbox(): SmsTestContext {
	const context = {} as SmsTestContext;
	beforeAll(async () => {
		context.sandbox = await startSandbox({ areas: [smsArea], settings: { rateLimitPerSecond: 0 } });
		context.store = new CredentialStore(sandboxCredentials(context.sandbox, 'apiKey'));
	});
	afterAll(async () => await context.sandbox.close());
	beforeEach(async () => {
		await context.control('POST', '/sms/reset');
		context.sandbox.log.clear();
	});
	context.run = async (parameters, items, options) =>
		await runOnSandbox(node, context.store, parameters, items, options);
	context.control = async (method, path, body) => {
		const response = await fetch(`${context.sandbox.url}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await response.json()) as IDataObject;
		if (!response.ok) throw new Error(`control ${method} ${path}: ${JSON.stringify(json)}`);
		return json;
	};
	context.calls = () =>
		context.sandbox.log
			.apiCalls()
			.map(({ method, path, query, rawQuery, body }) => ({ method, path, query, rawQuery, body }));
	return context;
}

export { jsonOf };

/** Output item pairing as plain arrays of input indexes. */
export function pairing(result: RunNodeResult): number[][] {
	return result.items.map((item) => {
		const paired = item.pairedItem;
		const list = Array.isArray(paired) ? paired : [paired];
		return list.map((entry) =>
			typeof entry === 'number' ? entry : (entry as { item: number }).item,
		);
	});
}

export const items = (...list: IDataObject[]): InputItem[] => list.map((json) => ({ json }));
