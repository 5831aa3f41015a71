/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import { MessagingEmailTrigger } from '../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node';
import type { LoggedRequest } from '../../sandbox/core/request-log';
import type { ExecuteResult, N8nInstance } from '../../scripts/n8n/instance';

export const EXAMPLES_DIR = join(__dirname, '..', '..', 'examples');
export const CREDENTIAL_ID = 'messagingSandbox1';
export const CREDENTIAL_NAME = 'Messaging Sandbox';
export const API_KEY_CREDENTIAL_ID = 'messagingSandbox2';
export const API_KEY_CREDENTIAL_NAME = 'Messaging Sandbox (API key)';

/** Fixed sandbox credentials, so a second sandbox (trigger leg) accepts the same imported credential. */
export const SANDBOX_CREDENTIALS = {
	clientId: 'e2e-client-id',
	clientSecret: 'e2e-client-secret-0123456789abcdef',
	apiKey: 'sp_apikey_e2e0123456789abcdef0123456789ab',
};

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

export interface Workflow {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export function loadExamples(): Array<{ file: string; workflow: Workflow }> {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as Workflow,
		}));
}

export function example(file: string): Workflow {
	return JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as Workflow;
}

/** A deep copy with every Messaging credential reference pointed at another credential. */
export function withCredential(
	workflow: Workflow,
	id: string,
	name: string,
	workflowId = workflow.id,
): Workflow {
	const copy = JSON.parse(JSON.stringify(workflow)) as Workflow;
	copy.id = workflowId;
	for (const node of copy.nodes)
		if (node.credentials?.messagingServiceApi) node.credentials.messagingServiceApi = { id, name };
	return copy;
}

/** The sandbox credentials as n8n imports them; `timeZone`: their Account Time Zone (absent: UTC). */
export function credentialRecords(sandboxUrl: string, timeZone?: string) {
	const zone = timeZone === undefined ? {} : { timeZone };
	return [
		{
			id: CREDENTIAL_ID,
			name: CREDENTIAL_NAME,
			type: 'messagingServiceApi',
			data: {
				baseUrl: sandboxUrl,
				authType: 'clientCredentials',
				clientId: SANDBOX_CREDENTIALS.clientId,
				clientSecret: SANDBOX_CREDENTIALS.clientSecret,
				...zone,
			},
		},
		{
			id: API_KEY_CREDENTIAL_ID,
			name: API_KEY_CREDENTIAL_NAME,
			type: 'messagingServiceApi',
			data: {
				baseUrl: sandboxUrl,
				authType: 'apiKey',
				apiKey: SANDBOX_CREDENTIALS.apiKey,
				...zone,
			},
		},
	];
}

// ---------- run JSON ----------

type Run = NonNullable<ExecuteResult['run']>;

/** The items (json only) a node produced on its first run, output 0 unless told. */
export function outputOf(
	run: Run | undefined,
	node: string,
	output = 0,
): Array<Record<string, unknown>> {
	const runs = run?.data.resultData.runData[node];
	if (!runs)
		throw new Error(
			`Node "${node}" did not run. Ran: ${Object.keys(run?.data.resultData.runData ?? {}).join(', ')}`,
		);
	return (runs[0].data?.main[output] ?? []).map((item) => item.json);
}

export function describeFailure(result: ExecuteResult): string {
	const error = result.run?.data.resultData.error;
	return error
		? `${error.message} ${error.description ?? ''}`
		: `${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`;
}

/** What a request looked like on the wire, for exact comparisons. */
export function wire(entry: LoggedRequest) {
	return { method: entry.method, path: entry.path, query: entry.query, body: entry.body };
}

export const apiCallsOf = (entries: LoggedRequest[]) =>
	entries.filter((entry) => entry.path !== '/oauth/access_token');

// ---------- parameter check ----------

const descriptions: Record<string, INodeTypeDescription> = {
	'n8n-nodes-messaging.messagingEmail': new MessagingEmail().description,
	'n8n-nodes-messaging.messagingSms': new MessagingSms().description,
	'n8n-nodes-messaging.messagingTrigger': new MessagingTrigger().description,
	'n8n-nodes-messaging.messagingSmsTrigger': new MessagingSmsTrigger().description,
	'n8n-nodes-messaging.messagingEmailTrigger': new MessagingEmailTrigger().description,
};

/** Parameters n8n adds to every tool variant (`<node>Tool`) and to polling triggers. */
const TOOL_PARAMETERS = new Set(['descriptionType', 'toolDescription']);

/** Required parameters that are missing or empty where shown (n8n's own check, as the editor shows it). */
export function parameterIssues(node: WorkflowNode): string[] {
	const isTool = node.type.endsWith('Tool');
	const description = descriptions[isTool ? node.type.slice(0, -'Tool'.length) : node.type];
	const issues = NodeHelpers.getNodeParametersIssues(
		description.properties,
		node as unknown as INode,
		description,
	);
	return issues ? NodeHelpers.nodeIssuesToString(issues, node as unknown as INode) : [];
}

