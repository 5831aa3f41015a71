import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

/** Why a token exchange failed, from the service's answer or the network only (never the request: it holds the secret). */
export interface TokenExchangeFailure {
	/** HTTP status of the token endpoint's answer; undefined when no answer came. */
	status?: number;
	message: string;
	error_code?: unknown;
	/** Node's network error code (ECONNRESET, ETIMEDOUT…) when no answer came. */
	networkCode?: string;
}

export type TokenExchangeError = Error & { tokenExchange: TokenExchangeFailure };

export const RATE_LIMIT_ERROR_CODE = 2020202020;

/**
 * An operation's hint for one service error: a service error (NodeApiError) that `matches` gets `hint` as its
 * description; every error is thrown on as it is.
 */
export async function withServiceHint<T>(
	request: Promise<T>,
	matches: (error: NodeApiError) => boolean,
	hint: string,
): Promise<T> {
	return await request.catch(async (error: unknown) => {
		if (error instanceof NodeApiError && matches(error)) error.description = hint;
		return await Promise.reject(error);
	});
}

/** What the transport learned from a failed attempt, before deciding to retry or to throw. */
export interface FailedAttempt {
	/** HTTP status; undefined for network failures (no answer). */
	status?: number;
	/** The service's error body, when it sent one. */
	body?: unknown;
	headers?: Record<string, unknown>;
	/** Node's network error code (ECONNRESET, ETIMEDOUT…) when no answer came. */
	networkCode?: string;
	/** The token exchange failed, so the request itself never reached the service: repeating it is harmless. */
	beforeSend?: boolean;
	/** A 2xx answer that is not JSON (truncated, an HTML page from a proxy, plain text). */
	unreadable?: { contentType: string; preview: string };
}

interface ServiceErrorBody {
	message?: unknown;
	error_code?: unknown;
	error?: unknown;
	error_description?: unknown;
	data?: { error?: unknown };
}

/** Reads the service's message and code from its error envelope (or from a 200-with-error body). */
export function readServiceError(body: unknown): { message?: string; code?: number | string } {
	if (Array.isArray(body) && body.length === 1) return readServiceError(body[0]);
	if (typeof body !== 'object' || body === null) return {};
	const envelope = body as ServiceErrorBody;
	const message = [
		envelope.message,
		envelope.error_description,
		envelope.data?.error,
		envelope.error,
	].find((candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0);
	const code = envelope.error_code;
	return { message, code: typeof code === 'number' || typeof code === 'string' ? code : undefined };
}

export function isRateLimited(attempt: FailedAttempt): boolean {
	return (
		attempt.status === 429 || Number(readServiceError(attempt.body).code) === RATE_LIMIT_ERROR_CODE
	);
}

const EMAIL_NOT_ACTIVATED = /No such SMTP user/i;

/**
 * Builds the NodeApiError users see: the service's own message and code, the HTTP status and the item.
 * Built from the service's body only — never from the request, which carries the Bearer token — and with
 * `secrets` (the credential's values) masked in the service's message, which may echo them.
 */
export function toNodeApiError(
	node: INode,
	attempt: FailedAttempt,
	{
		itemIndex,
		context = '',
		secrets,
	}: { itemIndex?: number; context?: string; secrets: unknown[] },
): NodeApiError {
	const { message: quoted, code } = readServiceError(attempt.body);
	const serviceMessage = quoted === undefined ? undefined : maskSecrets(quoted, secrets);
	const httpCode = attempt.status === undefined ? undefined : String(attempt.status);
	let message: string;
	let description: string | undefined;
	if (serviceMessage && EMAIL_NOT_ACTIVATED.test(serviceMessage)) {
		message = "The account's email (SMTP) area is not activated";
		description =
			`The service answered "${serviceMessage}". Activate the SMTP service in your account ` +
			'(dashboard → SMTP → activate / fill in the sender profile), wait for approval, then run the node again.';
	} else if (attempt.unreadable) {
		const { contentType, preview } = attempt.unreadable;
		message = `The answer is not the service's JSON (HTTP ${attempt.status ?? '?'}, ${contentType}): ${preview}`;
	} else if (attempt.status !== undefined && attempt.status >= 300 && attempt.status < 400) {
		message = `The service answered with a redirect (HTTP ${attempt.status}${redirectTarget(attempt.headers)}), which it never does`;
		description =
			'Redirects are not followed. Check the Base URL of the credential (https, host, no extra path): a proxy or another server may be answering.';
	} else if (serviceMessage) {
		message = code !== undefined ? `${serviceMessage} (error code ${code})` : serviceMessage;
	} else if (attempt.networkCode) {
		message = `The service could not be reached (${attempt.networkCode})`;
	} else {
		message = `The service answered HTTP ${attempt.status ?? '?'} without an error message`;
	}
	if (context) description = description ? `${context}. ${description}` : context;
	// Only the code and status: n8n would otherwise copy the service message into the description as well.
	const errorResponse: JsonObject = {
		...(code !== undefined ? { error_code: code } : {}),
		...(httpCode ? { httpCode } : {}),
		...(attempt.networkCode ? { code: attempt.networkCode } : {}),
	};
	const error = new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode,
		itemIndex,
	});
	// NodeApiError keeps a few fields for the UI; make the service's code reachable for expressions and tests.
	error.context.serviceErrorCode = code;
	if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
	return error;
}

