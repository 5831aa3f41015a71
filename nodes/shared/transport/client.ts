import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
} from 'n8n-workflow';

import {
	answerPreview,
	describeThrown,
	isRateLimited,
	toNodeApiError,
	type FailedAttempt,
} from './errors';
import { CREDENTIAL_TYPE, usesApiKey } from '../values/account';
import { baseUrlOf, baseUrlProblem, signInValues } from './credentialValues';
import { contentTypeOf } from './http';
import { RequestPacer, type PacedStart } from './pacer';
import { tokensKnown } from './token';

export type ClientContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the base URL; build it with `apiPath` so segments are encoded. */
	path: string;
	query?: IDataObject;
	/** Sent as JSON: any object of JSON values (typed records such as variables included, no casts needed). */
	body?: Record<string, unknown>;
	/**
	 * Whether repeating the request is harmless. Idempotent requests (default: GET, PUT and DELETE) are retried
	 * after 5xx and network failures. Sending an email or SMS is not: it is retried only when the service says it
	 * did not process it (rate limit), never after a timeout or 5xx, which could deliver twice.
	 */
	idempotent?: boolean;
	/** `{result:false}` is an answer here, not a failure (the unsubscribe check). */
	resultFalseIsAnswer?: boolean;
	/** SMS single-object endpoints answer `[ {...} ]` in some sources and `{...}` in others. */
	unwrapSingle?: boolean;
	/** Input item the request serves, for error messages. */
	itemIndex?: number;
}

export interface RetryPolicy {
	/**
	 * Rate-limit answers (429 or error code 2020202020) a request may meet before it fails. Only those that say more
	 * than "slow down" count: an answer with Retry-After, or one met while the pacer is already at its slowest
	 * (one start per PACING.slowestSpacingMs). The others slow the pacer down and are free.
	 */
	rateLimitAttempts: number;
	/** Attempts in all for idempotent requests after 5xx or network failures. */
	serverErrorAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

const DEFAULT_RETRY: RetryPolicy = {
	// A rate-limited request was not processed, so repeating it is safe. Several n8n workers share one account's
	// limit without sharing a pacer: they settle through these answers, which slow each pacer down but do not
	// count until a pacer can go no slower (about a minute of answers in a row), then 12 more (about 2 minutes).
	rateLimitAttempts: 12,
	serverErrorAttempts: 3,
	baseDelayMs: 1000,
	maxDelayMs: 30_000,
};

const MAX_PAGES = 10_000;

/** Encodes every interpolated value as one path segment: `apiPath\`/sms/numbers/info/${id}/${phone}\``. */
export function apiPath(strings: TemplateStringsArray, ...values: Array<string | number>): string {
	return strings.reduce(
		(path, part, index) =>
			path + part + (index < values.length ? encodeURIComponent(String(values[index])) : ''),
		'',
	);
}

/**
 * Query encoding, decided once here: arrays and objects go as JSON strings (`phones=["380…","380…"]`,
 * `route={"UA":"national"}`), the form the service's own documentation shows for its GET endpoints.
 */
function encodeQuery(query: IDataObject | undefined): IDataObject | undefined {
	if (!query) return undefined;
	const encoded: IDataObject = {};
	for (const [key, value] of Object.entries(query)) {
		if (value === undefined || value === null || value === '') continue;
		encoded[key] = typeof value === 'object' ? JSON.stringify(value) : value;
	}
	return encoded;
}

/** What n8n's request helper returns with `returnFullResponse`. */
interface FullResponse {
	body: unknown;
	headers?: IDataObject;
	statusCode: number;
}

/** No answer, or a server failure: worth repeating where repeating is harmless. */
function transient(failure: FailedAttempt): boolean {
	return (
		failure.networkCode !== undefined || (failure.status !== undefined && failure.status >= 500)
	);
}

/** A failure the service reported with HTTP 200. */
function failureIn200(body: unknown, resultFalseIsAnswer = false): boolean {
	const single = Array.isArray(body) && body.length === 1 ? body[0] : body;
	if (typeof single !== 'object' || single === null || Array.isArray(single)) return false;
	const record = single as IDataObject;
	if (record.is_error === true) return true;
	if (record.success === false) return true;
	if (record.result === false && !resultFalseIsAnswer) return true;
	const data = record.data as IDataObject | undefined;
	return (
		typeof data === 'object' &&
		data !== null &&
		data.result === false &&
		data.error !== undefined &&
		data.error !== null
	);
}

/**
 * The one way this package talks to the service: n8n's authenticated request helper (token exchange and the
 * single refresh after a 401 are n8n's, driven by the credential), plus pacing, bounded retries, the service's
 * error envelope and its odd success shapes.
 */
/** A 401 with Client ID and Secret (the exchange refused them, or the token they gave): what to do. */
const CLIENT_REFUSED =
	'The service refused the credential: open the Messaging credential and copy Client ID and Client Secret again from SendPulse (Account Settings → API), or switch Authentication to API Key and paste a key created there';
const API_KEY_REFUSED =
	'The service refused the credential: open the Messaging credential and paste an API key from SendPulse (Account Settings → API → Create API key); a deleted key stops working';

/**
 * Network failures that happen before a connection exists (no address for the host, the port refused it): the
 * request never left, so the error says nothing was sent instead of "may have processed it".
 */
const NEVER_CONNECTED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ERR_INVALID_URL']);

export class MessagingClient {
	private baseUrl?: string;
	/** The credential's secret values as loaded, masked wherever an answer is quoted in an error. */
	private credentialSecrets: unknown[] = [];
	/** What to tell a user whose credential the service refused (set with the Base URL). */
	private refusalHint = CLIENT_REFUSED;

