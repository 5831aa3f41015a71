import { sleep } from 'n8n-workflow';

/** The service's documented account limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;
export const DEFAULT_CONCURRENCY = 5;

/**
 * How a pacer keeps one execution within the account's limit, and how it shares that limit with executions it
 * knows nothing about (other n8n workers, other workflows on the account) through the service's own signal, the
 * rate-limit answer:
 *
 * - The service counts the requests it accepted in a sliding one-second window; a rate-limited request is not
 *   counted. So the pacer holds a *credit*: how many of its starts may be in one window of `window` ms, a little
 *   over a second for the delay between a start and its arrival. A start that was rate-limited gives its place
 *   back. Alone, the credit is N (the limit) and starts are spread evenly, one every window / N.
 * - While the window is full, the next start is due when the oldest one leaves it, one window later: the slot it
 *   held at the service has just been freed, and this execution takes it again before anyone else is likely to.
 * - A rate-limit answer cuts the credit to `cut` of itself (the slots this execution held were not all its own);
 *   each accepted answer gives some back: `growth` slots per window, divided by the credit (an execution holding
 *   few slots regains them faster than one holding many, so executions converge towards equal shares), and faster
 *   for each whole window that passes without a rate-limit answer, (1 + windows)³ times (capacity another
 *   execution left is taken up within a few windows).
 * - Below one slot per window, starts are spaced window / credit apart, up to `slowestSpacingMs`: repeated
 *   rate-limit answers slow the whole execution down exponentially, instead of each request sleeping on its own.
 * - A rate-limit answer met while this execution alone held (nearly) the whole limit is about our own timing, not
 *   about sharing: it widens the window instead (our starts reached the service closer together than they were
 *   spaced), which narrows slowly again on success.
 */
export const PACING = {
	window: { initialMs: 1020, minMs: 1010, maxMs: 1500, widenMs: 20, narrowMs: 2 },
	cut: 0.8,
	growth: 2,
	slowestSpacingMs: 10_000,
};
/** A hard guard on our own clock, whatever the schedule says: never N+1 starts within one second. */
const GUARD_WINDOW_MS = 1000;

/** One start granted by the pacer; the client reports its answer with it. */
export interface PacedStart {
	readonly at: number;
}

interface Waiter {
	resolve: (start: PacedStart) => void;
	/** Repeats of rate-limited requests go before first attempts, in their own order. */
	repeat: boolean;
}

/** Waiters served repeats first, each kind in arrival order. */
class WaitingLine<W extends { repeat: boolean }> {
	private readonly repeats: W[] = [];
	private readonly firsts: W[] = [];

	push(waiter: W) {
		(waiter.repeat ? this.repeats : this.firsts).push(waiter);
	}

	shift(): W | undefined {
		return this.repeats.shift() ?? this.firsts.shift();
	}

	get length(): number {
		return this.repeats.length + this.firsts.length;
	}
}

/**
 * Keeps one node execution within N request starts per second and bounds how many run at once. Shared by every
 * request of that execution, so concurrent items never exceed the account's limit together. See PACING.
 */
export class RequestPacer {
	private readonly recentStarts: number[] = [];
	/** Starts not answered with a rate limit, oldest first: those the service may count in its window. */
	private readonly held: PacedStart[] = [];
	private running = 0;
	private readonly waitingToRun = new WaitingLine<{ resolve: () => void; repeat: boolean }>();
	private readonly waitingToStart = new WaitingLine<Waiter>();
	private dispatching = false;
	private windowMs = PACING.window.initialMs;
	private credit: number;
	/** Windows' worth of accepted answers (one answer = 1 / credit) since the last rate-limit answer. */
	private cleanWindows = 0;
	/** When the next start is due. Late wake-ups do not move it back, so lateness does not add up. */
	private nextStartAt = 0;
	private lastStartAt = 0;
	/** No start before this (the service said when to come back). */
	private pausedUntil = 0;
	/** Answers reported so far (read by callers that carry the pace over to their next execution). */
	acceptedAnswers = 0;
	rateLimitedAnswers = 0;

	constructor(
		readonly requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND,
		readonly concurrency = DEFAULT_CONCURRENCY,
	) {
		this.credit = requestsPerSecond;
	}

	/** Whether starts are paced at all (0 requests per second turns pacing off). */
	get paces(): boolean {
		return this.requestsPerSecond > 0;
	}

	/**
	 * Runs `task` once a concurrency slot and a start slot are free. `repeat`: the request was rate-limited and is
	 * tried again; it goes before requests not yet tried.
	 */
	async run<T>(task: (start: PacedStart) => Promise<T>, repeat = false): Promise<T> {
		await this.acquire(repeat);
		try {
			const start = await this.waitForStart(repeat);
			return await task(start);
		} finally {
			this.release();
		}
	}

	/** The service accepted (or at least did not rate-limit) this start. */
	onAccepted() {
		this.acceptedAnswers++;
		if (!this.paces) return;
		this.windowMs = Math.max(PACING.window.minMs, this.windowMs - PACING.window.narrowMs);
		const credit = Math.max(1, this.credit);
		const speedUp = (1 + Math.floor(this.cleanWindows)) ** 3;
		this.credit = Math.min(
			this.requestsPerSecond,
			this.credit + (PACING.growth * speedUp) / credit ** 2,
		);
		this.cleanWindows += 1 / credit;
	}