/** ` to https://host/path` of a redirect's Location, without its query (it may carry a token). */
function redirectTarget(headers: Record<string, unknown> | undefined): string {
	const location = headers?.location ?? headers?.Location;
	return typeof location === 'string' && location ? ` to ${location.split(/[?#]/)[0]}` : '';
}

/** Pulls status, body and headers out of what n8n's request helper threw. */
/** Marks a token exchange failure carried in an error's `description` (n8n 1.x keeps no Error `cause`). */
export const TOKEN_EXCHANGE_MARK = 'messaging-token-exchange:';

function tokenExchangeIn(candidate: unknown): TokenExchangeFailure | undefined {
	const description = (candidate as { description?: unknown })?.description;
	if (typeof description !== 'string' || !description.startsWith(TOKEN_EXCHANGE_MARK))
		return undefined;
	try {
		const failure = JSON.parse(
			description.slice(TOKEN_EXCHANGE_MARK.length),
		) as TokenExchangeFailure;
		return typeof failure?.message === 'string' ? failure : undefined;
	} catch {
		return undefined;
	}
}

export function describeThrown(error: unknown): FailedAttempt {
	const candidates = [error, (error as { cause?: unknown }).cause];
	for (const candidate of candidates) {
		// Thrown by the credential's token exchange (transport/token.ts): a refusal keeps its 401, a network
		// failure stays a network failure, and either way the request itself was not sent.
		const tokenExchange =
			(candidate as Partial<TokenExchangeError>)?.tokenExchange ?? tokenExchangeIn(candidate);
		if (tokenExchange) {
			return {
				status: tokenExchange.status,
				networkCode: tokenExchange.networkCode,
				body: {
					message: `Token exchange failed: ${tokenExchange.message}`,
					error_code: tokenExchange.error_code,
				},
				beforeSend: true,
			};
		}
	}
	for (const candidate of candidates) {
		const response = (
			candidate as {
				response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
			}
		)?.response;
		if (response?.status)
			return { status: response.status, body: response.data, headers: response.headers };
	}
	for (const candidate of candidates) {
		const code = (candidate as { code?: unknown })?.code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return { networkCode: code };
	}
	const httpCode = Number((error as { httpCode?: unknown }).httpCode);
	// n8n 1.x's NodeApiError drops the request's error it wraps (its ExecutionBaseError re-declares `cause`), but
	// keeps the answer's JSON object in context.data: the service's message is still there.
	const kept = (error as { context?: { data?: unknown } }).context?.data;
	const body = typeof kept === 'object' && kept !== null && !Array.isArray(kept) ? kept : undefined;
	if (httpCode) return body ? { status: httpCode, body } : { status: httpCode };
	return { networkCode: 'UNKNOWN' };
}

const PREVIEW_CHARACTERS = 120;

/**
 * The text with anything that looks like a credential masked, and the given values (the credential's own secrets):
 * a proxy or a service may echo the request's Authorization header or body in its answer.
 */
export function maskSecrets(text: string, secrets: unknown[]): string {
	let masked = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= 4) masked = masked.split(secret).join('***');
	}
	return masked
		.replace(/(Bearer\s+)[^\s"'<>,;]+/gi, '$1***')
		.replace(/sp_apikey_[\w-]+/g, 'sp_apikey_***')
		.replace(/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '***')
		.replace(
			/((?:access_token|client_secret|api_?key|token)["']?\s*[:=]\s*["']?)[^\s"'&<>,;]+/gi,
			'$1***',
		);
}

/** The first characters of an answer, for an error message: whitespace folded, secrets masked (`maskSecrets`). */
export function answerPreview(body: unknown, secrets: unknown[] = []): string {
	if (body === undefined || body === '') return '(empty body)';
	const text = maskSecrets(
		(typeof body === 'string' ? body : JSON.stringify(body)).replace(/\s+/g, ' ').trim(),
		secrets,
	);
	return JSON.stringify(
		text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS)}…` : text,
	);
}
