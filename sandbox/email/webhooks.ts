/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * The service's webhook delivery for the email area (docs/service-notes.md, Webhooks). A handler is what
 * a user sets up in the service's settings: a URL and the ticked events (control route, since the service has no
 * API for it). Sends, opens, clicks, spam complaints, unsubscribes and resubscribes queue events; every 30 s of
 * sandbox clock, or as soon as 500 events wait, the queue is posted as JSON arrays of at most 500 events, so one
 * kind may be split over several POSTs. A batch answered with a non-2xx (or not answered) is posted again at a
 * later flush, unchanged: repeats really happen. Field names vary as on the live service: bounce kinds name the
 * address `email` (others `recipient`), clicks carry the link as `link_url` or `url`, alternately.
 */
import { ServiceError } from '../core/errors';
import { s } from '../core/schema';
import type { SandboxClock } from '../core/clock';
import type { SandboxContext } from '../core/server';

export const FLUSH_EVERY_MS = 30_000;
export const BATCH_SIZE = 500;
export const WEBHOOK_KINDS = [
	'delivered',
	'undelivered',
	'opened',
	'clicked',
	'spam_by_user',
	'unsubscribed',
	'resubscribed',
	'hard_bounces',
	'soft_bounces',
] as const;

export type WebhookEvent = Record<string, unknown> & { event: string };

interface Queued {
	/** Sandbox-internal number of the event (not posted), for tests to count deliveries. */
	seq: number;
	event: WebhookEvent;
}

interface Batch {
	id: number;
	events: Queued[];
	attempts: number;
}

export interface Handler {
	id: number;
	url: string;
	/** Ticked kinds; undefined = every kind, including ones added through the control route. */
	events?: Set<string>;
	batchSize: number;
	/** The next N answers count as failed even when 2xx (the answer was lost): the batch comes again. */
	loseAnswers: number;
	pending: Queued[];
	retry: Batch[];
}

export interface DeliveryAttempt {
	handler: number;
	batch: number;
	attempt: number;
	/** HTTP status, 0 when the request failed (refused, timed out). */
	status: number;
	/** Whether the sandbox counts it as delivered (2xx and the answer not "lost"). */
	delivered: boolean;
	seqs: number[];
	kinds: Record<string, number>;
	at: string;
	/** Real milliseconds until the handler answered. */
	durationMs: number;
}

export class EmailWebhooks {
	handlers: Handler[] = [];
	deliveries: DeliveryAttempt[] = [];
	/** Every event queued while a handler was set up, in order, for tests. */
	emitted: Queued[] = [];
	private seq = 0;
	private handlerCounter = 0;
	private batchCounter = 0;
	private clickCounter = 0;
	private nextFlushAt: number | undefined;
	private ticker: ReturnType<typeof setInterval> | undefined;
	private flushing: Promise<void> = Promise.resolve();

	constructor(private readonly clock: SandboxClock) {}

	register(options: {
		url: string;
		events?: string[];
		batchSize?: number;
		loseAnswers?: number;
	}): Handler {
		const handler: Handler = {
			id: ++this.handlerCounter,
			url: options.url,
			events: options.events ? new Set(options.events) : undefined,
			batchSize: options.batchSize ?? BATCH_SIZE,
			loseAnswers: options.loseAnswers ?? 0,
			pending: [],
			retry: [],
		};
		this.handlers.push(handler);
		this.startTicker();
		return handler;
	}

	reset() {
		this.handlers = [];
		this.deliveries = [];
		this.emitted = [];
		this.nextFlushAt = undefined;
		if (this.ticker) clearInterval(this.ticker);
		this.ticker = undefined;
	}

	/** Queues an event for every handler that ticked its kind (nothing is kept while no handler is set up). */
	emit(event: WebhookEvent) {
		if (this.handlers.length === 0) return;
		const stamped: WebhookEvent = {
			...event,
			timestamp: event.timestamp ?? Math.floor(this.clock.nowMs() / 1000),
		};
		const queued = { seq: ++this.seq, event: stamped };
		this.emitted.push(queued);
		for (const handler of this.handlers) {
			if (handler.events && !handler.events.has(stamped.event)) continue;
			handler.pending.push(queued);
			if (handler.pending.length === handler.batchSize) void this.flush();
		}
	}

	/** A click: the link under `link_url` or `url`, alternately (both are seen on the live service). */
	click(fields: Record<string, unknown> & { link: string }) {
		const { link, ...rest } = fields;
		const key = ++this.clickCounter % 2 === 1 ? 'link_url' : 'url';
		this.emit({ event: 'clicked', ...rest, [key]: link });
	}

