import { createHash } from 'node:crypto';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import {
	answerPreview,
	maskSecrets,
	TOKEN_EXCHANGE_MARK,
	type TokenExchangeError,
	type TokenExchangeFailure,
} from './errors';
import { baseUrlOf, signInValues } from './credentialValues';
import { contentTypeOf, type RawAnswer } from './http';

/** The secret as saved and as sent: neither may appear in an error. */
const secretsOf = (credentials: ICredentialDataDecryptedObject): unknown[] => [
	credentials.clientSecret,
	signInValues(credentials).clientSecret,
];

export type PostJson = (url: string, body: IDataObject) => Promise<RawAnswer>;

/** The service's token endpoint. */
export const EXCHANGE_PATH = '/oauth/access_token';

function fail(failure: TokenExchangeFailure): TokenExchangeError {
	return Object.assign(new Error(`Token exchange failed: ${failure.message}`), {
		tokenExchange: failure,
		// n8n 1.x wraps this in a NodeApiError that drops an Error `cause` but keeps `description`: the failure
		// travels there too, so the node can still tell a refused exchange from a network failure (describeThrown).
		description: TOKEN_EXCHANGE_MARK + JSON.stringify(failure),
	});
}

/**
 * POST /oauth/access_token with exactly these client id and secret; the token, or a TokenExchangeError that tells
 * a refusal (401 + the service's message), a server failure (5xx) and a network failure (no answer) apart.
 */
export async function exchangeToken(
	post: PostJson,
	credentials: ICredentialDataDecryptedObject,
): Promise<string> {
	let answer: RawAnswer;
	try {
		answer = await post(`${baseUrlOf(credentials)}${EXCHANGE_PATH}`, {
			grant_type: 'client_credentials',
			client_id: signInValues(credentials).clientId,
			client_secret: signInValues(credentials).clientSecret,
		});
	} catch (error) {
		// Rebuilt from the error's code only: the original error carries the request body (the secret).
		const code = (error as { code?: unknown }).code;
		const networkCode = typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : 'UNKNOWN';
		throw fail({ message: `the service could not be reached (${networkCode})`, networkCode });
	}
	const body = answer.body as
		| {
				access_token?: unknown;
				message?: unknown;
				error_description?: unknown;
				error_code?: unknown;
		  }
		| undefined;
	const readable = typeof body === 'object' && body !== null;
	if (answer.statusCode >= 200 && answer.statusCode < 300) {
		if (readable && typeof body.access_token === 'string' && body.access_token)
			return body.access_token;
		throw fail({
			status: answer.statusCode,
			message: readable
				? 'the service answered without an access_token'
				: `the answer is not JSON (HTTP ${answer.statusCode}, ${contentTypeOf(answer.headers)}): ${answerPreview(body, secretsOf(credentials))}`,
		});
	}
	const serviceMessage = readable ? (body.message ?? body.error_description) : undefined;
	if (typeof serviceMessage === 'string' && serviceMessage) {
		throw fail({
			status: answer.statusCode,
			// The request carried the secret, and a service or proxy may echo it.
			message: maskSecrets(serviceMessage, secretsOf(credentials)),
			error_code: body?.error_code,
		});
	}
	throw fail({ status: answer.statusCode, message: `HTTP ${answer.statusCode}` });
}

/**
 * One exchange per credential per process, however many requests find the token missing at once: the first
 * starts it, the others wait for the same answer. Keyed by a digest of the exact values, so a changed secret
 * never joins an exchange made with the old one.
 */
const exchangesInFlight = new Map<string, Promise<string>>();

/**
 * The newest token this process obtained per credential, and the tokens it knows to be older (the ones requests
 * held when it exchanged, and the newest before). n8n stores a new token with the credential only after the
 * exchange, and an execution that loaded the credential before that still holds no token or an older one: it gets
 * the newest here instead of a second exchange, so a process exchanges at most once per expiry. A request holding
 * the newest itself (it was rejected), or a token this process does not know, exchanges; nothing is reused after
 * REUSE_FOR_MS (tokens live one hour).
 */
const issuedTokens = new Map<string, { token: string; older: string[]; at: number }>();
export const REUSE_FOR_MS = 50 * 60_000;
const OLDER_KEPT = 20;

/**
 * What a token is bound to: a digest of the values it was obtained with (Base URL, authentication type, client id,
 * secret). The credential stores it beside the token (`accessTokenFor`), so a token is never sent once any of them
 * changed: the credential's `authenticate` asks n8n for a new exchange instead (see MessagingServiceApi).
 */
export function credentialDigest(credentials: ICredentialDataDecryptedObject): string {
	return createHash('sha256')
		.update(
			JSON.stringify([
				'messaging-token-for',
				baseUrlOf(credentials),
				credentials.authType ?? '',
				signInValues(credentials).clientId,
				signInValues(credentials).clientSecret,
			]),
		)
		.digest('base64');
}

/** Every token this process obtained or saw replaced (the newest per credential and the older ones it keeps). */
export function tokensKnown(): string[] {
	const tokens: string[] = [];
	for (const { token, older } of issuedTokens.values()) {
		tokens.push(token);
		for (const old of older) tokens.push(old);
	}
	return tokens;
}

export async function sharedTokenExchange(
	post: PostJson,
	credentials: ICredentialDataDecryptedObject,
): Promise<string> {
	const key = credentialDigest(credentials);
	const held = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	const issued = issuedTokens.get(key);
	if (
		issued &&
		Date.now() - issued.at < REUSE_FOR_MS &&
		(held === '' || issued.older.includes(held))
	)
		return issued.token;
	let exchange = exchangesInFlight.get(key);
	if (!exchange) {
		exchange = exchangeToken(post, credentials)
			.then((token) => {
				const previous = issuedTokens.get(key);
				const older = [held, previous?.token ?? '', ...(previous?.older ?? [])].filter(
					(known, index, all) => known !== '' && known !== token && all.indexOf(known) === index,
				);
				issuedTokens.set(key, { token, older: older.slice(0, OLDER_KEPT), at: Date.now() });
				return token;
			})
			.finally(() => exchangesInFlight.delete(key));
		exchangesInFlight.set(key, exchange);
	}
	return await exchange;
}

/** For tests: a new credential store stands for a new credential, unknown to this process. */
export function forgetIssuedTokens() {
	issuedTokens.clear();
}
