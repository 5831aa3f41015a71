/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { ErrorReporter, ExecuteContext, HookContext, WebhookContext } from 'n8n-core';
import {
	Workflow,
	createRunExecutionData,
	type IDataObject,
	type INode,
	type IRunExecutionData,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IWebhookData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CredentialStore, TestCredentialsHelper } from './credentials';
import { NodeTypes } from './run-node';
import { additionalData } from './additional-data';

/**
 * n8n's answer to a request that started a run in response mode "onReceived" (webhook-helpers.ts and
 * webhook-on-received-response-extractor.ts of n8n 2.40): the description's `responseData` (default
 * "firstEntryJson", sent as that text), nothing for "noData", else the node's `webhookResponse` or
 * `{"message":"Workflow was started"}`.
 */
function onReceivedAnswer(responseData: unknown, webhookResponse: unknown): string {
	const data = responseData ?? 'firstEntryJson';
	if (data === 'noData') return '';
	if (data) return typeof data === 'string' ? data : JSON.stringify(data);
	return JSON.stringify(webhookResponse ?? { message: 'Workflow was started' });
}

const quiet = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
Container.set(Logger, { ...quiet, scoped: () => quiet } as unknown as Logger);
Container.set(ErrorReporter, { error: () => {}, warn: () => {}, info: () => {} } as never);

/** One HTTP request the harness received, with what n8n would have done with it. */
export interface WebhookHit {
	path: string;
	status: number;
	/** The answer's body as text. */
	answer: string;
	/** The items the node handed to n8n (a workflow run starts with them); undefined when none started. */
	items?: INodeExecutionData[];
	mode: WorkflowExecuteMode;
}

export interface WebhookHarnessOptions {
	nodeType: INodeType;
	nodeTypeName: string;
	parameters: INodeParameters;
	/** n8n's random id of the node (undefined: a node imported without one). */
	webhookId?: string;
	workflowId?: string;
	/** The workflow's static data as n8n stored it (JSON), e.g. from another harness: a restart, another process. */
	staticData?: IDataObject;
	/** The node's (optional) Messaging credential; undefined: the node has none. */
	credentials?: CredentialStore;
	/**
	 * n8n's database: every request loads the workflow's static data from this JSON and the request (with the run
	 * it starts) stores it back when it changed, as n8n does. Harnesses given one store are n8n processes sharing a
	 * database; `staticData` is then not used.
	 */
	database?: StaticDataStore;
	/** The stored execution a resume webhook runs against (n8n's waiting webhooks pass it); undefined: none. */
	runExecutionData?: IRunExecutionData;
	/** The node's id (n8n's resume webhook path is the node id). */
	nodeId?: string;
	/** The waiting execution's id, as n8n's waiting webhooks set it. */
	executionId?: string;
}

/** The workflow's static data as n8n's database holds it. */
export interface StaticDataStore {
	json: string;
}

/**
 * Serves a webhook trigger node over real HTTP on 127.0.0.1 the way n8n's webhook server does for a node of type
 * version 1: reads the body with n8n's rules (JSON, form, text/plain parsed by content type; a JSON body that does
 * not parse gets n8n's 422 before the node runs; the raw bytes kept as `rawBody`), builds n8n-core's
 * WebhookContext (the class n8n's WebhookService.runWebhook uses) with the request and response, runs `webhook()`
 * and answers as n8n does for responseMode "onReceived": the node's own answer (`noWebhookResponse`), its
 * `webhookResponse` when it started no run, n8n's on-received answer when it did; 500 when it threw.
 *
 * Unlike n8n, which only routes the exact registered path (`/webhook/<webhookId>/<path>`), the harness hands
 * every POST under /webhook/ or /webhook-test/ to the node, so the node's own secret check is what tests see.
 */
export class WebhookHarness {
	hits: WebhookHit[] = [];
	url = '';
	private server?: Server;
	private readonly workflow: Workflow;
	private readonly node: INode;