	constructor(
		private readonly context: ClientContext,
		readonly pacer = new RequestPacer(),
		private readonly retry: RetryPolicy = DEFAULT_RETRY,
	) {}

	async request<T = unknown>(request: ApiRequest): Promise<T> {
		const idempotent =
			request.idempotent ?? ['GET', 'PUT', 'DELETE', 'HEAD'].includes(request.method);
		const options: IHttpRequestOptions = {
			method: request.method,
			url: `${await this.getBaseUrl()}${request.path}`,
			qs: encodeQuery(request.query),
			body: request.body,
			json: true,
			timeout: 120_000,
			// Status, headers and the body as received, so an answer that is not JSON can be told from one that is.
			returnFullResponse: true,
			// The service never redirects; following one would turn a POST into a GET somewhere else.
			disableFollowRedirect: true,
		};
		// Rate-limit answers that count against the retry budget (see RetryPolicy.rateLimitAttempts).
		let rateLimitsCounted = 0;
		let repeat = false;
		for (let attempt = 1; ; attempt++) {
			let failure: FailedAttempt;
			let start: PacedStart | undefined;
			try {
				const answer = (await this.pacer.run(async (paced) => {
					start = paced;
					return await this.context.helpers.httpRequestWithAuthentication.call(
						this.context,
						CREDENTIAL_TYPE,
						{ ...options },
					);
				}, repeat)) as FullResponse;
				const { body } = answer;
				if (typeof body !== 'object' || body === null) {
					failure = {
						status: answer.statusCode,
						headers: answer.headers,
						unreadable: {
							contentType: contentTypeOf(answer.headers),
							preview: answerPreview(body, this.secrets),
						},
					};
				} else if (!failureIn200(body, request.resultFalseIsAnswer)) {
					this.pacer.onAccepted();
					return this.unwrap(body, request) as T;
				} else {
					failure = { status: answer.statusCode, body };
				}
			} catch (error) {
				failure = describeThrown(error);
				if (failure.status === 401) throw this.authError(error, request.itemIndex);
			}
			repeat = false;
			if (isRateLimited(failure)) {
				// Not processed, so repeating is safe, even for a send. The pacer slows the whole execution down and
				// repeats the request at its next start (ahead of requests not yet tried): no request sleeps on its own.
				const pacerAtSlowest = this.pacer.onRateLimited(start);
				const retryAfter = Number(failure.headers?.['retry-after']);
				const told = Number.isFinite(retryAfter) && retryAfter >= 0;
				if (told || pacerAtSlowest) rateLimitsCounted++;
				if (rateLimitsCounted >= this.retry.rateLimitAttempts)
					throw this.finalError(failure, attempt, idempotent, request);
				// A told wait holds every start of the execution, with pacing on or off (RequestPacer.pauseFor).
				if (told) this.pacer.pauseFor(Math.min(retryAfter * 1000, this.retry.maxDelayMs * 2));
				// Without pacing (0 requests per second) nothing spaces the repeats: back off as for other failures.
				else if (!this.pacer.paces) await sleep(this.backoff(rateLimitsCounted));
				repeat = true;
				continue;
			}
			const delay = this.retryDelay(failure, attempt, idempotent);
			if (delay === undefined) throw this.finalError(failure, attempt, idempotent, request);
			await sleep(delay);
		}
	}

