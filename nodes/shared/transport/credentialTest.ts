import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { usesApiKey } from '../values/account';
import { accountTimeZone } from '../values/serviceTime';
import { answerPreview, maskSecrets, readServiceError } from './errors';
import { baseUrlOf, baseUrlProblem, signInValues } from './credentialValues';
import { contentTypeOf, type RawAnswer } from './http';
import { exchangeToken } from './token';

/** The name the action nodes and the polling triggers give this test in `methods.credentialTest`. */
export const CREDENTIAL_TEST_NAME = 'messagingServiceApiTest';

/**
 * The credential's Test/Retry button. Always judges exactly the values typed: a fresh token exchange with the
 * client id and secret (never a token stored from earlier values), then one cheap authenticated read,
 * GET /sms/senders, which answers even when the account's email area is not activated.
 */
export async function testMessagingCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	// A credential test's context offers only n8n's request helper (ICredentialTestFunctions has no httpRequest).
	const { helpers } = this;
	const send = async (options: IDataObject): Promise<RawAnswer> =>
		(await helpers.request({
			...options,
			json: true,
			// Status errors come back as answers, read below; redirects are not followed (the service never sends one).
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
		})) as RawAnswer;
	const zone = accountTimeZone(data.timeZone);
	if (!zone.ok) return { status: 'Error', message: `Account Time Zone: ${zone.problem}` };
	const urlProblem = baseUrlProblem(data.baseUrl);
	if (urlProblem) return { status: 'Error', message: `Base URL: ${urlProblem}` };
	const { apiKey } = signInValues(data);
	let token: string;
	try {
		token = usesApiKey(data)
			? apiKey
			: await exchangeToken(async (uri, body) => await send({ method: 'POST', uri, body }), data);
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	let answer: RawAnswer;
	try {
		answer = await send({
			method: 'GET',
			uri: `${baseUrlOf(data)}/sms/senders`,
			headers: { Authorization: `Bearer ${token}` },
		});
	} catch (error) {
		const code = (error as { code?: unknown }).code;
		return {
			status: 'Error',
			message: `The service could not be reached (${typeof code === 'string' ? code : 'no answer'})`,
		};
	}
	if (answer.statusCode >= 200 && answer.statusCode < 300) {
		if (typeof answer.body === 'object' && answer.body !== null)
			return { status: 'OK', message: 'Connection successful!' };
		return {
			status: 'Error',
			message: `The answer is not the service's JSON (HTTP ${answer.statusCode}, ${contentTypeOf(answer.headers)}): ${answerPreview(answer.body, [token])}. Check the Base URL.`,
		};
	}
	const { message, code } = readServiceError(answer.body);
	return {
		status: 'Error',
		message: message
			? `${maskSecrets(message, [token, data.clientSecret, data.apiKey, apiKey, signInValues(data).clientSecret])}${code !== undefined ? ` (error code ${code})` : ''}`
			: `The service answered HTTP ${answer.statusCode}`,
	};
}