	constructor(private readonly options: WebhookHarnessOptions) {
		this.node = {
			id: options.nodeId ?? 'webhook-trigger-node',
			name: 'Email Events',
			type: options.nodeTypeName,
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters,
			...(options.webhookId ? { webhookId: options.webhookId } : {}),
			...(options.credentials
				? { credentials: { messagingServiceApi: { id: '1', name: 'Sandbox' } } }
				: {}),
		};
		this.workflow = new Workflow({
			id: options.workflowId ?? 'webhook-workflow',
			name: 'Webhook test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: new NodeTypes({ [options.nodeTypeName]: options.nodeType }),
			staticData: options.staticData ?? {},
			settings: { timezone: 'UTC' },
		});
	}

	/** The production URL n8n shows for the node (`<base>/webhook/<webhookId>/<path>`). */
	productionUrl(): string {
		return `${this.url}/webhook/${this.options.webhookId}/${this.webhookPath()}`;
	}

	testUrl(): string {
		return `${this.url}/webhook-test/${this.options.webhookId}/${this.webhookPath()}`;
	}

	/** The workflow's static data as n8n would save it to its database (JSON, without n8n's change flag). */
	storedStaticData(): IDataObject {
		return JSON.parse(
			this.options.database?.json ?? JSON.stringify(this.workflow.staticData),
		) as IDataObject;
	}

	/**
	 * Activation as n8n runs it for a webhook node (n8n-core's HookContext, mode "trigger", activation "activate"):
	 * the node's `checkExists`; it throws what n8n shows as the activation error.
	 */
	async activate(): Promise<boolean> {
		const activationData = additionalData(
			this.options.credentials
				? { credentialsHelper: new TestCredentialsHelper(this.options.credentials) }
				: {},
			this.url,
		);
		const context = new HookContext(
			this.workflow,
			this.node,
			activationData,
			'trigger',
			'activate',
		);
		return await this.options.nodeType.webhookMethods!.default!.checkExists.call(context);
	}

	/** Items of every run the node started, in order. */
	emitted(): INodeExecutionData[] {
		return this.hits.flatMap((hit) => hit.items ?? []);
	}

