import { sleep } from 'n8n-workflow';

/** The service's documented account limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;
export const DEFAULT_CONCURRENCY = 5;
/**
 * Starts are spread evenly, one every `spacing` = (window / N), rather than in bursts of N: bursts make the
 * requests contend for the event loop and reach the service unevenly. The window starts a little over a second,
 * so there is room for the delay between a start and its arrival; each rate-limit answer widens it (that delay
 * was larger than the room left) and each success narrows it slowly.
 */
export const PACING_WINDOW = {
	initialMs: 1020,
	minMs: 1010,
	maxMs: 1500,
	widenMs: 20,
	narrowMs: 2,
};
const GUARD_WINDOW_MS = 1000;

/**
 * Keeps one node execution within N request starts per second and bounds how many run at once. Shared by every
 * request of that execution, so concurrent items never exceed the account's limit together.
 */
export class RequestPacer {
	private readonly recentStarts: number[] = [];
	private running = 0;
	private readonly waiting: Array<() => void> = [];
	private slotChain: Promise<void> = Promise.resolve();
	private windowMs = PACING_WINDOW.initialMs;
	/** When the next start is due. Late wake-ups do not move it back, so lateness does not add up. */
	private nextStartAt = 0;

	constructor(
		readonly requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND,
		readonly concurrency = DEFAULT_CONCURRENCY,
	) {}

	/** Runs `task` once a concurrency slot and a start slot are free. */
	async run<T>(task: () => Promise<T>): Promise<T> {
		await this.acquire();
		try {
			await this.waitForStartSlot();
			return await task();
		} finally {
			this.release();
		}
	}

	/** Start slots are handed out one at a time, in arrival order. */
	private async waitForStartSlot() {
		if (!(this.requestsPerSecond > 0)) return;
		const turn = this.slotChain.then(async () => {
			const spacing = this.windowMs / this.requestsPerSecond;
			// After a pause, start now; after a late wake-up, keep the schedule (catch up by at most one slot).
			const due = Math.max(this.nextStartAt, Date.now() - spacing);
			if (due > Date.now()) await sleep(due - Date.now());
			// Hard guard: never N+1 starts within one second of our own clock, whatever the schedule says.
			for (;;) {
				const now = Date.now();
				while (this.recentStarts.length && this.recentStarts[0] <= now - GUARD_WINDOW_MS)
					this.recentStarts.shift();
				if (this.recentStarts.length < this.requestsPerSecond) break;
				await sleep(this.recentStarts[0] + GUARD_WINDOW_MS - now);
			}
			this.recentStarts.push(Date.now());
			this.nextStartAt = due + spacing;
		});
		this.slotChain = turn;
		await turn;
	}

	/** The service answered "too many requests": our starts reached it closer together than we spaced them. */
	onRateLimited() {
		this.windowMs = Math.min(PACING_WINDOW.maxMs, this.windowMs + PACING_WINDOW.widenMs);
	}

	onAccepted() {
		this.windowMs = Math.max(PACING_WINDOW.minMs, this.windowMs - PACING_WINDOW.narrowMs);
	}

	get currentWindowMs(): number {
		return this.windowMs;
	}

	private async acquire() {
		if (this.running < this.concurrency) {
			this.running++;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	private release() {
		const next = this.waiting.shift();
		if (next) next();
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
