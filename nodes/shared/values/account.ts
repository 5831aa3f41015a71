import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IHookFunctions,
	type ILoadOptionsFunctions,
	type IPollFunctions,
	type IWebhookFunctions,
} from 'n8n-workflow';

import { accountTimeZone } from './serviceTime';

/** The credential's type name (credentials/MessagingServiceApi.credentials.ts). */
export const CREDENTIAL_TYPE = 'messagingServiceApi';

/**
 * Whether the credential signs in with its API key. n8n fills a property the saved data lacks with its default,
 * and the default became API Key after credentials had been saved with Client ID and Secret as the (then)
 * default, without `authType`: such a credential has a Client ID and Secret and no key, and keeps its meaning.
 */
export function usesApiKey(credentials: ICredentialDataDecryptedObject): boolean {
	if (credentials.authType === 'clientCredentials') return false;
	const filled = (value: unknown) => typeof value === 'string' && value.trim() !== '';
	if (
		!filled(credentials.apiKey) &&
		filled(credentials.clientId) &&
		filled(credentials.clientSecret)
	)
		return false;
	return true;
}

/**
 * The account's time zone from the credential (Account Time Zone): every date the nodes send or read is a
 * wall-clock time in it. A value that is not a zone fails naming the credential's field.
 */
export async function readAccountTimeZone(
	context:
		IExecuteFunctions | IPollFunctions | IWebhookFunctions | IHookFunctions | ILoadOptionsFunctions,
): Promise<string> {
	// The webhook trigger's credential is optional (it reads only this zone): without one, UTC.
	if (!context.getNode().credentials?.[CREDENTIAL_TYPE]) return 'UTC';
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const zone = accountTimeZone(credentials.timeZone);
	if (zone.ok) return zone.timeZone;
	throw new NodeOperationError(context.getNode(), `Account Time Zone: ${zone.problem}`, {
		description:
			"Open the Messaging credential and set Account Time Zone to your SendPulse account's zone as an IANA name, such as UTC or Europe/Berlin.",
	});
}
