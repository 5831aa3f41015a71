/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { AsyncLocalStorage } from 'node:async_hooks';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { ErrorReporter, PollContext, PollTriggerExecutor } from 'n8n-core';
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IWorkflowExecuteAdditionalData,
	type WorkflowActivateMode,
} from 'n8n-workflow';

import { CredentialStore, TestCredentialsHelper } from './credentials';
import { NodeTypes } from './run-node';
import { additionalData } from './additional-data';

/** Every log line n8n-core and the node wrote, for assertions (the trigger's warnings go here). */
export class RecordingLogger {
	lines: Array<{ level: string; message: string; meta?: unknown }> = [];
	error = (message: string, meta?: unknown) => this.lines.push({ level: 'error', message, meta });
	warn = (message: string, meta?: unknown) => this.lines.push({ level: 'warn', message, meta });
	info = (message: string, meta?: unknown) => this.lines.push({ level: 'info', message, meta });
	debug = (message: string, meta?: unknown) => this.lines.push({ level: 'debug', message, meta });
	scoped = () => this;
	of(level: string) {
		return this.lines.filter((line) => line.level === level).map((line) => line.message);
	}
	clear() {
		this.lines = [];
	}
}

export const logger = new RecordingLogger();
Container.set(Logger, logger as unknown as Logger);
Container.set(ErrorReporter, {
	error: () => {},
	warn: () => {},
	info: () => {},
} as unknown as ErrorReporter);

export interface PollOutcome {
	/** The items the poll handed to n8n (one emit), or [] when it returned null. */
	items: INodeExecutionData[];
	/** The error n8n routed to the error workflow (scheduled polls) or threw (activation / manual). */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
}

/**
 * How n8n keeps a poll node's state between polls:
 * - `legacy`: the node mutates the workflow's in-memory static data; n8n writes it to the database when a poll
 *   emits and when the workflow is deactivated (a restart reloads what was written).
 * - `staged`: n8n 2.x durable cursors: the node gets a per-poll copy (PollContext's `resolveNodeStaticData`),
 *   committed with the emit or, for a scheduled poll that emitted nothing, by `__commitCursor`; a poll that
 *   throws commits nothing. Each scheduled poll runs on a workflow built afresh from the database
 *   (PollTriggerTaskHandler → createPollExecutionContext), whose static data n8n saves when the poll emits.
 * In both, the workflow's own static data (`global`) is saved after activation (ActiveWorkflowManager.add) and with
 * every emit (WorkflowStaticDataService.saveStaticData).
 */
export type PersistenceMode = 'legacy' | 'staged';

const NODE_NAME = 'Messaging Trigger';
const NODE_TYPE = 'n8n-nodes-messaging.messagingTrigger';

/**
 * Runs a polling trigger the way n8n's active-workflow machinery does: n8n-core's PollTriggerExecutor and
 * PollContext, the activation poll (errors thrown to the caller), scheduled polls (errors routed to __emitError),
 * static data persisted between polls and reloaded on restart, manual "Fetch Test Event" runs.
 */
export class PollHarness {
	/** What n8n's database holds for this node: its static data (legacy) or its poller cursor (staged). */
	persisted: IDataObject | undefined;
	/** What n8n's database holds as the workflow's global static data. */
	persistedGlobal: IDataObject | undefined;
	private workflow!: Workflow;
	private context!: PollContext;
	private execute!: (testing?: boolean) => Promise<void>;
	private lastEmit: INodeExecutionData[][] | undefined;
	private lastError: Error | undefined;
	private readonly staged = new AsyncLocalStorage<{ snapshot: IDataObject; seed: string }>();
	/** Times n8n wrote this node's state to its database. */
	saves = 0;

	constructor(
		private readonly options: {
			nodeType: INodeType;
			parameters: INodeParameters;
			credentials: CredentialStore;
			persistence?: PersistenceMode;
			/** Static data saved earlier (e.g. a previous harness's `persisted`). */
			persisted?: IDataObject;
		},
	) {
		this.persisted = options.persisted ? clone(options.persisted) : undefined;
	}

	get persistence(): PersistenceMode {
		return this.options.persistence ?? 'legacy';
	}

	/** The node's state as n8n would have it on disk right now. */
	stored(): IDataObject {
		return clone(this.persisted ?? {});
	}

	/** Bytes of the persisted state, as JSON. */
	storedBytes(): number {
		return Buffer.byteLength(JSON.stringify(this.persisted ?? {}));
	}

	/** Activation (or reactivation after a restart or an edit): builds the workflow and runs the first poll. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollOutcome> {
		this.build(activation);
		const outcome = await this.run(true);
		// n8n writes the workflow's static data once its triggers are registered (for durable cursors that is the
		// global part only: their activation poll is committed only when it emits).
		if (!outcome.error) this.save();
		return outcome;
	}

	/** A scheduled poll (errors go to n8n's error handling, not to the caller). */
	async poll(): Promise<PollOutcome> {
		// The durable scheduler runs each poll on a workflow loaded from the database.
		if (this.workflow && this.persistence === 'staged') this.build('update');
		return await this.run(false);
	}

