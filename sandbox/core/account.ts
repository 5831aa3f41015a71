import { randomBytes } from 'node:crypto';

import type { SandboxClock } from './clock';
import { ServiceError } from './errors';

export interface AccountSettings {
	/** The email area answers only when activated, as on the live service. */
	emailActivated: boolean;
	/** Requests per second per account before the service's rate-limit answer; 0 turns the limit off. */
	rateLimitPerSecond: number;
	/** HTTP status of the rate-limit answer (its body always carries error_code 2020202020). */
	rateLimitStatus: number;
	/** Seconds before an access token expires. */
	tokenTtlSeconds: number;
}

export const DEFAULT_SETTINGS: AccountSettings = {
	emailActivated: true,
	rateLimitPerSecond: 10,
	rateLimitStatus: 429,
	tokenTtlSeconds: 3600,
};

export const RATE_LIMIT_ERROR_CODE = 2020202020;

/** A client id/secret pair the token endpoint accepts. */
export interface ApiClient {
	clientId: string;
	clientSecret: string;
}

/** Fixed values for the account; whatever is left out is generated. */
export interface AccountCredentials {
	clientId?: string;
	clientSecret?: string;
	apiKey?: string;
	/**
	 * More API client pairs of the same account, as a second integration would have. A sandbox set-up facility (e.g.
	 * a client id/secret no n8n process has used yet), not a documented service endpoint; their tokens work alike.
	 */
	additionalClients?: ApiClient[];
}

/** The one account the sandbox serves: its client id/secret, static API key, issued tokens and settings. */
export class SandboxAccount {
	readonly clientId: string;
	readonly clientSecret: string;
	readonly apiKey: string;
	private readonly clients: ApiClient[];
	settings: AccountSettings;
	tokensIssued = 0;
	private readonly tokens = new Map<string, number>();
	/** The client id each token was issued to: which of the account's API clients a request acts as. */
	private readonly tokenClients = new Map<string, string>();
	private readonly recentRequests: number[] = [];

	constructor(
		private readonly clock: SandboxClock,
		settings: Partial<AccountSettings> = {},
		fixed: AccountCredentials = {},
	) {
		this.settings = { ...DEFAULT_SETTINGS, ...settings };
		this.clientId = fixed.clientId ?? `sandbox-client-${randomBytes(4).toString('hex')}`;
		this.clientSecret = fixed.clientSecret ?? randomBytes(16).toString('hex');
		this.apiKey = fixed.apiKey ?? `sp_apikey_${randomBytes(16).toString('hex')}`;
		this.clients = [
			{ clientId: this.clientId, clientSecret: this.clientSecret },
			...(fixed.additionalClients ?? []),
		];
	}

	issueToken(clientId: unknown, clientSecret: unknown, grantType: unknown) {
		if (
			grantType !== 'client_credentials' ||
			!this.clients.some(
				(client) => client.clientId === clientId && client.clientSecret === clientSecret,
			)
		) {
			throw new ServiceError(401, 'Client authentication failed.', 1, {
				error: 'invalid_client',
				error_description: 'Client authentication failed.',
			});
		}
		const token = randomBytes(24).toString('hex');
		this.tokens.set(token, this.clock.nowMs() + this.settings.tokenTtlSeconds * 1000);
		this.tokenClients.set(token, String(clientId));
		this.tokensIssued++;
		return { access_token: token, token_type: 'Bearer', expires_in: this.settings.tokenTtlSeconds };
	}

	/** The client id a token was issued to (undefined for the API key and unknown tokens). */
	clientOf(token: string): string | undefined {
		return this.tokenClients.get(token);
	}

	/** Throws the service's 401 unless the header carries a live token or the API key. */
	checkBearer(header: string | undefined) {
		const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
		if (token && token === this.apiKey) return 'apiKey' as const;
		const expiresAt = token ? this.tokens.get(token) : undefined;
		if (expiresAt !== undefined && expiresAt > this.clock.nowMs()) return 'token' as const;
		throw new ServiceError(401, 'Unauthorized!', 401);
	}

	/** Sliding one-second window over real time (pacing is about wall-clock throughput). */
	checkRateLimit() {
		const limit = this.settings.rateLimitPerSecond;
		if (!limit) return;
		const now = Date.now();
		while (this.recentRequests.length && this.recentRequests[0] <= now - 1000)
			this.recentRequests.shift();
		if (this.recentRequests.length >= limit) {
			throw new ServiceError(
				this.settings.rateLimitStatus,
				`More than ${limit} requests per second`,
				RATE_LIMIT_ERROR_CODE,
			);
		}
		this.recentRequests.push(now);
	}

	revokeTokens() {
		this.tokens.clear();
		this.tokenClients.clear();
	}
}
