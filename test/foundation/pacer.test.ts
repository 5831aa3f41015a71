import { mapConcurrently, PACING_WINDOW, RequestPacer } from '../../nodes/shared/transport/pacer';

/** Largest number of timestamps inside any window of `windowMs`. */
function busiestWindow(times: number[], windowMs: number): number {
	const sorted = [...times].sort((a, b) => a - b);
	let best = 0;
	for (let start = 0, end = 0; end < sorted.length; end++) {
		while (sorted[end] - sorted[start] >= windowMs) start++;
		best = Math.max(best, end - start + 1);
	}
	return best;
}

describe('RequestPacer', () => {
	// Throughput against the limit is measured by the benchmarks; here only the bound itself.
	// The pacer grants N starts per window of at least 1.01 s; this test sees each start a little after its grant
	// (the task's own scheduling), so it counts in a window 20 ms shorter than a second.
	test('never starts more than N requests in a second', async () => {
		const pacer = new RequestPacer(10, 5);
		const starts: number[] = [];
		await mapConcurrently(
			35,
			10,
			async () => await pacer.run(async () => void starts.push(Date.now())),
		);
		expect(starts).toHaveLength(35);
		expect(busiestWindow(starts, 980)).toBe(10);
	});

	test('the window widens on each rate-limit answer and narrows slowly on success, within bounds', () => {
		const pacer = new RequestPacer(10, 5);
		expect(pacer.currentWindowMs).toBe(PACING_WINDOW.initialMs);
		pacer.onRateLimited();
		pacer.onRateLimited();
		expect(pacer.currentWindowMs).toBe(PACING_WINDOW.initialMs + 2 * PACING_WINDOW.widenMs);
		pacer.onAccepted();
		expect(pacer.currentWindowMs).toBe(
			PACING_WINDOW.initialMs + 2 * PACING_WINDOW.widenMs - PACING_WINDOW.narrowMs,
		);
		for (let index = 0; index < 100; index++) pacer.onRateLimited();
		expect(pacer.currentWindowMs).toBe(PACING_WINDOW.maxMs);
		for (let index = 0; index < 1000; index++) pacer.onAccepted();
		expect(pacer.currentWindowMs).toBe(PACING_WINDOW.minMs);
	});

	test('bounds concurrency', async () => {
		const pacer = new RequestPacer(0, 3);
		let running = 0;
		let most = 0;
		await mapConcurrently(20, 20, async () =>
			pacer.run(async () => {
				most = Math.max(most, ++running);
				await new Promise((resolve) => setTimeout(resolve, 5));
				running--;
			}),
		);
		expect(most).toBe(3);
	});

	test('0 requests per second means no pacing: all start before any may finish', async () => {
		const pacer = new RequestPacer(0, 50);
		let started = 0;
		let release!: () => void;
		const barrier = new Promise<void>((resolve) => (release = resolve));
		const all = mapConcurrently(50, 50, async () =>
			pacer.run(async () => {
				if (++started === 50) release();
				await barrier;
			}),
		);
		await all;
		expect(started).toBe(50);
	});

	test('mapConcurrently keeps input order', async () => {
		const out = await mapConcurrently(6, 3, async (index) => {
			await new Promise((resolve) => setTimeout(resolve, (6 - index) * 3));
			return index * 10;
		});
		expect(out).toEqual([0, 10, 20, 30, 40, 50]);
	});
});
