export interface FaultRule {
	/** Method to match; any when omitted. */
	method?: string;
	/** Exact path, or a prefix when it ends with `*`. */
	path: string;
	/** How many matching requests it applies to (default 1). */
	times?: number;
	/** Instead of `times`: every matching request until this time of the sandbox clock (ISO 8601), e.g. an hour of 500s. */
	until?: string;
	/** Answer with this status and body instead of the route's. */
	status?: number;
	body?: unknown;
	/** With `status`: this text as the body, unchanged (set its Content-Type in `headers`; default text/plain). */
	rawBody?: string;
	headers?: Record<string, string>;
	/** Wait before answering (with `status`) or before handling normally (without). */
	delayMs?: number;
	/** Destroy the connection without answering (after delayMs). */
	drop?: boolean;
}

/** Fault injection: the next N requests to a route answer a given status/body, a delay, or a dropped connection. */
export class FaultInjector {
	private rules: Array<FaultRule & { remaining: number }> = [];

	add(rule: FaultRule) {
		if (!rule.path) throw new Error('A fault needs a path');
		if (rule.until !== undefined && Number.isNaN(Date.parse(rule.until)))
			throw new Error('A fault\'s "until" must be an ISO 8601 time');
		this.rules.push({ ...rule, remaining: rule.times ?? 1 });
	}

	/** Consumes and returns the first rule matching this request, if any (`nowMs`: the sandbox clock). */
	take(method: string, path: string, nowMs = Date.now()): FaultRule | undefined {
		this.rules = this.rules.filter(
			(rule) => rule.until === undefined || Date.parse(rule.until) > nowMs,
		);
		const index = this.rules.findIndex(
			(rule) =>
				(!rule.method || rule.method.toUpperCase() === method) &&
				(rule.path.endsWith('*') ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path),
		);
		if (index < 0) return undefined;
		const rule = this.rules[index];
		if (rule.until === undefined && --rule.remaining <= 0) this.rules.splice(index, 1);
		return rule;
	}

	pending() {
		return this.rules.map(({ remaining, ...rule }) => ({ ...rule, remaining }));
	}

	clear() {
		this.rules = [];
	}
}
