import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

/**
 * One credential for both areas. "Client ID and Secret" exchanges the pair for a one-hour token through n8n's
 * expirable-property mechanism: n8n calls preAuthentication when the hidden token is empty, on a credential
 * test, and once after a 401, and stores the token with the credential so every execution and worker shares it.
 */
export class MessagingServiceApi implements ICredentialType {
	name = 'messagingServiceApi';

	displayName = 'Messaging Service API';

	icon: Icon = { light: 'file:messaging.svg', dark: 'file:messaging.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-messaging/n8n-nodes-messaging#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.sendpulse.com',
			description: 'Root of the API. Change it only to reach a proxy or the package\'s API sandbox.',
		},
		{
			displayName: 'Authentication',
			name: 'authType',
			type: 'options',
			options: [
				{ name: 'Client ID and Secret', value: 'clientCredentials' },
				{ name: 'API Key', value: 'apiKey' },
			],
			default: 'clientCredentials',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { authType: ['clientCredentials'] } },
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { authType: ['clientCredentials'] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'A static key (it starts with sp_apikey_), sent as a Bearer token',
			displayOptions: { show: { authType: ['apiKey'] } },
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (credentials.authType === 'apiKey') return {};
		let response: { access_token?: unknown };
		try {
			response = (await this.helpers.httpRequest({
				method: 'POST',
				url: `${trimSlash(credentials.baseUrl)}/oauth/access_token`,
				body: {
					grant_type: 'client_credentials',
					client_id: credentials.clientId,
					client_secret: credentials.clientSecret,
				},
				json: true,
			})) as { access_token?: unknown };
		} catch (error) {
			// Rebuilt from the service's answer only: the original error carries the request body (the secret).
			// No `response` property on purpose, so n8n does not treat it as an expired token and exchange again.
			const tokenExchange = readTokenError(error);
			throw Object.assign(new Error(`Token exchange failed: ${tokenExchange.message}`), { tokenExchange });
		}
		if (typeof response?.access_token !== 'string' || !response.access_token) {
			throw new Error('Token exchange failed: the service answered without an access_token');
		}
		return { accessToken: response.access_token };
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) {
		const token = credentials.authType === 'apiKey' ? credentials.apiKey : credentials.accessToken;
		requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${String(token)}` };
		return requestOptions;
	}

	// GET /sms/senders: cheap, authenticated, and answers even when the account's email area is not activated.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/sms/senders',
			method: 'GET',
		},
	};
}

function trimSlash(url: unknown): string {
	return String(url ?? '').replace(/\/+$/, '');
}

/** The service's status, message and code from a failed token request; nothing else. */
function readTokenError(error: unknown): { status?: number; message: string; error_code?: unknown } {
	const response = (error as { response?: { status?: number; data?: unknown } }).response;
	const data = (response?.data ?? {}) as { message?: unknown; error_description?: unknown; error_code?: unknown };
	const serviceMessage = data.message ?? data.error_description;
	if (typeof serviceMessage === 'string') {
		return { status: response?.status, message: serviceMessage, error_code: data.error_code };
	}
	if (response?.status) return { status: response.status, message: `HTTP ${response.status}` };
	const code = (error as { code?: unknown }).code;
	return { message: `the service could not be reached (${typeof code === 'string' ? code : 'no answer'})` };
}
