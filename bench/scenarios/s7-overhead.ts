/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * 7. Node overhead: N sends through n8n-core's WorkflowExecute (test/harness/run-node.ts) against a sandbox that
 * answers instantly, in a child process so its CPU is not counted. CPU of the bench process per item, minus a
 * pass-through node's (the engine and the input items), for: this package's node, n8n's HTTP Request node (loaded
 * from the provisioned n8n) and a bare node calling n8n's request helper (the floor any node pays).
 */
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';

import {
	Expression,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { mapConcurrently } from '../../nodes/shared/transport/pacer';
import { CredentialStore, sandboxCredentials } from '../../test/harness/credentials';
import {
	defaultEngine,
	runNode,
	useExpressionEngine,
	type InputItem,
} from '../../test/harness/run-node';
import { provisionN8n } from '../../scripts/n8n/instance';
import { startChildSandbox } from '../lib/child-sandbox';
import { fmt, int, ratio, seconds } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import { httpEmailSend, oursEmailSend } from '../lib/workflows';

const count = (smoke: boolean) => (smoke ? 200 : 10_000);

/** Returns its input: what the engine and the input items cost without any node work. */
class PassThrough implements INodeType {
	description = {
		displayName: 'Pass Through',
		name: 'passThrough',
		group: ['transform'],
		version: 1,
		description: 'Returns its input',
		defaults: { name: 'Pass Through' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => ({ json: item.json, pairedItem: { item: index } })),
		];
	}
}

/** One POST per item through n8n's authenticated request helper, 5 at a time, nothing else. */
class BareHelper implements INodeType {
	description = {
		displayName: 'Bare Helper',
		name: 'bareHelper',
		group: ['output'],
		version: 1,
		description: 'POST per item',
		defaults: { name: 'Bare Helper' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'messagingServiceApi', required: true }],
		properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const results = await mapConcurrently(items.length, 5, async (index) => {
			const json = items[index].json;
			const body = {
				email: {
					subject: `Hello ${String(json.name)}`,
					from: { name: 'Bench', email: 'sender@sandbox.test' },
					to: [{ email: String(json.email) }],
					html: Buffer.from(String(json.html)).toString('base64'),
				},
			};
			const answer = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'messagingServiceApi',
				{ method: 'POST', url, body, json: true },
			)) as object;
			return { json: { ...answer }, pairedItem: { item: index } } as INodeExecutionData;
		});
		return [results];
	}
}

/**
 * The physical floor: the same POSTs with Node's own http client over keep-alive connections, 5 at a time, no n8n
 * at all. CPU per request of this, against the sandbox in its child process.
 */
async function rawKeepAliveCpuUs(url: string, apiKey: string, n: number): Promise<number> {
	const agent = new Agent({ keepAlive: true, maxSockets: 5 });
	const target = new URL(`${url}/smtp/emails`);
	const post = (index: number) =>
		new Promise<void>((resolve, reject) => {
			const body = JSON.stringify({
				email: {
					html: Buffer.from(`<p>Hello User ${index}</p>`).toString('base64'),
					subject: 'Hello',
					from: { email: 'sender@sandbox.test' },
					to: [{ email: `user${index}@example.com` }],
				},
			});
			const request = httpRequest(
				target,
				{
					method: 'POST',
					agent,
					headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
				},
				(response) => {
					response.resume();
					response.on('end', () =>
						response.statusCode === 200
							? resolve()
							: reject(new Error(`HTTP ${response.statusCode}`)),
					);
				},
			);
			request.on('error', reject);
			request.end(body);
		});
	await mapConcurrently(Math.min(200, n), 5, post); // warm-up: connections open
	const before = process.cpuUsage();
	await mapConcurrently(n, 5, post);
	const cpu = process.cpuUsage(before);
	agent.destroy();
	return (cpu.user + cpu.system) / n;
}

/** n8n's HTTP Request node class from the provisioned n8n (the same code the real-n8n scenarios run). */
async function loadHttpRequestNode(): Promise<INodeType> {
	const bin = await provisionN8n();
	const modules = bin.slice(0, bin.lastIndexOf('/node_modules/') + '/node_modules'.length);
	const path = join(modules, 'n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { HttpRequest } = require(path) as {
		HttpRequest: new () => { nodeVersions: Record<string, INodeType> };
	};
	const node = new HttpRequest().nodeVersions['4.5'];
	// n8n lets the HTTP Request node use any credential type (predefined credential type) by its type name
	// n8n-nodes-base.httpRequest; the harness registers nodes under this package's prefix, so declare the one it uses.
	return {
		description: {
			...node.description,
			credentials: [
				...(node.description.credentials ?? []),
				{ name: 'messagingServiceApi', required: false },
			],
		},
		execute: node.execute,
	} as INodeType;
}

