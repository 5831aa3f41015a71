/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { runConvergence, type ConvergenceFigures } from '../harness/convergence';

/**
 * Issue 11's rate-limit check without n8n's queue stack: three executions of Messaging Email → Send, each in a
 * process of its own (as on separate workers: no pacer, memory or store shared), started at once against one
 * account limited to 10 requests/s. Their pacers only learn of each other through the service's rate-limit answers.
 * 3 × 100 emails (about 31 s at the limit) show what 3 × 300 show (test/queue check 3), in a third of the time.
 *
 * Before the pacers kept a credit of starts per window (see PACING in nodes/shared/transport/pacer.ts), rate-limited
 * requests slept 0.5–30 s each in their own lane: 82% of the limit here (3 × 300), 76–92% in queue mode.
 *
 * The share of the limit they reach is a speed figure and is measured where speed is measured, in the benchmarks
 * (bench/scenarios/s8-queue.ts: 3 × 300 in real queue mode; the goal is >= 90%). Asserted here it failed on a busy
 * machine (80% beside CI's real-n8n lane: processes short of CPU ask less often, whatever the pacer does). What this
 * file asserts holds at any load: every item once, never above the limit, converging through few rate-limit answers.
 */
const LIMIT = 10;
let figures: ConvergenceFigures;

beforeAll(async () => {
	figures = await runConvergence({ executions: 3, count: 100, limit: LIMIT });
	const { executionsOut, perSecond, perSecondByExecution, ...summary } = figures;
	process.stdout.write(
		`pacer convergence: ${JSON.stringify(summary)}\nper second: ${perSecond.join(' ')}\n${Object.entries(
			perSecondByExecution,
		)
			.map(([tag, counts]) => `${tag}: ${counts.join(' ')}`)
			.join('\n')}\n${JSON.stringify(executionsOut)}\n`,
	);
}, 120_000);

describe('three executions sharing one 10/s account, each with its own pacer', () => {
	test('every item is sent once: no failed item, no duplicate', () => {
		expect(figures.executionsOut.map((out) => [out.sent, out.failed, out.errors])).toEqual([
			[100, 0, []],
			[100, 0, []],
			[100, 0, []],
		]);
		expect(figures.failedItems).toBe(0);
		expect(figures.emailsAccepted).toBe(300);
		expect(figures.duplicates).toBe(0);
		// One approved-senders check per execution, one send per item, then one read of the template per execution
		// (the run warning on template variables not given).
		expect(figures.accepted).toBe(306);
	});

	test('together they never go above the limit', () => {
		// Over the run (the service's own window guarantees it; this checks the measurement the bench reports).
		expect(figures.acceptedPerSecond).toBeLessThanOrEqual(LIMIT);
	});

	test('they converge through rate-limit answers, not by flooding: far fewer 429s than sends', () => {
		// Today ~70–100 here: the first second (three pacers at the full limit) and each execution probing for
		// room now and then. The old client's 3 × 300 run had 498 (more 429s than half its sends).
		expect(figures.rateLimited).toBeLessThan(figures.accepted / 2);
	});
});