	/**
	 * The service answered "too many requests" to this start: it holds no place in the service's window. When this
	 * execution alone held (nearly) the whole limit in the window before it, the answer is about our own timing
	 * (starts reached the service closer together than they were spaced): the window widens. Otherwise someone
	 * else uses the account too, and the credit is cut. Returns whether the pacer was already as slow as it goes
	 * (then the answer says more than "slow down": the account stays saturated).
	 */
	onRateLimited(start?: PacedStart): boolean {
		this.rateLimitedAnswers++;
		if (!this.paces) return true;
		const index = start ? this.held.indexOf(start) : -1;
		if (index >= 0) this.held.splice(index, 1);
		this.cleanWindows = 0;
		const at = start?.at ?? Date.now();
		const ownBefore = this.held.filter(
			(other) => other.at < at && other.at > at - this.windowMs,
		).length;
		if (
			ownBefore >= Math.max(1, this.requestsPerSecond - 1) &&
			this.windowMs < PACING.window.maxMs
		) {
			this.windowMs = Math.min(PACING.window.maxMs, this.windowMs + PACING.window.widenMs);
			return false;
		}
		const slowest = this.slowestCredit();
		const wasSlowest = this.credit <= slowest;
		this.credit = Math.max(slowest, this.credit * PACING.cut);
		// The next start keeps the new spacing from the last one, not the one planned before the cut.
		this.nextStartAt = Math.max(this.nextStartAt, this.lastStartAt + this.spacing());
		this.wake();
		return wasSlowest;
	}

	/** No start for `ms` (a Retry-After from the service). */
	pauseFor(ms: number) {
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
	}

	get currentWindowMs(): number {
		return this.windowMs;
	}

	/** Starts this execution may have in one window (fractional below one: one start per window / credit). */
	get currentCredit(): number {
		return this.credit;
	}

	private slowestCredit(): number {
		return this.windowMs / PACING.slowestSpacingMs;
	}

	private async waitForStart(repeat: boolean): Promise<PacedStart> {
		if (!this.paces) {
			// No spacing, but a wait the service asked for (Retry-After) is waited all the same.
			const pause = this.pausedUntil - Date.now();
			if (pause > 0) await sleep(pause);
			return { at: Date.now() };
		}
		return await new Promise<PacedStart>((resolve) => {
			this.waitingToStart.push({ resolve, repeat });
			this.wake();
		});
	}

	private wake() {
		if (this.dispatching || this.waitingToStart.length === 0) return;
		this.dispatching = true;
		void this.dispatch();
	}

	/** Hands out start slots one at a time while anyone waits; recomputes after every sleep (credit may change). */
	private async dispatch() {
		try {
			while (this.waitingToStart.length > 0) {
				const now = Date.now();
				const due = this.nextStartDue(now);
				if (due > now) {
					await sleep(due - now);
					continue;
				}
				const spacing = this.spacing();
				// After a late wake-up keep the schedule (catch up by at most one slot); after a pause start afresh.
				this.nextStartAt = (this.nextStartAt < now - spacing ? now : this.nextStartAt) + spacing;
				const start = { at: now };
				this.lastStartAt = now;
				this.held.push(start);
				this.recentStarts.push(now);
				this.waitingToStart.shift()!.resolve(start);
			}
		} finally {
			this.dispatching = false;
		}
	}

	private spacing(): number {
		return this.credit >= 1
			? this.windowMs / this.requestsPerSecond
			: Math.min(PACING.slowestSpacingMs, this.windowMs / this.credit);
	}

	/** The earliest time the next start may go: the even spacing, the window's credit, the guard, any pause. */
	private nextStartDue(now: number): number {
		let due = Math.max(this.pausedUntil, Math.max(this.nextStartAt, now - this.spacing()));
		while (this.recentStarts.length && this.recentStarts[0] <= now - GUARD_WINDOW_MS)
			this.recentStarts.shift();
		if (this.recentStarts.length >= this.requestsPerSecond)
			due = Math.max(due, this.recentStarts[0] + GUARD_WINDOW_MS);
		while (this.held.length && this.held[0].at <= now - this.windowMs) this.held.shift();
		const slots = Math.max(1, Math.floor(this.credit));
		if (this.held.length >= slots)
			due = Math.max(due, this.held[this.held.length - slots].at + this.windowMs);
		return due;
	}

	private async acquire(repeat: boolean) {
		if (this.running < this.concurrency) {
			this.running++;
			return;
		}
		await new Promise<void>((resolve) => this.waitingToRun.push({ resolve, repeat }));
	}

	private release() {
		const next = this.waitingToRun.shift();
		if (next) next.resolve();
		else this.running--;
	}
}

/** Runs `worker` for 0..count-1 with at most `concurrency` in flight; results keep input order. */
export async function mapConcurrently<T>(
	count: number,
	concurrency: number,
	worker: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, async () => {
		while (next < count) {
			const index = next++;
			results[index] = await worker(index);
		}
	});
	await Promise.all(lanes);
	return results;
}