	async listen(): Promise<this> {
		this.server = createServer((req, res) => void this.serve(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
	}

	/** Posts a body to a path of the harness (content type null: none) and returns the answer. */
	async post(
		path: string,
		body: string,
		contentType: string | null = 'application/json',
	): Promise<{ status: number; text: string }> {
		// fetch labels a string body text/plain; bytes go without a content type.
		const response = await fetch(`${this.url}${path}`, {
			method: 'POST',
			headers: contentType ? { 'Content-Type': contentType } : {},
			body: contentType ? body : Buffer.from(body),
		});
		return { status: response.status, text: await response.text() };
	}

	private restoreStaticData(json: string) {
		const staticData = this.workflow.staticData;
		for (const key of Object.keys(staticData)) delete staticData[key];
		Object.assign(staticData, JSON.parse(json) as IDataObject);
	}

	/** The first node of the run n8n starts: a webhook node with `execute` runs it on its items (n8n-core's runNode). */
	private async runTriggerNode(
		items: INodeExecutionData[],
		mode: WorkflowExecuteMode,
		additionalData: IWorkflowExecuteAdditionalData,
	): Promise<INodeExecutionData[]> {
		const inputData = { main: [items] };
		const context = new ExecuteContext(
			this.workflow,
			this.node,
			additionalData,
			mode,
			createRunExecutionData(),
			0,
			items,
			inputData,
			{ node: this.node, data: inputData, source: null },
			[],
		);
		const output = await this.options.nodeType.execute!.call(context);
		return (output as INodeExecutionData[][])[0];
	}

	private webhookPath(): string {
		return String(this.options.nodeType.description.webhooks![0].path);
	}

	private async serve(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', 'http://harness');
		const mode: WorkflowExecuteMode = url.pathname.startsWith('/webhook-test/')
			? 'manual'
			: 'webhook';
		const hit: WebhookHit = { path: url.pathname, status: 0, answer: '', mode };
		this.hits.push(hit);
		const finish = (status: number, answer: string) => {
			if (!res.headersSent) {
				res.writeHead(status, { 'Content-Type': 'application/json' });
				res.end(answer);
			}
		};
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks);
		const contentType = req.headers['content-type']?.split(';')[0].trim().toLowerCase();

		const request = req as IncomingMessage & Record<string, unknown>;
		Object.assign(request, {
			originalUrl: req.url,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			params: {},
			rawBody,
			contentType,
		});
		// n8n's parseBody (middlewares/body-parser): by content type, only when there are bytes.
		if (rawBody.length > 0) {
			const text = rawBody.toString('utf8');
			try {
				if (contentType === 'application/json') request.body = JSON.parse(text);
				else if (contentType === 'application/x-www-form-urlencoded')
					request.body = parseQueryString(text);
				else if (contentType === 'text/plain') request.body = text;
			} catch {
				hit.status = 422;
				hit.answer = JSON.stringify({ code: 422, message: 'Failed to parse request body' });
				return finish(hit.status, hit.answer);
			}
		}

		const description = this.options.nodeType.description.webhooks![0];
		const requestData = additionalData(
			{
				httpRequest: request,
				httpResponse: res,
				...(this.options.credentials
					? { credentialsHelper: new TestCredentialsHelper(this.options.credentials) }
					: {}),
			},
			this.url,
		);
		if (this.options.executionId) requestData.executionId = this.options.executionId;
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: this.node.name,
			path: this.webhookPath(),
			webhookDescription: description,
			workflowId: this.workflow.id,
			workflowExecuteAdditionalData: requestData,
			isTest: mode === 'manual',
		};
		const context = new WebhookContext(
			this.workflow,
			this.node,
			requestData,
			mode,
			webhookData,
			[],
			this.options.runExecutionData ?? null,
		);
		let captured = '';
		const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
		res.end = ((chunk?: unknown) => {
			if (typeof chunk === 'string') captured = chunk;
			return end(chunk);
		}) as typeof res.end;
		const database = this.options.database;
		if (database) this.restoreStaticData(database.json);
		// What n8n 2.40 stores of the static data: the webhook call's changes only when it starts no run
		// (WorkflowRunner.run resets the change flag before the answer); a run stores what its nodes change.
		const staticBefore = database?.json ?? JSON.stringify(this.workflow.staticData);
		// n8n's webhook servers hold an expression isolate while the node runs (waiting-webhooks.js acquireIsolate),
		// so expressions in parameters evaluate there as in a run.
		await this.workflow.expression.acquireIsolate();
		try {
			const result = await this.options.nodeType.webhook!.call(context);
			// n8n runs the items even when the node answered the request itself (send-and-wait pages do).
			hit.items = result.workflowData?.[0];
			if (result.noWebhookResponse) {
				hit.status = res.statusCode;
				hit.answer = captured;
				return;
			}
			if (result.workflowData) {
				this.restoreStaticData(staticBefore);
				if (this.options.nodeType.execute && hit.items)
					hit.items = await this.runTriggerNode(hit.items, mode, requestData);
			}
			hit.status = 200;
			hit.answer = result.workflowData
				? onReceivedAnswer(description.responseData, result.webhookResponse)
				: JSON.stringify(result.webhookResponse);
		} catch (error) {
			hit.status = 500;
			hit.answer = JSON.stringify({ code: 0, message: (error as Error).message });
		} finally {
			if (database) database.json = JSON.stringify(this.workflow.staticData);
			await this.workflow.expression.releaseIsolate();
		}
		finish(hit.status, hit.answer);
	}
}
