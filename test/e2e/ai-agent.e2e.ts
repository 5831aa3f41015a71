/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSandbox, type Sandbox } from '../../sandbox';
import type { OutboxMessage } from '../../sandbox/outbox';
import { DEFAULT_N8N_VERSION, type N8nInstance } from '../../scripts/n8n/instance';
import { sharedN8n } from './shared-n8n';
import {
	API_KEY_CREDENTIAL_ID,
	API_KEY_CREDENTIAL_NAME,
	SANDBOX_CREDENTIALS,
	credentialRecords,
	waitFor,
	type ApiExecution,
	type Workflow,
} from './helpers';
import {
	executionIdOf,
	executionOf,
	finishedExecution,
	lastItemsOf,
	outboxKey,
	outboxOf,
	postToWebhook,
	requestPage,
} from './send-and-wait-helpers';

/**
 * An AI Agent gated by a person, end to end in a running n8n 2.40.7: Webhook → AI Agent, whose tool (Messaging SMS →
 * Send to Numbers) sits behind Messaging Email's (or Messaging SMS's) human review, the …HitlTool node n8n generates
 * from the Send and Wait operation. n8n's OpenAI Chat Model node talks to a small OpenAI-compatible model server of
 * this test on 127.0.0.1 (chat completions): its first answer calls the tool, its answer to the tool's result
 * finishes. Approve from the message's link → the SMS reaches the sandbox once and the agent finishes with the
 * tool's result; Decline with a comment → no SMS, and the agent receives n8n's refusal with the comment as the
 * reviewer's feedback (the node's `data.chatInput`).
 */
const CUSTOMER = '380986235698';
const SMS_TEXT = 'Your refund of 120 EUR is approved.';
const OPENAI_CREDENTIAL = { id: 'e2eFakeOpenAi', name: 'Fake OpenAI (test server)' };

let sandbox: Sandbox;
let n8n: N8nInstance;
let model: FakeModel;

// ---------- a minimal OpenAI-compatible chat completions server ----------

interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: unknown[];
}
interface ChatRequest {
	model: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: Array<{
		function: { name: string; parameters?: { properties?: Record<string, unknown> } };
	}>;
}

interface FakeModel {
	url: string;
	requests: ChatRequest[];
	close: () => Promise<void>;
}

const text = (content: unknown) =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part) => (part as { text?: string }).text ?? '').join('')
			: '';

/**
 * The model's turn: with no tool result yet, call the first tool (the gated Send SMS) with the phone and text; once
 * the conversation holds a tool result, answer with a final message that quotes it.
 */
function modelTurn(request: ChatRequest): {
	content?: string;
	toolCall?: { name: string; arguments: string };
} {
	const toolResult = request.messages.filter((message) => message.role === 'tool').at(-1);
	if (toolResult) return { content: `Tool result: ${text(toolResult.content)}` };
	const tool = request.tools?.[0]?.function;
	if (!tool) return { content: 'No tool was offered.' };
	const smsArguments = { phones: `+${CUSTOMER}`, message: SMS_TEXT };
	// A human-review gated tool takes the tool's own parameters and the review layer's (n8n's hitl toolkit).
	const gated = tool.parameters?.properties?.toolParameters !== undefined;
	return {
		toolCall: {
			name: tool.name,
			arguments: JSON.stringify(
				gated ? { toolParameters: smsArguments, hitlParameters: {} } : smsArguments,
			),
		},
	};
}

