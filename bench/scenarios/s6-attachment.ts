/**
 * 6. Attachments: one email with a 7 MB binary attachment made inside the workflow (its Base64 form, 9.3 MB, stays
 * under the service's 10 MB message limit, which Messaging Email checks before sending). Memory growth of the n8n
 * process during the send = peak with the attachment − peak of the same workflow sending the email without it.
 */
import { fmt, int, mb } from '../lib/stats';
import type { Scenario, ScenarioResult } from '../lib/types';
import {
	binaryItem,
	extractToBase64,
	HTTP_ATTACHMENT_BODY,
	HTTP_NO_ATTACHMENT_BODY,
	httpEmailSend,
	isolatedWorkflow,
	oursEmailSend,
} from '../lib/workflows';

const MB = 1024 * 1024;
const size = (smoke: boolean) => (smoke ? 1 * MB : 7 * MB);

export const attachment: Scenario = {
	id: 6,
	title: 'Attachments',
	phase: 'execute',
	prepare: ({ sandbox, smoke }) => {
		const bytes = size(smoke);
		const workflows = [
			isolatedWorkflow('s6ours', 'Bench 6 Messaging Email with attachment', smoke, [
				binaryItem(bytes),
				oursEmailSend('main', {}, { binaryAttachments: 'data' }),
			]),
			isolatedWorkflow('s6oursBase', 'Bench 6 Messaging Email without attachment', smoke, [
				binaryItem(bytes),
				oursEmailSend('main'),
			]),
			isolatedWorkflow('s6http', 'Bench 6 HTTP Request with attachment', smoke, [
				binaryItem(bytes),
				extractToBase64,
				httpEmailSend(sandbox.url, 'main', {}, HTTP_ATTACHMENT_BODY),
			]),
			isolatedWorkflow('s6httpBase', 'Bench 6 HTTP Request without attachment', smoke, [
				binaryItem(bytes),
				httpEmailSend(sandbox.url, 'main', {}, HTTP_NO_ATTACHMENT_BODY),
			]),
		];
		return {
			credentials: ['main'],
			workflows,
			webhooks: smoke ? ['s6ours', 's6oursBase', 's6http', 's6httpBase'] : [],
		};
	},
	async run({ sandbox, n8n, smoke, log }): Promise<ScenarioResult> {
		const bytes = size(smoke);
		sandbox.account.settings.rateLimitPerSecond = 0;
		const run = async (label: string, what: string) => {
			sandbox.log.clear();
			log(`  ${what}…`);
			const outcome = await n8n!.runIsolated(label, smoke);
			const sent = sandbox.log.all().find((entry) => entry.path === '/smtp/emails');
			const attachments =
				(sent?.body as { email?: { attachments_binary?: Record<string, string> } } | undefined)
					?.email?.attachments_binary ?? {};
			const attachedBytes = Object.values(attachments).reduce(
				(sum, value) => sum + Buffer.from(value, 'base64').length,
				0,
			);
			const answer = sent
				? `${sent.status} ${JSON.stringify(sent.responseBody).slice(0, 80)}`
				: 'no request';
			sandbox.log.clear(); // the logged attachment body is not kept
			return {
				outcome,
				attachedBytes,
				answer,
				requestBytes: sent ? Buffer.byteLength(JSON.stringify(sent.body)) : 0,
			};
		};
		const oursBase = await run('s6oursBase', 'Messaging Email, same item, no attachment');
		const ours = await run('s6ours', `Messaging Email with a ${fmt(bytes / MB, 0)} MB attachment`);
		const httpBase = await run('s6httpBase', 'HTTP Request, same item, no attachment');
		const http = await run(
			's6http',
			`HTTP Request (Extract From File → base64 → JSON body) with a ${fmt(bytes / MB, 0)} MB attachment`,
		);
		const growth = (withIt: typeof ours, base: typeof ours) =>
			withIt.outcome.memoryKb - base.outcome.memoryKb;
		const oursGrowth = growth(ours, oursBase);
		const httpGrowth = growth(http, httpBase);
		const multiple = (kb: number) => (kb * 1024) / bytes;
		const memoryLabel = smoke ? 'RSS growth in run (smoke)' : 'Peak memory (n8n process)';
		return {
			id: 6,
			title: 'Attachments',
			setup: [
				`One email with a ${fmt(bytes / MB, 0)} MB binary attachment (text, made by a Code node as n8n binary data; n8n 2.x keeps binary data on disk by default).`,
				'Messaging Email: *Options → Attachments (Binary Properties): data*. HTTP Request: the user must put the file into the JSON body as base64 themselves: *Extract From File → Move File to Base64 String*, then `attachments_binary` by expression.',
				smoke
					? 'Smoke run: webhook runs in the server; memory is resident growth during each run.'
					: 'Each run is a separate `n8n execute` process; growth = its peak resident memory minus the peak of the same workflow sending the same email without the attachment (the binary is still made there).',
				`The service (and the sandbox) refuse messages over 10 MB with 422 *Message size limit exceeded*; Messaging Email refuses a larger attachment before sending anything, so the file is 7 MB (9.3 MB as Base64) and both rows are real sends.`,
				'One run per row: peak memory depends on when V8 collects garbage, so the MB figures vary between runs (by up to a factor of two for the HTTP Request row on this machine); compare the order of magnitude.',
			],
			tables: [
				{
					headers: [
						'Run',
						memoryLabel,
						'Growth over baseline',
						'× attachment size',
						'Attachment bytes the sandbox received',
						'Request body',
						'Answer',
					],
					rows: [
						[
							'Messaging Email, no attachment (baseline)',
							mb(oursBase.outcome.memoryKb),
							'',
							'',
							'',
							mb(oursBase.requestBytes / 1024),
							oursBase.answer,
						],
						[
							'Messaging Email, attachment',
							mb(ours.outcome.memoryKb),
							mb(oursGrowth),
							`${fmt(multiple(oursGrowth), 1)}×`,
							int(ours.attachedBytes),
							mb(ours.requestBytes / 1024),
							ours.answer,
						],
						[
							'HTTP Request, no attachment (baseline)',
							mb(httpBase.outcome.memoryKb),
							'',
							'',
							'',
							mb(httpBase.requestBytes / 1024),
							httpBase.answer,
						],
						[
							'HTTP Request + Extract From File, attachment',
							mb(http.outcome.memoryKb),
							mb(httpGrowth),
							`${fmt(multiple(httpGrowth), 1)}×`,
							int(http.attachedBytes),
							mb(http.requestBytes / 1024),
							http.answer,
						],
					],
				},
			],
			findings: [
				`Sending the ${fmt(bytes / MB, 0)} MB attachment grew n8n's peak memory by ${mb(oursGrowth)} (${fmt(multiple(oursGrowth), 1)}× the file) with Messaging Email and by ${mb(httpGrowth)} (${fmt(multiple(httpGrowth), 1)}×) with Extract From File + HTTP Request.`,
				'Neither streams: the service takes attachments as base64 inside a JSON body, so the file, its base64 text and the serialised body are all in memory at once during the send.',
			],
			summary: [
				[
					`6. ${fmt(bytes / MB, 0)} MB attachment: peak memory growth`,
					`${mb(oursGrowth)} (${fmt(multiple(oursGrowth), 1)}×)`,
					`${mb(httpGrowth)} (${fmt(multiple(httpGrowth), 1)}×)`,
					oursGrowth > 0 ? `${fmt(httpGrowth / oursGrowth, 2)}×` : '–',
				],
			],
			checks: [
				['ours sent the whole attachment', ours.attachedBytes === bytes],
				['HTTP Request sent the whole attachment', http.attachedBytes === bytes],
			],
		};
	},
};
