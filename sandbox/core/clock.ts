/**
 * The sandbox's controllable clock. Sandbox time = real time + offset, so tests and the control API can jump
 * forward (24-hour windows, scheduled campaigns, token expiry) without waiting. It never goes back.
 */
export class SandboxClock {
	private offsetMs = 0;

	now(): Date {
		return new Date(Date.now() + this.offsetMs);
	}

	nowMs(): number {
		return Date.now() + this.offsetMs;
	}

	advance(ms: number): Date {
		if (!(ms >= 0)) throw new Error('The sandbox clock only moves forward');
		this.offsetMs += ms;
		return this.now();
	}

	/** Jumps to an absolute time (must not be in the sandbox's past). */
	setTo(date: Date): Date {
		return this.advance(Math.max(0, date.getTime() - this.nowMs()));
	}
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The service's date format `YYYY-MM-DD HH:MM:SS`; the sandbox account's time zone is UTC. */
export function formatServiceDate(date: Date): string {
	return (
		`${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
		`${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
	);
}

/** Parses `YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DD` (UTC); undefined when malformed. */
export function parseServiceDate(value: string): Date | undefined {
	const match = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/.exec(value);
	if (!match) return undefined;
	const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
	const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
	return date.getUTCMonth() === +mo - 1 && date.getUTCDate() === +d ? date : undefined;
}