/**
 * Every parameter path of a Messaging node that its description does not define where it is set (n8n drops such
 * parameters silently). Covers top-level names with their displayOptions, collection options and
 * fixedCollection groups and fields.
 */
export function unknownParameters(node: WorkflowNode): string[] {
	const isTool = node.type.endsWith('Tool');
	const description = descriptions[isTool ? node.type.slice(0, -'Tool'.length) : node.type];
	if (!description) throw new Error(`No description for ${node.type}`);
	const properties = [...description.properties];
	const resolved = NodeHelpers.getNodeParameters(
		properties,
		node.parameters as INodeParameters,
		true,
		false,
		node as unknown as INode,
		description,
	) as INodeParameters;
	const problems: string[] = [];
	for (const [name, value] of Object.entries(node.parameters)) {
		if (isTool && TOOL_PARAMETERS.has(name)) continue;
		if (description.polling && name === 'pollTimes') continue;
		const shown = properties.filter(
			(property) =>
				property.name === name &&
				NodeHelpers.displayParameter(resolved, property, node as unknown as INode, description),
		);
		if (shown.length === 0) {
			problems.push(name);
			continue;
		}
		problems.push(...nestedProblems(shown[0], value, name));
	}
	return problems;
}

function nestedProblems(property: INodeProperties, value: unknown, path: string): string[] {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
	const problems: string[] = [];
	if (property.type === 'collection') {
		const options = (property.options ?? []) as INodeProperties[];
		for (const [key, nested] of Object.entries(value)) {
			const option = options.find((candidate) => candidate.name === key);
			if (!option) problems.push(`${path}.${key}`);
			else problems.push(...nestedProblems(option, nested, `${path}.${key}`));
		}
	} else if (property.type === 'fixedCollection') {
		const groups = (property.options ?? []) as Array<{ name: string; values: INodeProperties[] }>;
		for (const [groupName, rows] of Object.entries(value)) {
			const group = groups.find((candidate) => candidate.name === groupName);
			if (!group) {
				problems.push(`${path}.${groupName}`);
				continue;
			}
			for (const row of Array.isArray(rows) ? rows : [rows]) {
				for (const key of Object.keys(row as object)) {
					if (!group.values.some((field) => field.name === key))
						problems.push(`${path}.${groupName}.${key}`);
				}
			}
		}
	}
	return problems;
}

// ---------- n8n public API ----------

export interface ApiExecution {
	id: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt?: string;
	workflowId: string;
	data?: Run['data'];
}

export async function executionsOf(
	instance: N8nInstance,
	workflowId: string,
): Promise<ApiExecution[]> {
	const all: ApiExecution[] = [];
	let cursor: string | undefined;
	do {
		const page = (await instance.api(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		)) as { data: ApiExecution[]; nextCursor?: string | null };
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all.sort((a, b) => Number(a.id) - Number(b.id));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value (not undefined) or the time is up. */
export async function waitFor<T>(
	what: string,
	check: () => T | undefined | Promise<T | undefined>,
	timeoutMs: number,
	everyMs = 500,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await sleep(everyMs);
	}
}

/** Items a node gave in the first run of an execution (n8n's public API shape). */
export const itemsOf = (execution: ApiExecution, node: string) =>
	(execution.data?.resultData.runData[node]?.[0]?.data?.main[0] ?? []).map((item) => item.json);

// ---------- the sandbox, from outside ----------

/** A JSON request to the running sandbox: its API (with `apiKey`) or its control routes (`/__sandbox…`). */
export async function sandboxRequest(
	sandboxUrl: string,
	method: string,
	path: string,
	body?: unknown,
	apiKey?: string,
): Promise<Record<string, unknown>> {
	const response = await fetch(`${sandboxUrl}${path}`, {
		method,
		headers: {
			'Content-Type': 'application/json',
			...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(`${method} ${path} → ${response.status} ${await response.text()}`);
	return (await response.json()) as Record<string, unknown>;
}

// ---------- polling triggers in a running n8n ----------

/** A workflow holding one Messaging Trigger (polling every minute) on the sandbox credential. */
export function pollingTriggerWorkflow(
	id: string,
	name: string,
	nodeId: string,
	parameters: Record<string, unknown>,
): Workflow {
	return {
		id,
		name,
		nodes: [
			{
				id: nodeId,
				name: 'Messaging Trigger',
				type: 'n8n-nodes-messaging.messagingTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
				credentials: { messagingServiceApi: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

/**
 * Resolves once `polls` (the poll starts seen in the sandbox's log) holds at least `count` after `since` (real
 * ms); records the wait under `wait: <label>`. Each trigger polls once a minute, so 130 s is a missed poll.
 */
export async function waitForPolls(
	polls: () => LoggedRequest[],
	count: number,
	since: number,
	label: string,
	timings: Record<string, number>,
): Promise<void> {
	const started = Date.now();
	await waitFor(
		`${count} trigger polls (${label})`,
		() => (polls().filter((entry) => entry.receivedAt > since).length >= count ? true : undefined),
		130_000,
	);
	timings[`wait: ${label}`] = Date.now() - started;
}