	/** Posts every waiting batch (earlier failures first, then new events); one flush at a time. */
	async flush(): Promise<void> {
		this.flushing = this.flushing.then(async () => {
			this.nextFlushAt = this.clock.nowMs() + FLUSH_EVERY_MS;
			await Promise.all(this.handlers.map(async (handler) => await this.flushHandler(handler)));
		});
		await this.flushing;
	}

	private async flushHandler(handler: Handler) {
		const batches = handler.retry;
		handler.retry = [];
		while (handler.pending.length > 0) {
			batches.push({
				id: ++this.batchCounter,
				events: handler.pending.splice(0, handler.batchSize),
				attempts: 0,
			});
		}
		for (const batch of batches) {
			batch.attempts++;
			const started = Date.now();
			const status = await post(
				handler.url,
				batch.events.map((queued) => queued.event),
			);
			let delivered = status >= 200 && status < 300;
			if (delivered && handler.loseAnswers > 0) {
				handler.loseAnswers--;
				delivered = false;
			}
			const kinds: Record<string, number> = {};
			for (const { event } of batch.events) kinds[event.event] = (kinds[event.event] ?? 0) + 1;
			this.deliveries.push({
				handler: handler.id,
				batch: batch.id,
				attempt: batch.attempts,
				status,
				delivered,
				seqs: batch.events.map((queued) => queued.seq),
				kinds,
				at: this.clock.now().toISOString(),
				durationMs: Date.now() - started,
			});
			if (!delivered) handler.retry.push(batch);
		}
	}

	/** Real-time ticks check the sandbox clock, so moving the clock 30 s ahead flushes within a tick. */
	private startTicker() {
		this.nextFlushAt ??= this.clock.nowMs() + FLUSH_EVERY_MS;
		if (this.ticker) return;
		this.ticker = setInterval(() => {
			if (this.nextFlushAt !== undefined && this.clock.nowMs() >= this.nextFlushAt)
				void this.flush();
		}, 200);
		this.ticker.unref();
	}
}

async function post(url: string, events: WebhookEvent[]): Promise<number> {
	try {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(events),
			signal: AbortSignal.timeout(10_000),
		});
		await response.arrayBuffer();
		return response.status;
	} catch {
		return 0;
	}
}

/** Control routes under /__sandbox/email/webhooks: what the user does in the service's settings, and inspection. */
export function registerWebhookRoutes({ control }: SandboxContext, webhooks: EmailWebhooks) {
	control({
		method: 'POST',
		path: '/email/webhooks',
		body: s.object(
			{
				url: s.string({ pattern: /^https?:\/\/\S+$/ }),
				events: s.array(s.string({ minLength: 1 })),
				batchSize: s.integer({ min: 1, max: 10_000 }),
				loseAnswers: s.integer({ min: 0 }),
			},
			['url'],
		),
		handle: ({ body }) => {
			const handler = webhooks.register(body as Parameters<EmailWebhooks['register']>[0]);
			return { body: { result: true, id: handler.id } };
		},
	});
	control({
		method: 'GET',
		path: '/email/webhooks',
		handle: () => ({
			body: {
				handlers: webhooks.handlers.map((handler) => ({
					id: handler.id,
					url: handler.url,
					events: handler.events ? [...handler.events] : 'all',
					pending: handler.pending.length,
					retrying: handler.retry.reduce((sum, batch) => sum + batch.events.length, 0),
				})),
				emitted: webhooks.emitted.length,
				deliveries: webhooks.deliveries,
			},
		}),
	});
	control({
		method: 'DELETE',
		path: '/email/webhooks',
		handle: () => (webhooks.reset(), { body: { result: true } }),
	});
	control({
		method: 'POST',
		path: '/email/webhooks/flush',
		handle: async () => {
			await webhooks.flush();
			return { body: { result: true, deliveries: webhooks.deliveries.length } };
		},
	});
	control({
		method: 'GET',
		path: '/email/webhooks/events',
		handle: () => ({ body: webhooks.emitted }),
	});
	control({
		method: 'POST',
		path: '/email/webhooks/events',
		body: s.object({ events: s.array(s.map(s.any()), { minItems: 1 }) }, ['events']),
		handle: ({ body }) => {
			const events = body.events as Array<Record<string, unknown>>;
			if (events.some((event) => typeof event.event !== 'string'))
				throw new ServiceError(400, 'Every event needs its kind under "event"', 400);
			for (const event of events) webhooks.emit(event as WebhookEvent);
			return { body: { result: true, queued: events.length } };
		},
	});
}