function answer(request: ChatRequest, response: ServerResponse) {
	const turn = modelTurn(request);
	const id = `chatcmpl-${randomUUID()}`;
	const created = Math.floor(Date.now() / 1000);
	const toolCalls = turn.toolCall
		? [{ id: `call_${randomUUID().slice(0, 8)}`, type: 'function', function: turn.toolCall }]
		: undefined;
	const finish = toolCalls ? 'tool_calls' : 'stop';
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
	if (!request.stream) {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.end(
			JSON.stringify({
				id,
				object: 'chat.completion',
				created,
				model: request.model,
				choices: [
					{
						index: 0,
						message: { role: 'assistant', content: turn.content ?? null, tool_calls: toolCalls },
						finish_reason: finish,
					},
				],
				usage,
			}),
		);
		return;
	}
	response.writeHead(200, { 'Content-Type': 'text/event-stream' });
	const chunk = (delta: unknown, finishReason: string | null) =>
		response.write(
			`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
		);
	chunk({ role: 'assistant', content: turn.content ?? '' }, null);
	if (toolCalls) chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null);
	chunk({}, finish);
	response.write('data: [DONE]\n\n');
	response.end();
}

async function startFakeModel(): Promise<FakeModel> {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
				response.writeHead(404, { 'Content-Type': 'application/json' });
				response.end(
					JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }),
				);
				return;
			}
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
			requests.push(body);
			answer(body, response);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

// ---------- the workflows ----------

type Gate = 'email' | 'sms';
const paths: Record<Gate, string> = { email: randomUUID(), sms: randomUUID() };
const messaging = {
	messagingServiceApi: { id: API_KEY_CREDENTIAL_ID, name: API_KEY_CREDENTIAL_NAME },
};

const gateNode = (gate: Gate) =>
	gate === 'email'
		? {
				type: 'n8n-nodes-messaging.messagingEmailHitlTool',
				parameters: {
					fromEmail: { __rl: true, mode: 'email', value: 'sender@sandbox.test' },
					to: 'Manager <manager@example.com>',
					subject: 'e2e agent wants to text a customer',
					approvalOptions: { values: { approvalType: 'double', comment: 'onDecline' } },
				},
			}
		: {
				type: 'n8n-nodes-messaging.messagingSmsHitlTool',
				parameters: {
					sender: { __rl: true, mode: 'name', value: 'Sandbox' },
					phone: '+380986235611',
					approvalOptions: { values: { approvalType: 'double', comment: 'onDecline' } },
				},
			};

function workflow(gate: Gate): Workflow {
	const node = (
		name: string,
		type: string,
		typeVersion: number,
		parameters: Record<string, unknown>,
		extra = {},
	) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [0, 0] as [number, number],
		parameters,
		...extra,
	});
	return {
		id: `e2eAgentGate${gate === 'email' ? 'Email' : 'Sms'}`,
		name: `e2e: AI agent gated by ${gate}`,
		nodes: [
			node(
				'Start',
				'n8n-nodes-base.webhook',
				2,
				{ httpMethod: 'POST', path: paths[gate], options: {} },
				{ webhookId: paths[gate] },
			),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
				promptType: 'define',
				text: '={{ $json.body.request }}',
				options: {},
			}),
			node(
				'Model',
				'@n8n/n8n-nodes-langchain.lmChatOpenAi',
				1.2,
				{ model: { __rl: true, mode: 'id', value: 'fake-model' }, options: {} },
				{ credentials: { openAiApi: OPENAI_CREDENTIAL } },
			),
			node('Human review', gateNode(gate).type, 1, gateNode(gate).parameters, {
				webhookId: randomUUID(),
				credentials: messaging,
			}),
			node(
				'Send SMS',
				'n8n-nodes-messaging.messagingSmsTool',
				1,
				{
					resource: 'campaign',
					operation: 'sendToNumbers',
					sender: { __rl: true, mode: 'name', value: 'Sandbox' },
					phones: "={{ $fromAI('phones', 'The phone numbers to text', 'string') }}",
					body: "={{ $fromAI('message', 'The text of the SMS', 'string') }}",
				},
				{ credentials: messaging },
			),
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			Model: { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
			'Send SMS': { ai_tool: [[{ node: 'Human review', type: 'ai_tool', index: 0 }]] },
			'Human review': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		active: false,
	};
}

// ---------- driving it ----------

const smsToCustomer = async () =>
	(await outboxOf(sandbox.url)).filter(
		(message) => message.kind === 'sms' && message.phones.includes(CUSTOMER),
	);

const agentOutput = (run: ApiExecution) => lastItemsOf(run, 'AI Agent');

/** Starts the gated agent and waits for the review message; the execution then waits for a person. */
async function askAgent(gate: Gate) {
	const before = new Set((await outboxOf(sandbox.url)).map(outboxKey));
	const requestsBefore = model.requests.length;
	await postToWebhook(
		n8n,
		paths[gate],
		{ request: `Tell +${CUSTOMER} that the refund is approved.` },
		`the webhook of the ${gate} gate`,
	);
	const review = await waitFor(
		`the ${gate} review message`,
		async () => {
			const fresh = (await outboxOf(sandbox.url)).filter(
				(message) => !before.has(outboxKey(message)),
			);
			if (fresh.some((message) => message.kind === 'sms' && message.phones.includes(CUSTOMER)))
				throw new Error('the gated SMS went out before anybody answered');
			return fresh.find((message) => message.links.length > 0);
		},
		60_000,
		250,
	);
	const executionId = executionIdOf(review.links[0]);
	expect((await executionOf(n8n, executionId)).status).toBe('waiting');
	expect(model.requests.length - requestsBefore).toBe(1);
	return { review, executionId, requestsBefore };
}

async function press(link: string, approved: boolean, comment?: string) {
	const answer = await requestPage(
		link,
		'POST',
		`approved=${approved}${comment === undefined ? '' : `&comment=${encodeURIComponent(comment)}`}`,
	);
	expect(answer.status).toBe(200);
}

/** The link a person presses: the email has one per choice; the SMS one link to a page with both. */
const linkFor = (review: OutboxMessage, approved: boolean) =>
	review.links.find((link) => new URL(link).searchParams.get('approved') === String(approved)) ??
	review.links[0];

const onN8n2 = Number(DEFAULT_N8N_VERSION.split('.')[0]) >= 2;

beforeAll(async () => {
	if (!onN8n2) return;
	sandbox = await startSandbox({ credentials: SANDBOX_CREDENTIALS });
	model = await startFakeModel();
	n8n = await sharedN8n();
	await n8n.importCredentials([
		...credentialRecords(sandbox.url),
		{
			...OPENAI_CREDENTIAL,
			type: 'openAiApi',
			data: { apiKey: 'sk-test-not-a-key', url: model.url },
		},
	]);
	const workflows = (['email', 'sms'] as const).map(workflow);
	await n8n.importWorkflows(workflows);
	for (const entry of workflows) await n8n.activateNow(entry.id);
});

afterAll(async () => {
	await model?.close();
	await sandbox?.close();
});

// n8n generates the human-review (…HitlTool) nodes from 2.x on.
(onN8n2 ? describe : describe.skip).each(['email', 'sms'] as const)(
	'an AI agent gated by Messaging %s human review',
	(gate) => {
		test('Approve: the SMS reaches the service once and the agent finishes with its result', async () => {
			const smsBefore = (await smsToCustomer()).length;
			const { review, executionId, requestsBefore } = await askAgent(gate);
			if (gate === 'email' && review.kind === 'email') {
				expect(review.subject).toBe('e2e agent wants to text a customer');
				expect(review.to).toEqual(['manager@example.com']);
			}
			expect(await smsToCustomer()).toHaveLength(smsBefore);
			await press(linkFor(review, true), true);
			const run = await finishedExecution(n8n, executionId);
			expect(run.status).toBe('success');
			const sent = (await smsToCustomer()).slice(0, -smsBefore || undefined);
			expect(sent.map((message) => message.kind === 'sms' && message.body)).toEqual([SMS_TEXT]);
			const [finalTurn] = model.requests.slice(requestsBefore + 1);
			expect(model.requests.length - requestsBefore).toBe(2);
			const toolMessage = finalTurn.messages.find((message) => message.role === 'tool');
			expect(text(toolMessage?.content)).toContain('campaign_id');
			const [output] = agentOutput(run);
			expect(String(output.output)).toBe(`Tool result: ${text(toolMessage?.content)}`);
			// Later presses change nothing: the run is over, and the SMS went out once.
			await press(linkFor(review, true), true);
			expect(await smsToCustomer()).toHaveLength(smsBefore + 1);
		});

		test('Decline with a comment: no SMS, and the agent receives the refusal with the comment as feedback', async () => {
			const smsBefore = (await smsToCustomer()).length;
			const { review, executionId, requestsBefore } = await askAgent(gate);
			await press(linkFor(review, false), false, 'Check the amount with finance first');
			const run = await finishedExecution(n8n, executionId);
			expect(run.status).toBe('success');
			expect((await smsToCustomer()).length).toBe(smsBefore);
			expect(model.requests.length - requestsBefore).toBe(2);
			const toolMessage = model.requests
				.at(-1)!
				.messages.find((message) => message.role === 'tool');
			expect(text(toolMessage?.content)).toMatch(
				/The user reviewed your planned tool call to Send SMS \(id: call_\w+\) and provided feedback: \\?"Check the amount with finance first\\?"/,
			);
			expect(String(agentOutput(run)[0].output)).toBe(`Tool result: ${text(toolMessage?.content)}`);
		});
	},
);
