/**
 * 4. Token cost: E executions × I items with client-id/secret auth, each side on its own fresh credential (its own
 * client id/secret: bench/run.ts).
 * Token requests are counted in the sandbox log (POST /oauth/access_token).
 */
import { int, ratio, seconds, sleep } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import {
	emailItems,
	httpEmailSend,
	httpEmailSendWithHeader,
	httpTokenThenSend,
	linearWorkflow,
	oursEmailSend,
	workflowId,
} from '../lib/workflows';

const counts = (smoke: boolean) => ({ executions: smoke ? 3 : 50, items: smoke ? 5 : 20 });

export const tokenCost: Scenario = {
	id: 4,
	title: 'Token cost',
	phase: 'server',
	prepare: ({ sandbox, smoke }) => {
		const n = counts(smoke);
		const client = {
			clientId: sandbox.account.clientId,
			clientSecret: sandbox.account.clientSecret,
		};
		return {
			credentials: ['tokOurs', 'tokHttp'],
			workflows: [
				linearWorkflow('s4ours', 'Bench 4 Messaging Email', { webhookPath: 'bench-s4-ours' }, [
					emailItems(n.items),
					oursEmailSend('tokOurs', { requestsPerSecond: 0 }),
				]),
				linearWorkflow(
					's4http',
					'Bench 4 HTTP Request (credential)',
					{ webhookPath: 'bench-s4-http' },
					[emailItems(n.items), httpEmailSend(sandbox.url, 'tokHttp')],
				),
				linearWorkflow(
					's4httpToken',
					'Bench 4 HTTP Request (token node)',
					{ webhookPath: 'bench-s4-httpToken' },
					[
						...httpTokenThenSend(sandbox.url, client),
						emailItems(n.items),
						httpEmailSendWithHeader(sandbox.url),
					],
				),
			],
			webhooks: ['s4ours', 's4http', 's4httpToken'],
		};
	},
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const n = counts(smoke);
		sandbox.account.settings.rateLimitPerSecond = 0;
		const sides = [
			{ key: 'ours', label: 'Messaging Email (its credential, client id/secret)' },
			{
				key: 'http',
				label: "HTTP Request, this package's credential as predefined credential type",
			},
			{
				key: 'httpToken',
				label: 'HTTP Request, no credential type: a token request node, then a Bearer header',
			},
		];
		const rows: string[][] = [];
		const tokens: Record<string, number> = {};
		const firstTokens: Record<string, number> = {};
		for (const side of sides) {
			await sleep(300);
			sandbox.log.clear();
			log(`  ${side.label}: ${n.executions} executions × ${n.items} items…`);
			const started = Date.now();
			let failed = 0;
			for (let execution = 0; execution < n.executions; execution++) {
				const outcome = await n8n!.runWebhook(`bench-s4-${side.key}`, workflowId(`s4${side.key}`));
				failed +=
					outcome.send.items.filter((item) => item.json.error !== undefined).length +
					Math.max(0, n.items - outcome.send.items.length);
				if (execution === 0)
					firstTokens[side.key] = sandbox.log
						.all()
						.filter((entry) => entry.path === '/oauth/access_token').length;
			}
			const entries = sandbox.log.all();
			tokens[side.key] = entries.filter((entry) => entry.path === '/oauth/access_token').length;
			const sends = entries.filter(
				(entry) => entry.path === '/smtp/emails' && entry.status === 200,
			).length;
			rows.push([
				side.label,
				int(n.executions * n.items),
				int(tokens[side.key]),
				int(firstTokens[side.key]),
				`${int(sends)} / ${int(n.executions * n.items)}`,
				int(failed),
				seconds(Date.now() - started),
			]);
		}
		return {
			id: 4,
			title: 'Token cost',
			setup: [
				`${int(n.executions)} executions one after the other × ${int(n.items)} emails each, webhook-triggered in the same n8n server; each side starts with a fresh *Client ID and Secret* credential (no token stored yet).`,
				"The third row is what a user without this package's credential builds: an HTTP Request node that asks `/oauth/access_token` (client id and secret in the workflow), and the send with `Authorization: Bearer {{ $('Get token').first().json.access_token }}`.",
				'Sandbox rate limit off and Messaging Email pacing off (*Max Requests per Second: 0*): tokens, not speed, are the subject. Token requests counted in the sandbox log.',
			],
			tables: [
				{
					headers: [
						'Side',
						'Emails',
						'Token requests',
						'… in the first execution',
						'Delivered',
						'Items failed',
						'Wall time (all executions)',
					],
					rows,
				},
			],
			findings: [
				`Messaging Email made ${int(tokens.ours)} token request(s) for ${int(n.executions)} executions: n8n stores the token with the credential and every execution reuses it until a 401; within the execution, it asks the sender list first, alone, so one token serves all its requests.`,
				`The HTTP Request node with the same kind of credential: ${int(tokens.http)}, ${int(firstTokens.http)} of them in the first execution${firstTokens.http > 1 ? ': its items are sent all at once, and each one that starts before the first token is stored asks for its own' : ''}. Without a credential type (token node): ${int(tokens.httpToken)}, one per execution.`,
			],
			summary: [
				[
					`4. Token requests, ${int(n.executions)} executions × ${int(n.items)} items`,
					int(tokens.ours),
					`${int(tokens.http)} (credential) / ${int(tokens.httpToken)} (token node)`,
					ratio(tokens.ours, tokens.httpToken, 0),
				],
			],
			checks: [
				// Each side has a client id/secret of its own (bench/run.ts): no token is held before its first run.
				['ours made exactly one token request', tokens.ours === 1],
				['the token-node side made one per execution', tokens.httpToken === n.executions],
			],
		};
	},
};
