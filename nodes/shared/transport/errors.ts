import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

export const RATE_LIMIT_ERROR_CODE = 2020202020;

/** What the transport learned from a failed attempt, before deciding to retry or to throw. */
export interface FailedAttempt {
	/** HTTP status; undefined for network failures (no answer). */
	status?: number;
	/** The service's error body, when it sent one. */
	body?: unknown;
	headers?: Record<string, unknown>;
	/** Node's network error code (ECONNRESET, ETIMEDOUT…) when no answer came. */
	networkCode?: string;
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
	const message =
		[envelope.message, envelope.error_description, envelope.data?.error, envelope.error].find(
			(candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0,
		);
	const code = envelope.error_code;
	return { message, code: typeof code === 'number' || typeof code === 'string' ? code : undefined };
}

export function isRateLimited(attempt: FailedAttempt): boolean {
	return attempt.status === 429 || Number(readServiceError(attempt.body).code) === RATE_LIMIT_ERROR_CODE;
}

const EMAIL_NOT_ACTIVATED = /No such SMTP user/i;

/**
 * Builds the NodeApiError users see: the service's own message and code, the HTTP status and the item.
 * Built from the service's body only — never from the request, which carries the Bearer token.
 */
export function toNodeApiError(node: INode, attempt: FailedAttempt, itemIndex?: number, context = ''): NodeApiError {
	const { message: serviceMessage, code } = readServiceError(attempt.body);
	const httpCode = attempt.status === undefined ? undefined : String(attempt.status);
	let message: string;
	let description: string | undefined;
	if (serviceMessage && EMAIL_NOT_ACTIVATED.test(serviceMessage)) {
		message = "The account's email (SMTP) area is not activated";
		description =
			`The service answered "${serviceMessage}". Activate the SMTP service in your account ` +
			'(dashboard → SMTP → activate / fill in the sender profile), wait for approval, then run the node again.';
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
	const error = new NodeApiError(node, errorResponse, { message, description, httpCode, itemIndex });
	// NodeApiError keeps a few fields for the UI; make the service's code reachable for expressions and tests.
	error.context.serviceErrorCode = code;
	if (itemIndex !== undefined) error.context.itemIndex = itemIndex;
	return error;
}

/** Pulls status, body and headers out of what n8n's request helper threw. */
export function describeThrown(error: unknown): FailedAttempt {
	const candidates = [error, (error as { cause?: unknown }).cause];
	for (const candidate of candidates) {
		// Thrown by the credential's token exchange (see MessagingServiceApi.preAuthentication).
		const tokenExchange = (candidate as { tokenExchange?: { status?: number; message: string; error_code?: unknown } })
			?.tokenExchange;
		if (tokenExchange) {
			return {
				status: tokenExchange.status ?? 401,
				body: { message: `Token exchange failed: ${tokenExchange.message}`, error_code: tokenExchange.error_code },
			};
		}
	}
	for (const candidate of candidates) {
		const response = (candidate as { response?: { status?: number; data?: unknown; headers?: Record<string, unknown> } })
			?.response;
		if (response?.status) return { status: response.status, body: response.data, headers: response.headers };
	}
	for (const candidate of candidates) {
		const code = (candidate as { code?: unknown })?.code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return { networkCode: code };
	}
	const httpCode = Number((error as { httpCode?: unknown }).httpCode);
	if (httpCode) return { status: httpCode };
	return { networkCode: 'UNKNOWN' };
}
