import {
	ICredentialsHelper,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type INodeCredentialTestResult,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { CredentialTestContext, Credentials } from 'n8n-core';

import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials';
import { testMessagingCredential } from '../../nodes/shared/transport/credentialTest';
import { forgetIssuedTokens } from '../../nodes/shared/transport/token';

/**
 * Stands in for n8n's credential database: one stored record per credential type, shared by every execution
 * that uses the same store, so token reuse across executions can be counted. A new store is a new credential:
 * the process forgets the tokens it obtained for earlier ones.
 */
export class CredentialStore {
	private readonly records = new Map<string, ICredentialDataDecryptedObject>();
	/** How many times n8n persisted a new token into the store (one per token exchange). */
	updates = 0;

	constructor(data?: ICredentialDataDecryptedObject) {
		forgetIssuedTokens();
		if (data) this.set(data);
	}

	set(data: ICredentialDataDecryptedObject, type = 'messagingServiceApi') {
		this.records.set(type, { accessToken: '', ...data });
	}

	get(type = 'messagingServiceApi'): ICredentialDataDecryptedObject {
		const record = this.records.get(type);
		if (!record) throw new Error(`No test credential of type ${type}`);
		return { ...record };
	}

	update(type: string, data: ICredentialDataDecryptedObject) {
		this.records.set(type, { ...data });
		this.updates++;
	}
}

export function sandboxCredentials(
	sandbox: { url: string; account: { clientId: string; clientSecret: string; apiKey: string } },
	authType: 'clientCredentials' | 'apiKey' = 'clientCredentials',
): ICredentialDataDecryptedObject {
	return authType === 'apiKey'
		? { baseUrl: sandbox.url, authType, apiKey: sandbox.account.apiKey }
		: {
				baseUrl: sandbox.url,
				authType,
				clientId: sandbox.account.clientId,
				clientSecret: sandbox.account.clientSecret,
			};
}

/** The credential's Test button as n8n runs it (methods.credentialTest in n8n-core's CredentialTestContext). */
export async function runCredentialTest(
	data: Record<string, unknown>,
): Promise<INodeCredentialTestResult> {
	const context = new CredentialTestContext(
		{} as IWorkflowExecuteAdditionalData,
	) as unknown as ThisParameterType<typeof testMessagingCredential>;
	return await testMessagingCredential.call(context, {
		id: 'test',
		name: 'Messaging',
		type: 'messagingServiceApi',
		data: data as ICredentialDataDecryptedObject,
	});
}

const credentialTypes: Record<string, ICredentialType> = {
	messagingServiceApi: new MessagingServiceApi(),
};

/**
 * The credentials helper n8n's execution engine calls. `preAuthentication` follows n8n's own rules
 * (packages/cli credentials-helper): run the credential's preAuthentication when the expirable property is
 * empty or the request just failed with 401, then persist what it returned into the store.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly store: CredentialStore) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	) {
		const type = credentialTypes[typeName];
		if (typeof type?.authenticate === 'function')
			return await type.authenticate(credentials, requestOptions);
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type?.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable,
		);
		if (!type?.preAuthentication || !expirable) return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		this.store.update(typeName, { ...this.store.get(typeName), ...output });
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return credentialTypes[type]?.properties ?? [];
	}

	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	) {
		return this.store.get(type);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type, '');
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.store.update(type, data);
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getOAuth2Options() {
		return undefined;
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}
}
