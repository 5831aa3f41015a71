/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Container } from '@n8n/di';
import { BinaryDataService, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	Expression,
	LoggerProxy,
	Workflow,
	type IBinaryKeyData,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IRunExecutionData,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CredentialStore, TestCredentialsHelper } from './credentials';
import { additionalData } from './additional-data';
import { deduplicationStore } from './deduplication';

export interface InputItem {
	json: IDataObject;
	/** Binary properties to create through n8n's binary data service (filesystem mode, as n8n 2.x stores them). */
	binary?: Record<string, { data: Buffer | string; fileName?: string; mimeType?: string }>;
}

export interface RunNodeOptions {
	node: INodeType;
	parameters: INodeParameters;
	items?: InputItem[];
	credentials: CredentialStore;
	continueOnFail?: boolean;
	timezone?: string;
	mode?: WorkflowExecuteMode;
	/** Expression engine for this run; default: N8N_EXPRESSION_ENGINE, else 'vm' (n8n 2.x's default). */
	engine?: ExpressionEngine;
	/** The node's and the workflow's ids (n8n's deduplication store keeps keys per node id or workflow id). */
	nodeId?: string;
	workflowId?: string;
	/** n8n's own addresses for this run (instanceBaseUrl, webhookWaitingBaseUrl, …), over the defaults. */
	urls?: Record<string, string>;
	/** The node's version (default 1). */
	typeVersion?: number;
}

export type ExpressionEngine = 'vm' | 'legacy';

export interface RunNodeResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	/** The execution's error (a failing node without continueOnFail). */
	error?: Error & { description?: string; context?: IDataObject; httpCode?: string };
	run: IRun;
	/** The workflow and run settings, to resume a waiting execution as n8n does (test/sendAndWait). */
	workflow: Workflow;
	additionalData: IWorkflowExecuteAdditionalData;
}

const PACKAGE = 'n8n-nodes-messaging';
const INPUT_NODE_TYPE = 'test.input';

/** Emits the items the test gave it, creating their binary data through n8n's own helper. */
class TestInputNode implements INodeType {
	description = {
		displayName: 'Test Input',
		name: 'input',
		group: ['input'],
		version: 1,
		description: 'Test items',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const specs = JSON.parse(this.getNodeParameter('items', 0) as string) as Array<{
			json: IDataObject;
			binary?: Record<string, { base64: string; fileName?: string; mimeType?: string }>;
		}>;
		const output: INodeExecutionData[] = [];
		for (const [index, spec] of specs.entries()) {
			const binary: IBinaryKeyData = {};
			for (const [key, file] of Object.entries(spec.binary ?? {})) {
				binary[key] = await this.helpers.prepareBinaryData(
					Buffer.from(file.base64, 'base64'),
					file.fileName,
					file.mimeType,
				);
			}
			output.push({
				json: spec.json,
				...(spec.binary ? { binary } : {}),
				pairedItem: { item: index },
			});
		}
		return [output];
	}
}

/** The node types a test workflow may use, by their full type name. */
export class NodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType>) {}

	getByName(name: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(name);
	}

	getByNameAndVersion(name: string): INodeType {
		const type = this.types[name];
		if (!type) throw new Error(`Unknown node type ${name}`);
		return type;
	}

	getKnownTypes() {
		return {};
	}
}

// n8n-core logs every node error through its logger; the tests assert on errors themselves.
const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };
LoggerProxy.init(silent as never);

let binaryStorageReady: Promise<void> | undefined;

/** n8n 2.x keeps binary data on disk by default; the tests do the same so attachments are read as users' are. */
function ensureBinaryStorage(): Promise<void> {
	binaryStorageReady ??= (async () => {
		const config = {
			mode: 'filesystem',
			availableModes: ['filesystem'],
			localStoragePath: mkdtempSync(join(tmpdir(), 'messaging-binary-')),
			signingSecret: 'test',
			dbMaxFileSize: 512,
		};
		const quiet = {
			error: () => {},
			warn: () => {},
			info: () => {},
			debug: () => {},
			scoped: () => quiet,
		};
		const service = new BinaryDataService(config as never, quiet as never, quiet as never);
		await service.init();
		Container.set(BinaryDataService, service);
	})();
	return binaryStorageReady;
}

