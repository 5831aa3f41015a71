import { sleep } from 'n8n-workflow';

/** The service's documented account limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;
export const DEFAULT_CONCURRENCY = 5;
// Requests start slightly more than 1/N s apart so network jitter cannot put N+1 into one second on the server.
const SPACING_MARGIN = 1.03;

/**
 * Spaces request starts at most N per second for one node execution, and bounds how many run at once.
 * Shared by every request of that execution, so concurrent items never exceed the account's limit together.
 */
export class RequestPacer {
	private nextStart = 0;
	private running = 0;
	private readonly waiting: Array<() => void> = [];
	private readonly intervalMs: number;

	constructor(
		requestsPerSecond = DEFAULT_REQUESTS_PER_SECOND,
		readonly concurrency = DEFAULT_CONCURRENCY,
	) {
		this.intervalMs = requestsPerSecond > 0 ? (1000 / requestsPerSecond) * SPACING_MARGIN : 0;
	}

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

	private async waitForStartSlot() {
		if (!this.intervalMs) return;
		const now = Date.now();
		const start = Math.max(now, this.nextStart);
		this.nextStart = start + this.intervalMs;
		if (start > now) await sleep(start - now);
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
