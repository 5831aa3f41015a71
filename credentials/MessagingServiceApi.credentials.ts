import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { usesApiKey } from '../nodes/shared/values/account';
import type { RawAnswer } from '../nodes/shared/transport/http';
import { signInValues } from '../nodes/shared/transport/credentialValues';
import {
	credentialDigest,
	sharedTokenExchange,
	type PostJson,
} from '../nodes/shared/transport/token';

/**
 * The stored token was obtained with other values (the secret, client id or Base URL was changed and saved since):
 * it is never sent. n8n calls preAuthentication when the token is empty, and once after a request failed with 401;
 * this error has that status and is thrown before anything is sent, so n8n exchanges the values now saved (a wrong
 * secret then fails with the service's message) and sends the request once with the new token. The normal path
 * (token and values agree) exchanges nothing (bench scenario 4).
 */
function tokenForOtherValues(): Error {
	return Object.assign(
		new Error('The stored access token was obtained with other credential values'),
		{ response: { status: 401 } },
	);
}

/**
 * One credential for both areas. "Client ID and Secret" exchanges the pair for a one-hour token through n8n's
 * expirable-property mechanism: n8n calls preAuthentication when the hidden token is empty and once after a 401,
 * and stores the token with the credential so every execution and worker shares it; requests that find it missing
 * at the same moment share one exchange (transport/token.ts). The token is stored with a digest of the values it was
 * obtained with and is never sent with other values: see tokenForOtherValues. The Test button is the nodes' own credential test
 * (`testedBy`, transport/credentialTest.ts), which exchanges exactly the values typed: a `test` request here would
 * take precedence over it, and n8n runs that request with the stored token, so it cannot judge a changed secret.
 */
export class MessagingServiceApi implements ICredentialType {
	name = 'messagingServiceApi';

	displayName = 'Messaging Service (SendPulse) API';

	icon: Icon = {
		light: 'file:../nodes/shared/icons/messaging.svg',
		dark: 'file:../nodes/shared/icons/messaging.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-messaging/n8n-nodes-messaging#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'SendPulse email and SMS. Fastest: an API key. In SendPulse, open Account Settings → API, activate the REST API, click "Create API key", copy the key (it starts with sp_apikey_ and does not expire until you delete it) and paste it below. Then set your account\'s time zone (Account Settings → Time zone) and click Save: n8n tests the credential.',
			name: 'setupNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authType',
			type: 'options',
			options: [
				{
					name: 'API Key (Recommended)',
					value: 'apiKey',
					description: 'A key that does not expire, created in Account Settings → API',
				},
				{
					name: 'Client ID and Secret',
					value: 'clientCredentials',
					description: "The REST API's ID and Secret, exchanged for a one-hour token",
				},
			],
			// A credential saved before API Key was the default has no authType but a Client ID and Secret: it
			// keeps signing in with them (the hidden twins below, usesApiKey in nodes/shared/account.ts).
			default: 'apiKey',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'In SendPulse: Account Settings → API → Create API key. It starts with sp_apikey_ and is sent as a Bearer token.',
			displayOptions: { show: { authType: ['apiKey'] } },
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			description:
				"In SendPulse: Account Settings → API, the REST API's ID (activate the REST API there first)",
			displayOptions: { show: { authType: ['clientCredentials'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"In SendPulse: Account Settings → API, the REST API's Secret (shown next to the ID)",
			displayOptions: { show: { authType: ['clientCredentials'] } },
		},
		// A credential saved before API Key became the default has no authType: n8n reads it as API Key and would
		// drop its Client ID and Secret, shown only for Client ID and Secret. These hidden twins keep them (never
		// shown), so usesApiKey (nodes/shared/account.ts) can still sign in with them when no key is set.
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'hidden',
			default: '',
			displayOptions: { show: { authType: ['apiKey'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
			displayOptions: { show: { authType: ['apiKey'] } },
		},
		{
			displayName: 'Account Time Zone',
			name: 'timeZone',
			type: 'string',
			default: 'UTC',
			placeholder: 'Europe/Berlin',
			description:
				"Your SendPulse account's time zone (Account Settings → Time zone), as an IANA name such as UTC or Europe/Berlin. The service reads and writes times without a zone, in this one: Send At, date filters, event times and the triggers use it. A name that is no zone fails the Test, naming the zone it most likely meant.",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.sendpulse.com',
			description: "Root of the API. Change it only to reach a proxy or the package's API sandbox.",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// A digest of the values the token was obtained with (transport/token.ts credentialDigest).
			displayName: 'Access Token For',
			name: 'accessTokenFor',
			type: 'hidden',
			typeOptions: { password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (usesApiKey(credentials)) return {};
		const post: PostJson = async (url, body) =>
			(await this.helpers.httpRequest({
				method: 'POST',
				url,
				body,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
			})) as RawAnswer;
		// Errors carry the service's answer only (see exchangeToken), and no `response` property on purpose, so
		// n8n does not take a failed exchange for an expired token and exchange again.
		// The token is stored with the digest of the values it was obtained with; authenticate compares them.
		return {
			accessToken: await sharedTokenExchange(post, credentials),
			accessTokenFor: credentialDigest(credentials),
		};
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) {
		const apiKey = usesApiKey(credentials);
		if (!apiKey && credentials.accessTokenFor !== credentialDigest(credentials))
			throw tokenForOtherValues();
		const token = apiKey ? signInValues(credentials).apiKey : credentials.accessToken;
		requestOptions.headers = {
			...requestOptions.headers,
			Authorization: `Bearer ${String(token)}`,
		};
		return requestOptions;
	}
}
