/**
 * Days of SMS campaigns against the sandbox, polled by the Messaging Trigger, compared with a full-read oracle.
 *
 * A seeded plan of campaigns (created through the service API at their time, each phone with its own way through
 * the statuses: fast and slow, some staying at Sent; scheduled, cancelled, deleted, emulated and still-being-formed
 * campaigns; one-off 404s from a proxy and from the service; a campaign failing for an hour; restarts) plays out on
 * the sandbox clock. Before each poll the oracle reads every campaign in full (the sandbox's control state: every
 * phone's status, forming or not, no shortcuts) and notes when each status was first there. The trigger's output is
 * then compared with it: missing, duplicated and unexpected events, and the lag in polls.
 *
 * Used by test/trigger/sms-three-days.test.ts and bench/scenarios/s9-sms-events.ts. The clock is the caller's
 * (jest's faked Date in tests, a shifted Date.now in the bench): `setNow` moves n8n and the sandbox together.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from './credentials';
import { PollHarness, type PersistenceMode, type PollOutcome } from './poll-harness';

export interface SmsModelOptions {
	seed: number;
	/** Simulated start (ms); campaigns are created from then on. */
	start: number;
	days: number;
	campaignsPerDay: number;
	phonesPerCampaign: number;
	pollEveryMinutes: number;
	/** After the plan's days: polls every `settleEveryMinutes` for `settleHours`, so every phone had time to settle. */
	settleHours: number;
	settleEveryMinutes: number;
	/** The account's limit while the trigger polls (the plan's own API calls run with the limit off). */
	rateLimitPerSecond: number;
	/** Phones are sent within this many minutes of the send time, and final within `finalMinutes` after that. */
	sentMinutes: number;
	finalMinutes: number;
	/** Share of phones that take hours instead (up to 6 hours after sending) and share that stay at Sent. */
	slowShare: number;
	stuckShare: number;
	/** Shares of campaigns: scheduled hours ahead, cancelled before sending, formed after the send time, deleted. */
	scheduledShare: number;
	cancelledShare: number;
	formingShare: number;
	deletedShare: number;
	/** One-off 404s (alternately a proxy's page and the service's JSON) every this many polls; 0: none. */
	notFoundEveryPolls: number;
	/** A campaign failing with 500 for an hour, this many hours after the start; undefined: none. */
	failingHourAt?: number;
	/** n8n restarts (crash, then activation) every this many polls; 0: never. */
	restartEveryPolls: number;
	persistence: PersistenceMode;
	/** The trigger's Request Options (undefined: the defaults, 10 requests/s). */
	requestsPerSecond?: number;
	/** Moves n8n's and the sandbox's clock to `ms`, or leaves it where it is when it is past that already. */
	setNow: (ms: number) => void;
	log?: (line: string) => void;
}

export interface SmsModelFigures {
	polls: number;
	/** Polls in the plan's days (every `pollEveryMinutes`); the rest only let the last phones settle. */
	planPolls: number;
	campaigns: number;
	/** API requests per poll in the plan's days (accepted + rate-limited), from the sandbox log. */
	requestsPerPoll: number[];
	accepted: number;
	rateLimited: number;
	expected: number;
	emitted: number;
	missing: string[];
	duplicates: string[];
	unexpected: string[];
	/**
	 * For the statuses the oracle first saw in the plan's days: polls between that and their emission (0: by the first
	 * poll after the status was reached).
	 */
	lagPolls: number[];
	/** Real seconds the polls took. */
	pollSeconds: number;
	pollErrors: string[];
}

/** A small seeded generator (mulberry32): the same plan for the same seed. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface PlannedPhone {
	phone: string;
	sentAfterSeconds: number | null;
	finalAfterSeconds: number | null;
	final: 2 | 12;
}

interface PlannedCampaign {
	index: number;
	createdAt: number;
	/** Send date asked for (scheduled campaigns); otherwise the sandbox's moderation delay decides. */
	scheduledAt?: number;
	phones: PlannedPhone[];
	formingSeconds?: number;
	cancel: boolean;
	/** Deleted this long after creation (once its phones no longer change). */
	deleteAfterMs?: number;
	emulate: boolean;
	id?: string;
}

