export interface LoggedRequest {
	seq: number;
	/** Real time the request arrived (ms since epoch) — throughput charts use it. */
	receivedAt: number;
	method: string;
	path: string;
	/** The raw query string, exactly as received (without `?`). */
	rawQuery: string;
	/** The query after the service's array/object parsing. */
	query: Record<string, unknown>;
	/** The parsed JSON or form body, as received; undefined when none was sent. */
	body: unknown;
	/**
	 * Set only when the request came in one of the vendor client's forms (sandbox/README.md, "What the vendor's
	 * own client sends"): the query and body as the reference's form, as the route read them.
	 */
	accepted?: { query: Record<string, unknown>; body: unknown };
	contentType?: string;
	/** How the request authenticated: a token, the API key, none (public) or rejected. */
	auth: 'token' | 'apiKey' | 'none' | 'rejected';
	status: number;
	responseBody: unknown;
	/** Set when the answer came from an injected fault. */
	fault?: boolean;
}

/** Every request the sandbox received (control routes excluded), for tests to assert on. */
export class RequestLog {
	private entries: LoggedRequest[] = [];
	private nextSeq = 1;

	add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
		const logged = { seq: this.nextSeq++, ...entry };
		this.entries.push(logged);
		return logged;
	}

	all(): LoggedRequest[] {
		return [...this.entries];
	}

	since(seq: number): LoggedRequest[] {
		return this.entries.filter((entry) => entry.seq > seq);
	}

	/** Requests to service routes other than the token endpoint. */
	apiCalls(): LoggedRequest[] {
		return this.entries.filter((entry) => entry.path !== '/oauth/access_token');
	}

	lastSeq(): number {
		return this.nextSeq - 1;
	}

	clear() {
		this.entries = [];
	}
}
