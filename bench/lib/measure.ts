/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/** CPU and memory of the bench process itself, for the in-process scale scenarios (13–15). */
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** User + system CPU of this process so far, in µs. */
export function cpuUs(): number {
	const usage = process.cpuUsage();
	return usage.user + usage.system;
}

/**
 * Runs `work` while sampling this process's resident memory every 5 ms (samples land between the work's awaits);
 * the peak is over the resident memory before it started.
 */
export async function measured<T>(work: () => Promise<T>) {
	const rssBefore = process.memoryUsage().rss;
	let peak = rssBefore;
	const sample = () => {
		peak = Math.max(peak, process.memoryUsage().rss);
	};
	const timer = setInterval(sample, 5);
	const cpu = cpuUs();
	const started = performance.now();
	try {
		const value = await work();
		sample();
		return {
			value,
			cpuMs: (cpuUs() - cpu) / 1000,
			wallMs: performance.now() - started,
			rssBefore,
			peakGrowth: peak - rssBefore,
			peak,
		};
	} finally {
		clearInterval(timer);
	}
}

/** The 1-minute load average, kept as a scenario samples it: shown with every figure (the machine is shared). */
export function loadTracker() {
	const seen: number[] = [];
	return {
		note: () => seen.push(loadavg()[0]),
		range: () =>
			seen.length
				? `${Math.min(...seen).toFixed(1)}–${Math.max(...seen).toFixed(1)}`
				: loadavg()[0].toFixed(1),
	};
}

export const MB = 1024 * 1024;

/**
 * A full garbage collection before a measured run, so its resident memory does not carry the run before it
 * (`npm run bench` starts node without --expose-gc: the flag is set here and gc taken from a fresh context).
 */
export function collectGarbage(): void {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
}