interface Action {
	at: number;
	order: number;
	run: () => Promise<void>;
}

const serviceTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export class SmsModel {
	readonly plan: PlannedCampaign[] = [];
	private readonly actions: Action[] = [];
	private readonly firstSeen = new Map<string, number>();
	private readonly emittedAt = new Map<string, number[]>();

	constructor(
		private readonly sandbox: Sandbox,
		private readonly options: SmsModelOptions,
	) {
		const next = random(options.seed);
		const total = Math.round(options.days * options.campaignsPerDay);
		let phoneNumber = 0;
		const moderation = 120; // the sandbox's default moderation delay (s)
		for (let index = 0; index < total; index++) {
			const createdAt = options.start + Math.floor(next() * options.days * 24 * HOUR);
			const scheduled = next() < options.scheduledShare;
			const cancel = next() < options.cancelledShare;
			const formingSeconds =
				next() < options.formingShare ? 60 + Math.floor(next() * 840) : undefined;
			const emulate = next() < 0.005;
			const phones: PlannedPhone[] = [];
			for (let count = 0; count < options.phonesPerCampaign; count++) {
				const sent = Math.floor(next() * options.sentMinutes * 60);
				const slow = next() < options.slowShare;
				const staysSent = next() < options.stuckShare;
				const after = slow
					? 3600 + Math.floor(next() * 5 * 3600)
					: 30 + Math.floor(next() * options.finalMinutes * 60);
				phones.push({
					phone: `3806${String(1_000_000 + phoneNumber++).padStart(8, '0')}`,
					sentAfterSeconds: sent,
					finalAfterSeconds: staysSent ? null : sent + after,
					final: next() < 0.15 ? 12 : 2,
				});
			}
			const scheduledAt = scheduled ? createdAt + HOUR + Math.floor(next() * 11 * HOUR) : undefined;
			const sendAt = Math.max(createdAt + moderation * 1000, scheduledAt ?? 0);
			const lastChange = cancel
				? 0
				: Math.max(
						...phones.map((phone) => phone.finalAfterSeconds ?? phone.sentAfterSeconds ?? 0),
					);
			// Deleted 3 hours after its last change (the oracle and the trigger saw the same by then).
			const deleteAfterMs =
				next() < options.deletedShare
					? sendAt - createdAt + (lastChange + 3 * 3600) * 1000
					: undefined;
			this.plan.push({
				index,
				createdAt,
				scheduledAt,
				phones,
				formingSeconds,
				cancel,
				deleteAfterMs,
				emulate,
			});
		}
		this.plan.sort((a, b) => a.createdAt - b.createdAt);
		let order = 0;
		for (const campaign of this.plan) {
			this.actions.push({
				at: campaign.createdAt,
				order: order++,
				run: () => this.create(campaign),
			});
			if (campaign.cancel && !campaign.emulate)
				this.actions.push({
					at: campaign.createdAt + 30_000,
					order: order++,
					run: async () => {
						await this.api('PUT', `/sms/campaigns/cancel/${campaign.id}`);
					},
				});
			if (campaign.deleteAfterMs !== undefined && !campaign.emulate)
				this.actions.push({
					at: campaign.createdAt + campaign.deleteAfterMs,
					order: order++,
					run: async () => {
						await this.api('DELETE', '/sms/campaigns', { id: Number(campaign.id) });
					},
				});
		}
		if (options.failingHourAt !== undefined) {
			const at = options.start + options.failingHourAt * HOUR;
			this.actions.push({
				at,
				order: order++,
				run: async () => {
					// The campaign sent most recently before now: still delivering.
					const recent = [...this.plan]
						.reverse()
						.find(
							(campaign) => campaign.id && !campaign.cancel && campaign.createdAt < at - 5 * MINUTE,
						);
					if (!recent) return;
					await this.control('POST', '/faults', {
						path: `/sms/campaigns/info/${recent.id}`,
						status: 500,
						body: { message: 'Internal error', error_code: 500 },
						until: new Date(at + HOUR).toISOString(),
					});
					this.options.log?.(`campaign ${recent.id} fails for an hour from ${serviceTime(at)}`);
				},
			});
		}
		this.actions.sort((a, b) => a.at - b.at || a.order - b.order);
	}

	/** Plays the plan, polling every `pollEveryMinutes`, then polls on until every phone had time to settle. */
	async run(): Promise<SmsModelFigures> {
		const o = this.options;
		const figures: SmsModelFigures = {
			polls: 0,
			planPolls: 0,
			campaigns: this.plan.length,
			requestsPerPoll: [],
			accepted: 0,
			rateLimited: 0,
			expected: 0,
			emitted: 0,
			missing: [],
			duplicates: [],
			unexpected: [],
			lagPolls: [],
			pollSeconds: 0,
			pollErrors: [],
		};
		const parameters: INodeParameters = {
			events: ['smsDelivered', 'smsNotDelivered', 'smsSent'],
			options: {},
			requestOptions:
				o.requestsPerSecond === undefined ? {} : { requestsPerSecond: o.requestsPerSecond },
		};
		const trigger = new PollHarness({
			nodeType: new MessagingTrigger(),
			parameters,
			credentials: new CredentialStore(sandboxCredentials(this.sandbox, 'apiKey')),
			persistence: o.persistence,
		});
		await this.setLimit(0);
		o.setNow(o.start);
		const activation = await trigger.activate();
		if (activation.error) throw activation.error;
		const planEnd = o.start + o.days * 24 * HOUR;
		const times: number[] = [];
		for (
			let at = o.start + o.pollEveryMinutes * MINUTE;
			at <= planEnd;
			at += o.pollEveryMinutes * MINUTE
		)
			times.push(at);
		figures.planPolls = times.length;
		for (
			let at = planEnd + o.settleEveryMinutes * MINUTE;
			at <= planEnd + o.settleHours * HOUR;
			at += o.settleEveryMinutes * MINUTE
		)
			times.push(at);
		let actionIndex = 0;
		for (const [index, at] of times.entries()) {
			const poll = index + 1;
			await this.setLimit(0);
			while (actionIndex < this.actions.length && this.actions[actionIndex].at <= at) {
				const action = this.actions[actionIndex++];
				o.setNow(action.at);
				await action.run();
			}
			o.setNow(at);
			if (o.notFoundEveryPolls > 0 && poll % o.notFoundEveryPolls === 0)
				await this.oneOff404(poll, at);
			await this.readOracle(poll);
			await this.setLimit(o.rateLimitPerSecond);
			const since = this.sandbox.log.lastSeq();
			const started = Date.now();
			let outcome: PollOutcome;
			if (o.restartEveryPolls > 0 && poll % o.restartEveryPolls === 0) {
				trigger.crash();
				outcome = await trigger.activate('init');
			} else outcome = await trigger.poll();
			figures.pollSeconds += (Date.now() - started) / 1000;
			if (outcome.error) figures.pollErrors.push(`poll ${poll}: ${outcome.error.message}`);
			for (const item of outcome.items) {
				const key = `${String(item.json.event)} ${String(item.json.campaignId)} ${String(item.json.phone)}`;
				this.emittedAt.set(key, [...(this.emittedAt.get(key) ?? []), poll]);
			}
			const answers = this.sandbox.log.since(since);
			const limited = answers.filter((entry) => entry.status === 429).length;
			figures.rateLimited += limited;
			figures.accepted += answers.length - limited;
			if (poll <= figures.planPolls) figures.requestsPerPoll.push(answers.length);
			figures.polls = poll;
			if (o.log && poll % 24 === 0)
				o.log(
					`poll ${poll} at ${serviceTime(at)}: ${figures.accepted} accepted, ${figures.rateLimited} rate-limited, ${this.emittedAt.size} events`,
				);
		}
		await this.setLimit(0);
		await this.readOracle(figures.polls + 1);
		for (const [key, seenAt] of this.firstSeen) {
			const emitted = this.emittedAt.get(key);
			if (!emitted) figures.missing.push(key);
			else if (seenAt <= figures.planPolls) figures.lagPolls.push(Math.max(0, emitted[0] - seenAt));
		}
		for (const [key, polls] of this.emittedAt) {
			figures.emitted += polls.length;
			if (polls.length > 1) figures.duplicates.push(`${key} (polls ${polls.join(', ')})`);
			if (!this.firstSeen.has(key)) figures.unexpected.push(key);
		}
		figures.expected = this.firstSeen.size;
		return figures;
	}

	/** The full read: every campaign, every phone, as the service holds it now. */
	private async readOracle(poll: number) {
		const state = (await this.control('GET', '/sms/state')) as {
			campaigns: Array<{
				id: number;
				cancelled: boolean;
				phones: Array<{ phone: string; status: number }>;
			}>;
		};
		for (const campaign of state.campaigns) {
			if (campaign.cancelled) continue;
			for (const { phone, status } of campaign.phones) {
				const events =
					status === 1
						? ['smsSent']
						: status === 2
							? ['smsSent', 'smsDelivered']
							: status === 12
								? ['smsSent', 'smsNotDelivered']
								: [];
				for (const event of events) {
					const key = `${event} ${campaign.id} ${phone}`;
					if (!this.firstSeen.has(key)) this.firstSeen.set(key, poll);
				}
			}
		}
	}

	/** A one-off 404 for a campaign the poll will read (sent within the last hour and still delivering). */
	private async oneOff404(poll: number, at: number) {
		const candidates = this.plan.filter(
			(campaign) =>
				campaign.id &&
				!campaign.cancel &&
				campaign.createdAt > at - HOUR &&
				campaign.createdAt < at - 10 * MINUTE,
		);
		const target = candidates[poll % Math.max(1, candidates.length)];
		if (!target) return;
		const proxy = (poll / this.options.notFoundEveryPolls) % 2 === 0;
		await this.control('POST', '/faults', {
			path: `/sms/campaigns/info/${target.id}`,
			status: 404,
			...(proxy
				? {
						rawBody: '<html><body><h1>404 Not Found</h1><p>nginx</p></body></html>',
						headers: { 'Content-Type': 'text/html' },
					}
				: { body: { message: 'Campaign not found', error_code: 404 } }),
		});
	}

	private async create(campaign: PlannedCampaign) {
		const body: IDataObject = {
			sender: 'Sandbox',
			phones: campaign.phones.map((phone) => phone.phone),
			body: `Campaign ${campaign.index}`,
		};
		if (campaign.scheduledAt) body.date = serviceTime(campaign.scheduledAt);
		if (campaign.emulate) body.emulate = 1;
		const answer = (await this.api('POST', '/sms/send', body)) as { campaign_id: number };
		if (campaign.emulate) return;
		campaign.id = String(answer.campaign_id);
		await this.control('PUT', `/sms/campaigns/${campaign.id}/timeline`, {
			phones: Object.fromEntries(campaign.phones.map(({ phone, ...way }) => [phone, way])),
			...(campaign.formingSeconds === undefined ? {} : { formingSeconds: campaign.formingSeconds }),
		});
	}

	private async setLimit(limit: number) {
		await this.control('PATCH', '/settings', { rateLimitPerSecond: limit });
	}

	private async api(method: string, path: string, body?: IDataObject): Promise<unknown> {
		const response = await fetch(`${this.sandbox.url}${path}`, {
			method,
			headers: {
				Authorization: `Bearer ${this.sandbox.account.apiKey}`,
				'Content-Type': 'application/json',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await response.json()) as unknown;
		if (!response.ok)
			throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
		return json;
	}

	private async control(method: string, path: string, body?: unknown): Promise<unknown> {
		const response = await fetch(`${this.sandbox.url}/__sandbox${path}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await response.json()) as unknown;
		if (!response.ok)
			throw new Error(`control ${method} ${path} → ${response.status} ${JSON.stringify(json)}`);
		return json;
	}
}
