import { sleep } from 'n8n-workflow';

/** The service's documented account limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;
export const DEFAULT_CONCURRENCY = 5;
/**
 * The window is 5% longer than a second: N starts per 1.05 s by our clock leaves 50 ms for network and event-loop
 * jitter before the service could count N+1 in one of its seconds, at 95% of the limit.
 */
export const PACING_WINDOW_MS = 1050;

/**
 * Keeps one node execution within N request starts per window and bounds how many run at once. Shared by every
 * request of that execution, so concurrent items never exceed the account's limit together.
 */
export class RequestPacer {
	private readonly recentStarts: number[] = [];
	private running = 0;
	private readonly waiting: Array<() => void> = [];
	private slotChain: Promise<void> = Promise.resolve();

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
			for (;;) {
				const now = Date.now();
				while (this.recentStarts.length && this.recentStarts[0] <= now - PACING_WINDOW_MS) this.recentStarts.shift();
				if (this.recentStarts.length < this.requestsPerSecond) {
					this.recentStarts.push(now);
					return;
				}
				await sleep(this.recentStarts[0] + PACING_WINDOW_MS - now);
			}
		});
		this.slotChain = turn;
		await turn;
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
export async function mapConcurrently<T>(count: number, concurrency: number, worker: (index: number) => Promise<T>): Promise<T[]> {
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