	/**
	 * One request whose answer must hold a list: `extract` (default: a bare array) returns it, or undefined when the
	 * answer holds none, which is an error, never an empty list.
	 */
	async requestList<T = IDataObject>(
		request: ApiRequest,
		extract: (body: unknown) => T[] | undefined = (body) =>
			Array.isArray(body) ? (body as T[]) : undefined,
	): Promise<T[]> {
		return await this.requestValue(request, 'list of records', extract);
	}

	/**
	 * One request whose answer must hold a value the operation reads (a count, a price, a yes/no): `read` returns
	 * it, or undefined when the answer holds none, which is an error, never NaN or a default.
	 */
	async requestValue<T>(
		request: ApiRequest,
		what: string,
		read: (body: unknown) => T | undefined,
	): Promise<T> {
		const body = await this.request(request);
		const value = read(body);
		if (value === undefined) throw this.unreadableAnswerError(request, body, what);
		return value;
	}

	/**
	 * Limit/offset lists as n8n users know them: all records, or the first `limit`. Stops on a short page and
	 * refuses to go past a hard cap of pages. `extract` returns the page's records, or undefined when the answer
	 * holds no list: that is an error, never an empty list (a user could not tell it from "nothing found").
	 */
	async paginate<T = IDataObject>(
		request: ApiRequest,
		options: {
			returnAll: boolean;
			limit?: number;
			pageSize?: number;
			extract?: (body: unknown) => T[] | undefined;
		},
	): Promise<T[]> {
		const pageSize = options.pageSize ?? 100;
		const limit = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
		const extract =
			options.extract ?? ((body: unknown) => (Array.isArray(body) ? (body as T[]) : undefined));
		const results: T[] = [];
		let offset = 0;
		for (let page = 0; page < MAX_PAGES; page++) {
			const wanted = Math.min(pageSize, limit - results.length);
			if (wanted <= 0) return results;
			const records = await this.requestList(
				{ ...request, query: { ...request.query, limit: wanted, offset } },
				extract,
			);
			// A page may hold more than asked (the service ignores `limit` on some paths): only what was asked is
			// kept, one by one (a spread of a page of 100,000 records would overflow the call stack).
			const kept = Math.min(records.length, wanted);
			for (let index = 0; index < kept; index++) results.push(records[index]);
			if (records.length < wanted) return results;
			offset += kept;
		}
		throw new NodeOperationError(
			this.context.getNode(),
			`Stopped after ${MAX_PAGES} pages: the list did not end`,
			{
				itemIndex: request.itemIndex,
				description: 'Use a Limit or narrower filters.',
			},
		);
	}

	private async getBaseUrl(): Promise<string> {
		if (this.baseUrl === undefined) {
			const credentials = await this.context.getCredentials(CREDENTIAL_TYPE);
			const urlProblem = baseUrlProblem(credentials.baseUrl);
			if (urlProblem)
				// Before any request: nothing was sent, and the credential's field is named.
				throw new NodeOperationError(this.context.getNode(), `Base URL: ${urlProblem}`, {
					description:
						'Open the Messaging credential and correct its Base URL (https://api.sendpulse.com for the service). Nothing was sent.',
				});
			this.baseUrl = baseUrlOf(credentials);
			this.credentialSecrets = [
				credentials.clientSecret,
				credentials.apiKey,
				signInValues(credentials).clientSecret,
				signInValues(credentials).apiKey,
				credentials.accessToken,
			];
			this.refusalHint = usesApiKey(credentials) ? API_KEY_REFUSED : CLIENT_REFUSED;
		}
		return this.baseUrl;
	}