let vmEngineReady: Promise<void> | undefined;
/**
 * n8n's N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE, on here unless set to false: the same isolate evaluates the same way,
 * but an execution takes it only when an expression reaches it. Eagerly (n8n's default) every execution takes a
 * fresh isolate, ~80 ms of CPU, which would make the suite's hundreds of short runs several times slower.
 */
let lazyAcquire = process.env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE !== 'false';

/** The engine runs use unless they say otherwise: N8N_EXPRESSION_ENGINE, else n8n 2.x's default, the isolate. */
export function defaultEngine(): ExpressionEngine {
	return process.env.N8N_EXPRESSION_ENGINE === 'legacy' ? 'legacy' : 'vm';
}

/**
 * Selects n8n's expression engine as n8n's own startup does (Expression.initExpressionEngine with the defaults
 * of n8n's ExpressionEngineConfig: one isolate, 128 MB, 5 s; lazy acquisition, see lazyAcquire). The isolate is made once per process (~0.25 s)
 * and reused; 'legacy' switches back to in-process evaluation. A global setting: call it between runs only.
 */
export async function useExpressionEngine(
	engine: ExpressionEngine = defaultEngine(),
	options: { lazyAcquire?: boolean } = {},
): Promise<void> {
	if (engine === 'vm') {
		if (!vmEngineReady && options.lazyAcquire !== undefined) lazyAcquire = options.lazyAcquire;
		vmEngineReady ??= Expression.initExpressionEngine({
			engine: 'vm',
			poolSize: 1,
			maxCodeCacheSize: 1024,
			bridgeTimeout: 5000,
			bridgeMemoryLimit: 128,
			lazyAcquire,
		}).catch(async (error: Error) => {
			// Under jest, n8n's `await import('@n8n/expression-runtime')` needs --experimental-vm-modules; build
			// the same evaluator with require, as initExpressionEngine does.
			if (!/dynamic import/.test(error.message)) throw error;
			await initVmEvaluatorByRequire();
		});
		await vmEngineReady;
	}
	Expression.setExpressionEngine(engine);
	if (Expression.getActiveImplementation() !== engine)
		throw new Error(`Expression engine ${engine} could not be selected`);
}

async function initVmEvaluatorByRequire(): Promise<void> {
	/* eslint-disable @typescript-eslint/no-require-imports */
	const runtime = require('@n8n/expression-runtime') as typeof import('@n8n/expression-runtime');
	const { expressionSandboxHooks } = require('n8n-workflow/expression-sandboxing') as {
		expressionSandboxHooks: unknown;
	};
	/* eslint-enable @typescript-eslint/no-require-imports */
	const evaluator = new runtime.ExpressionEvaluator({
		createBridge: () =>
			new runtime.IsolatedVmBridge({
				timeout: 5000,
				memoryLimit: 128,
				logger: LoggerProxy as never,
				compileCache: false,
			}),
		maxCodeCacheSize: 1024,
		poolSize: 1,
		lazyAcquire,
		hooks: expressionSandboxHooks as never,
		logger: LoggerProxy as never,
	});
	await evaluator.initialize();
	(Expression as unknown as { vmEvaluator: unknown }).vmEvaluator = evaluator;
}

/** Frees the isolate (jest waits for it otherwise); the next vm run makes a new one. */
export async function disposeExpressionEngine(): Promise<void> {
	if (!vmEngineReady) return;
	await vmEngineReady.catch(() => {});
	vmEngineReady = undefined;
	await Expression.disposeExpressionEngine();
}

// Under jest, every test file that runs nodes frees the isolate when it ends (a live isolate keeps the worker busy).
if (typeof afterAll === 'function') afterAll(async () => await disposeExpressionEngine());

let executionCounter = 0;

