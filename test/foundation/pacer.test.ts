/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import {
	mapConcurrently,
	PACING,
	RequestPacer,
	type PacedStart,
} from '../../nodes/shared/transport/pacer';

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

/** One start through the pacer, returning the start it was granted. */
const startOnce = async (pacer: RequestPacer, repeat = false) =>
	await pacer.run(async (start) => start, repeat);

describe('RequestPacer', () => {
	// Throughput against the limit is measured by the benchmarks and the convergence test; here the rules themselves.
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

	test('a rate-limit answer while this execution held the whole limit widens the window and keeps the credit', async () => {
		const pacer = new RequestPacer(10, 10);
		const starts: PacedStart[] = [];
		for (let index = 0; index < 10; index++) starts.push(await startOnce(pacer));
		// Nine of ours in the window before it: the service counted our own starts, nobody else's.
		expect(pacer.onRateLimited(starts[9])).toBe(false);
		expect(pacer.currentCredit).toBe(10);
		expect(pacer.currentWindowMs).toBe(PACING.window.initialMs + PACING.window.widenMs);
		pacer.onAccepted();
		expect(pacer.currentWindowMs).toBe(
			PACING.window.initialMs + PACING.window.widenMs - PACING.window.narrowMs,
		);
		for (let index = 0; index < 1000; index++) pacer.onAccepted();
		expect(pacer.currentWindowMs).toBe(PACING.window.minMs);
	});

	test('a rate-limit answer while others use the account cuts the credit, down to the slowest pace', async () => {
		const pacer = new RequestPacer(10, 5);
		const start = await startOnce(pacer);
		// Nothing of ours in the window before it: someone else filled the service's window.
		expect(pacer.onRateLimited(start)).toBe(false);
		expect(pacer.currentCredit).toBeCloseTo(10 * PACING.cut, 10);
		expect(pacer.onRateLimited(start)).toBe(false);
		expect(pacer.currentCredit).toBeCloseTo(10 * PACING.cut ** 2, 10);
		const slowest = pacer.currentWindowMs / PACING.slowestSpacingMs;
		let cuts = 2;
		while (!pacer.onRateLimited(start)) cuts++;
		// Reported as "at the slowest" only once the credit could not be cut any further.
		expect(pacer.currentCredit).toBe(slowest);
		expect(cuts).toBe(Math.ceil(Math.log(slowest / 10) / Math.log(PACING.cut)));
	});

	test('accepted answers give the credit back, faster for every window without a rate-limit answer', async () => {
		const pacer = new RequestPacer(10, 5);
		const start = await startOnce(pacer);
		for (let index = 0; index < 7; index++) pacer.onRateLimited(start);
		const cut = pacer.currentCredit;
		expect(cut).toBeCloseTo(10 * PACING.cut ** 7, 10); // ~2.1
		pacer.onAccepted();
		expect(pacer.currentCredit).toBeCloseTo(cut + PACING.growth / cut ** 2, 10);
		// Answered window by window (as many answers as the credit): back to the full limit within three windows,
		// where the pace right after the cut (growth / credit per window) would take more than twenty.
		let windows = 0;
		while (pacer.currentCredit < 10 && windows < 10) {
			const answers = Math.floor(pacer.currentCredit);
			for (let answer = 0; answer < answers; answer++) pacer.onAccepted();
			windows++;
		}
		expect(windows).toBeLessThanOrEqual(3);
		expect((10 ** 2 - cut ** 2) / (2 * PACING.growth)).toBeGreaterThan(20);
		expect(pacer.currentCredit).toBe(10);
		// A rate-limit answer starts the slow phase again.
		pacer.onRateLimited(start);
		const afterCut = pacer.currentCredit;
		pacer.onAccepted();
		expect(pacer.currentCredit - afterCut).toBeCloseTo(PACING.growth / afterCut ** 2, 10);
	});

	test('with a cut credit, the next start waits until one of its own leaves the window (it takes that slot again)', async () => {
		const pacer = new RequestPacer(10, 10);
		const held: PacedStart[] = [];
		for (let index = 0; index < 3; index++) held.push(await startOnce(pacer));
		const limited = await startOnce(pacer);
		// Cut to 3 slots: the three accepted starts fill the window.
		while (pacer.currentCredit >= 4) pacer.onRateLimited(limited);
		expect(Math.floor(pacer.currentCredit)).toBe(3);
		const next = await startOnce(pacer, true);
		expect(next.at).toBeGreaterThanOrEqual(held[0].at + pacer.currentWindowMs);
	});

	test('below one slot per window, starts are spaced window / credit apart', async () => {
		const pacer = new RequestPacer(10, 5);
		const first = await startOnce(pacer);
		for (let index = 0; index < 11; index++) pacer.onRateLimited(first);
		expect(pacer.currentCredit).toBeLessThan(1);
		const spacing = pacer.currentWindowMs / pacer.currentCredit;
		const second = await startOnce(pacer, true);
		await startOnce(pacer, true);
		await startOnce(pacer, true);
		const fifth = await startOnce(pacer, true);
		// The pacer keeps its schedule after a late wake-up (it catches up by at most one slot), so one gap may be
		// shorter than the spacing by the lateness of the start before it (seen: 1,178 ms for 1,187 on a loaded
		// machine). Three gaps are at least three spacings less that one lateness (under a spacing): more than two.
		// A pacer at half the spacing would give one and a half.
		expect(fifth.at - second.at).toBeGreaterThanOrEqual(2 * Math.floor(spacing) - 1);
	});

	test('repeats of rate-limited requests start before requests not yet tried, each kind in order', async () => {
		const pacer = new RequestPacer(10, 10);
		const order: string[] = [];
		const run = (name: string, repeat: boolean) =>
			pacer.run(async () => void order.push(name), repeat);
		await Promise.all([
			run('first 1', false),
			run('first 2', false),
			run('first 3', false),
			run('repeat 1', true),
			run('repeat 2', true),
		]);
		// The first goes at once (nobody waited); the others wait for their slot.
		expect(order).toEqual(['first 1', 'repeat 1', 'repeat 2', 'first 2', 'first 3']);
	});

	test('a pause (Retry-After) holds every start until it ends', async () => {
		const pacer = new RequestPacer(10, 5);
		await startOnce(pacer);
		const paused = Date.now();
		pacer.pauseFor(300);
		const next = await startOnce(pacer);
		expect(next.at - paused).toBeGreaterThanOrEqual(299);
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
		expect(pacer.paces).toBe(false);
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