export const overhead: Scenario = {
	id: 7,
	title: 'Node overhead',
	phase: 'inProcess',
	async run({ smoke, log }): Promise<ScenarioResult> {
		const n = count(smoke);
		const sandbox = await startChildSandbox();
		try {
			const credentials = new CredentialStore(sandboxCredentials(sandbox));
			const items = (size: number): InputItem[] =>
				Array.from({ length: size }, (_, i) => ({
					json: {
						email: `user${i}@example.com`,
						name: `User ${i}`,
						html: `<p>Hello User ${i}, your code is ${1000 + i}.</p>`,
					},
				}));
			const httpNode = await loadHttpRequestNode();
			const sides = [
				{
					key: 'pass',
					label: 'Pass-through node (engine + input items only)',
					node: new PassThrough() as INodeType,
					parameters: {},
				},
				{
					key: 'bare',
					label: 'Bare node: n8n request helper per item (the floor)',
					node: new BareHelper() as INodeType,
					parameters: { url: `${sandbox.url}/smtp/emails` },
				},
				{
					key: 'ours',
					label: 'Messaging Email → Send (pacing off)',
					node: new MessagingEmail() as INodeType,
					parameters: oursEmailSend('x', { requestsPerSecond: 0 }).parameters,
				},
				{
					key: 'http',
					label: 'HTTP Request node (default options)',
					node: httpNode,
					parameters: httpEmailSend(sandbox.url, 'x').parameters,
				},
			];
			// n8n 2.x's production engine unless N8N_EXPRESSION_ENGINE=legacy: expressions run in an isolate, taken
			// eagerly per execution as n8n does by default.
			await useExpressionEngine(defaultEngine(), { lazyAcquire: false });
			const engine = Expression.getActiveImplementation();
			log(`  expression engine: ${engine}`);
			const measured: Record<string, { cpu: number; wall: number; ok: number }> = {};
			for (const side of sides) {
				await runNode({
					node: side.node,
					parameters: side.parameters as never,
					items: items(Math.min(200, n)),
					credentials,
					engine: defaultEngine(),
				}); // warm-up (JIT, token)
				global.gc?.();
				log(`  ${side.label}: ${n} items…`);
				const cpuBefore = process.cpuUsage();
				const started = Date.now();
				const result = await runNode({
					node: side.node,
					parameters: side.parameters as never,
					items: items(n),
					credentials,
					engine: defaultEngine(),
				});
				const cpu = process.cpuUsage(cpuBefore);
				const ok = result.items.filter(
					(item) =>
						item.json.error === undefined &&
						(side.key === 'pass' || item.json.result === true || item.json.id !== undefined),
				).length;
				if (result.error) throw new Error(`${side.label}: ${result.error.message}`);
				measured[side.key] = { cpu: (cpu.user + cpu.system) / 1e6, wall: Date.now() - started, ok };
			}
			const base = measured.pass.cpu;
			const perItemUs = (key: string) => ((measured[key].cpu - base) / n) * 1e6;
			const rows = sides.map((side) => [
				side.label,
				`${int(measured[side.key].ok)} / ${int(n)}`,
				seconds(measured[side.key].wall),
				`${fmt(measured[side.key].cpu, 2)} s`,
				side.key === 'pass' ? '(baseline)' : `${fmt(perItemUs(side.key), 0)} µs`,
			]);
			log(`  Raw keep-alive POSTs (Node's http, no n8n): ${n} requests…`);
			const floor = await rawKeepAliveCpuUs(sandbox.url, sandbox.account.apiKey, n);
			rows.push([
				"Raw keep-alive POST (Node's http client, no n8n): the physical floor",
				`${int(n)} / ${int(n)}`,
				'–',
				'–',
				`${fmt(floor, 0)} µs`,
			]);
			const ours = perItemUs('ours');
			const http = perItemUs('http');
			const bare = perItemUs('bare');
			return {
				id: 7,
				title: 'Node overhead',
				setup: [
					`Expression engine: ${engine} (${engine === 'vm' ? "n8n 2.x's default, N8N_EXPRESSION_ENGINE=vm: expressions evaluated in an isolate" : 'the in-process legacy engine'}).`,
					`${int(n)} sends per side through n8n-core's WorkflowExecute (Input → node, test/harness/run-node.ts; the repository's n8n-core), one process, after a 200-item warm-up. The sandbox runs in a child process with no rate limit, so its CPU is not in the figures.`,
					"CPU = user + system time of the bench process during the run, minus the pass-through run (the engine and input items); per item. Messaging Email with *Max Requests per Second: 0* (5 concurrent); the HTTP Request node is n8n-nodes-base 2.40.7's, loaded from the provisioned n8n (the harness runs every node as typeVersion 1; the HTTP Request node's code paths for 4.x differ only in redirect defaults).",
				],
				tables: [
					{
						headers: ['Node', 'Accepted', 'Wall time', 'CPU', 'CPU per item (over pass-through)'],
						rows,
					},
				],
				findings: [
					`On the ${engine} expression engine, Messaging Email costs ${fmt(ours, 0)} µs of CPU per send, the HTTP Request node ${fmt(http, 0)} µs (HTTP ÷ ours ${ratio(ours, http, 2)}); n8n's own request helper alone costs ${fmt(bare, 0)} µs, so validation, pacing and error handling ${ours >= bare ? `add ${fmt(ours - bare, 0)} µs per item` : `cost less than the redirect handling the bare helper does by n8n's default (ours turns it off: the service never redirects), ${fmt(bare - ours, 0)} µs per item less in all`} (ours ÷ helper ${ratio(bare, ours, 2)}; goals: ≤ 0.6 × HTTP Request, ≤ 1.15 × helper). A raw keep-alive POST with no n8n costs ${fmt(floor, 0)} µs: the rest of the helper's cost is n8n's (a new connection per request, axios, its redirect wrapper), which no node can avoid.`,
				],
				headline: {
					oursUs: Math.round(ours),
					httpRequestUs: Math.round(http),
					helperUs: Math.round(bare),
					floorUs: Math.round(floor),
					engine,
				},
				summary: [
					[
						`7. CPU per send through n8n-core (${engine} engine)`,
						`${fmt(ours, 0)} µs`,
						`${fmt(http, 0)} µs`,
						ratio(ours, http, 2),
					],
				],
				checks: [
					['ours sent every item', measured.ours.ok === n],
					['HTTP Request sent every item', measured.http.ok === n],
				],
			};
		} finally {
			await sandbox.stop();
		}
	},
};