/** Runs Input → node through n8n-core's WorkflowExecute, as n8n runs a manual execution. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureBinaryStorage();
	deduplicationStore();
	await useExpressionEngine(options.engine);
	const nodeTypeName = `${PACKAGE}.${options.node.description.name}`;
	const nodeTypes = new NodeTypes({
		[nodeTypeName]: options.node,
		[INPUT_NODE_TYPE]: new TestInputNode(),
	});
	const items = (options.items ?? [{ json: {} }]).map((item) => ({
		json: item.json,
		binary: item.binary
			? Object.fromEntries(
					Object.entries(item.binary).map(([key, file]) => [
						key,
						{
							base64: Buffer.from(file.data).toString('base64'),
							fileName: file.fileName,
							mimeType: file.mimeType,
						},
					]),
				)
			: undefined,
	}));

	const workflowId = options.workflowId ?? 'test-workflow';
	const workflow = new Workflow({
		id: workflowId,
		nodes: [
			{
				id: 'input',
				name: 'Input',
				type: INPUT_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: JSON.stringify(items) },
			},
			{
				id: options.nodeId ?? 'subject',
				name: 'Node',
				type: nodeTypeName,
				typeVersion: options.typeVersion ?? 1,
				position: [200, 0],
				parameters: options.parameters,
				credentials: { messagingServiceApi: { id: '1', name: 'Sandbox' } },
				continueOnFail: options.continueOnFail,
			},
		],
		connections: { Input: { main: [[{ node: 'Node', type: 'main', index: 0 }]] } },
		nodeTypes,
		active: false,
		settings: { timezone: options.timezone ?? 'UTC' },
	});

	const executionId = String(++executionCounter);
	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, { id: workflowId } as never);

	const executionData = additionalData({
		hooks,
		executionId,
		credentialsHelper: new TestCredentialsHelper(options.credentials),
		currentNodeParameters: undefined,
		setExecutionStatus: () => {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('not available in tests');
		},
		getRunExecutionData: async () => undefined,
		...options.urls,
	});

	const runExecutionData = {
		version: 1,
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [
				{ node: workflow.getNode('Input')!, data: { main: [[{ json: {} }]] }, source: null },
			],
		},
	} as unknown as IRunExecutionData;

	const run = await new WorkflowExecute(
		executionData,
		mode,
		runExecutionData,
	).processRunExecutionData(workflow);
	const nodeRun = run.data.resultData.runData.Node?.[0];
	return {
		items: nodeRun?.data?.main?.[0] ?? [],
		error: (nodeRun?.error ?? run.data.resultData.error) as RunNodeResult['error'],
		run,
		workflow,
		additionalData: executionData,
	};
}

/** How a test file's node run against its sandbox may differ from the default one. */
export interface SandboxRunOptions {
	continueOnFail?: boolean;
	/** The workflow's zone (n8n's setting; default UTC). */
	timezone?: string;
	/** The credential's Account Time Zone (absent: the field unset, read as UTC). */
	accountTimeZone?: string;
	/** The node's version (default 1). */
	typeVersion?: number;
	/** The node's and the workflow's ids (n8n's deduplication store keeps keys per node id or workflow id). */
	nodeId?: string;
	workflowId?: string;
}

/**
 * Runs `node` against a test sandbox with the credential in `store` (its Account Time Zone set when the options
 * give one) and the node's own pacing off (Requests per Second 0), so a test waits for no pacer.
 */
export async function runOnSandbox(
	node: INodeType,
	store: CredentialStore,
	parameters: INodeParameters,
	items?: InputItem[],
	options: SandboxRunOptions = {},
): Promise<RunNodeResult> {
	return await runNode({
		node,
		credentials:
			options.accountTimeZone === undefined
				? store
				: new CredentialStore({ ...store.get(), timeZone: options.accountTimeZone }),
		parameters: { requestOptions: { requestsPerSecond: 0 }, ...parameters },
		items,
		continueOnFail: options.continueOnFail,
		timezone: options.timezone,
		typeVersion: options.typeVersion,
		nodeId: options.nodeId,
		workflowId: options.workflowId,
	});
}

/** The JSON of each output item, for exact comparisons. */
export function jsonOf(result: RunNodeResult): IDataObject[] {
	return result.items.map((item) => item.json);
}