	/**
	 * What an error must not show: the credential's values as loaded, and every token this process obtained, read
	 * when the error is built. The credential was loaded before this execution's own token exchange (and before a
	 * refresh after a 401), so the token in use may be one the loaded values do not hold.
	 */
	private get secrets(): unknown[] {
		return [...this.credentialSecrets, ...tokensKnown()];
	}

	/** A JSON answer without what the operation reads from it (an object of another shape, a number…). */
	private unreadableAnswerError(request: ApiRequest, body: unknown, what: string): NodeApiError {
		const error = new NodeApiError(
			this.context.getNode(),
			{ httpCode: '200' },
			{
				message: `The answer to ${request.method} ${request.path} holds no ${what}: ${answerPreview(body, this.secrets)}`,
				description:
					'The service answered in a shape this operation does not know, so nothing is output',
				httpCode: '200',
				itemIndex: request.itemIndex,
			},
		);
		if (request.itemIndex !== undefined) error.context.itemIndex = request.itemIndex;
		return error;
	}

	private unwrap(body: unknown, request: ApiRequest): unknown {
		return request.unwrapSingle && Array.isArray(body) && body.length === 1 ? body[0] : body;
	}

	/** Milliseconds to wait before repeating a request that was not rate-limited, or undefined to give up. */
	private retryDelay(
		failure: FailedAttempt,
		attempt: number,
		idempotent: boolean,
	): number | undefined {
		// A failed token exchange sent nothing, so even a send may be repeated.
		if (
			transient(failure) &&
			(idempotent || failure.beforeSend) &&
			attempt < this.retry.serverErrorAttempts
		)
			return this.backoff(attempt);
		return undefined;
	}

	/** Exponential backoff with jitter (50–100% of the step), so parallel items do not retry in lockstep. */
	private backoff(attempt: number): number {
		const step = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
		return Math.round(step * (0.5 + Math.random() * 0.5));
	}

	private finalError(
		failure: FailedAttempt,
		attempts: number,
		idempotent: boolean,
		request: ApiRequest,
	): NodeApiError {
		const node = this.context.getNode();
		if (isRateLimited(failure)) {
			return toNodeApiError(node, failure, {
				itemIndex: request.itemIndex,
				context: `Still rate-limited after ${attempts} attempts`,
				secrets: this.secrets,
			});
		}
		const repeated = attempts > 1 ? ` (${attempts} attempts)` : '';
		let context = '';
		if (failure.beforeSend) {
			context = `Nothing was sent: ${request.method} ${request.path} waits for the token exchange, which failed${repeated}`;
		} else if (failure.unreadable) {
			context = idempotent
				? 'Something other than the service may be answering (a proxy, a login page): check the Base URL of the credential'
				: `${request.method} ${request.path} may have been processed (the message may have been sent), but its answer cannot be read. Do not repeat it blindly: check what was sent first`;
		} else if (failure.networkCode !== undefined && NEVER_CONNECTED.has(failure.networkCode)) {
			context = `Nothing was sent: ${request.method} ${request.path} found no connection to the service (check the Base URL and the network)${repeated}`;
		} else if (transient(failure)) {
			context = !idempotent
				? `${request.method} ${request.path} was not retried: the service may have processed it, and repeating it could send twice. Check before re-running`
				: attempts > 1
					? `Failed ${attempts} times`
					: '';
		}
		const error = toNodeApiError(node, failure, {
			itemIndex: request.itemIndex,
			context,
			secrets: this.secrets,
		});
		// Send Once per Key keeps the key of such a send (shared/sendOnce/): it may have been delivered.
		if (!idempotent && !failure.beforeSend && (failure.unreadable || transient(failure)))
			error.context.sendOutcomeUnknown = true;
		return error;
	}

	/** A 401 that survived n8n's one token refresh: bad or revoked credentials. */
	private authError(error: unknown, itemIndex?: number): NodeApiError {
		return toNodeApiError(this.context.getNode(), describeThrown(error), {
			itemIndex,
			context: this.refusalHint,
			secrets: this.secrets,
		});
	}
}