	/** n8n stops: whatever was not written to the database is gone. */
	crash() {
		this.workflow = undefined as unknown as Workflow;
	}

	/** Deactivation writes the in-memory static data. */
	deactivate() {
		this.save();
	}

	/** The user edits the node and saves the active workflow: n8n deactivates, then activates the new version. */
	async edit(parameters: INodeParameters): Promise<PollOutcome> {
		this.deactivate();
		this.options.parameters = parameters;
		return await this.activate('update');
	}

	/** "Fetch Test Event": n8n runs poll() once in manual mode on the editor's copy of the workflow. */
	async manual(): Promise<PollOutcome & { storedAfter: IDataObject }> {
		const workflow = this.newWorkflow();
		const context = new PollContext(
			workflow,
			workflow.getNode(NODE_NAME)!,
			this.additionalData(),
			'manual',
			'manual',
		);
		try {
			const result = await this.options.nodeType.poll!.call(context);
			return {
				items: result?.[0] ?? [],
				storedAfter: clone(workflow.getStaticData('node', workflow.getNode(NODE_NAME)!)),
			};
		} catch (error) {
			return {
				items: [],
				error: error as PollOutcome['error'],
				storedAfter: clone(workflow.getStaticData('node', workflow.getNode(NODE_NAME)!)),
			};
		}
	}

	private newWorkflow(): Workflow {
		const node: INode = {
			id: 'trigger-node',
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: this.options.parameters,
			credentials: { messagingServiceApi: { id: '1', name: 'Sandbox' } },
		};
		const staticData: IDataObject = {};
		if (this.persistence === 'legacy' && this.persisted)
			staticData[`node:${NODE_NAME}`] = clone(this.persisted);
		if (this.persistedGlobal) staticData.global = clone(this.persistedGlobal);
		return new Workflow({
			id: 'trigger-workflow',
			name: 'Trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: new NodeTypes({ [NODE_TYPE]: this.options.nodeType }),
			staticData,
			settings: { timezone: 'UTC' },
		});
	}

	private build(activation: WorkflowActivateMode) {
		this.workflow = this.newWorkflow();
		const node = this.workflow.getNode(NODE_NAME)!;
		const emit = (data: INodeExecutionData[][]) => {
			this.lastEmit = data;
			this.save();
			if (this.persistence === 'staged') this.commitStaged();
		};
		const emitError = (error: Error) => {
			this.lastError = error;
		};
		const staged = this.persistence === 'staged';
		this.context = new PollContext(
			this.workflow,
			node,
			this.additionalData(),
			'trigger',
			activation,
			emit,
			emitError,
			async () => this.commitStaged(),
			async (poll) => {
				if (!staged) return await poll();
				const seed = JSON.stringify(this.persisted ?? {});
				return await this.staged.run({ snapshot: JSON.parse(seed) as IDataObject, seed }, poll);
			},
			() => {
				if (!staged) return this.workflow.getStaticData('node', node);
				const store = this.staged.getStore();
				if (!store) throw new Error('static data read outside of a poll');
				return store.snapshot;
			},
		);
		const executor = Container.get(PollTriggerExecutor);
		this.execute = executor.create(this.workflow, node, this.context, () => true);
	}

	private async run(testing: boolean): Promise<PollOutcome> {
		if (!this.workflow) throw new Error('Not active: call activate() first');
		this.lastEmit = undefined;
		this.lastError = undefined;
		try {
			await this.execute(testing);
		} catch (error) {
			return { items: [], error: error as PollOutcome['error'] };
		}
		return { items: this.lastEmit?.[0] ?? [], error: this.lastError as PollOutcome['error'] };
	}

	/** n8n's saveStaticData: the workflow's static data (for durable cursors: without the node's cursor). */
	private save() {
		const node = this.workflow.getNode(NODE_NAME)!;
		if (this.persistence === 'legacy') {
			this.persisted = clone(this.workflow.getStaticData('node', node));
			this.saves++;
		}
		this.persistedGlobal = clone(this.workflow.getStaticData('global'));
	}

	private commitStaged() {
		const store = this.staged.getStore();
		if (!store) return;
		const next = JSON.stringify(store.snapshot);
		if (next === store.seed) return;
		this.persisted = JSON.parse(next) as IDataObject;
		store.seed = next;
		this.saves++;
	}

	private additionalData(): IWorkflowExecuteAdditionalData {
		return additionalData({
			credentialsHelper: new TestCredentialsHelper(this.options.credentials),
		});
	}
}

function clone<T>(value: T): T {
	const copy = JSON.parse(JSON.stringify(value ?? {})) as T & { __dataChanged?: unknown };
	delete copy.__dataChanged;
	return copy;
}
