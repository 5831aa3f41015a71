/**
 * The workflows both sides run, as n8n stores them. Every parameter name here was checked against the installed
 * n8n 2.40.7 sources (n8n-nodes-base HttpRequest V3, Code, Webhook, ExtractFromFile) and against this package's
 * node descriptions; the sandbox log of every run shows the requests they make.
 */
import { randomUUID } from 'node:crypto';

export const CREDENTIAL_TYPE = 'messagingServiceApi';
export const SENDER = 'sender@sandbox.test';
/** The newest HTTP Request version in n8n 2.40.7 (what a user adding the node today gets). */
export const HTTP_REQUEST_VERSION = 4.5;

export interface NodeSpec {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentialId?: string;
	onError?: 'continueRegularOutput' | 'stopWorkflow';
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: object[];
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
	active: boolean;
	pinData: Record<string, unknown>;
}

/** 16-character workflow ids, as `n8n import:workflow` wants for `execute --id`. */
export function workflowId(label: string): string {
	return `bench${label.replace(/[^A-Za-z0-9]/g, '')}`.padEnd(16, '0').slice(0, 16);
}

/** A linear workflow: trigger → nodes…; `trigger` is a Manual Trigger (for `n8n execute`) or a Webhook path. */
export function linearWorkflow(
	label: string,
	name: string,
	trigger: { manual: true } | { webhookPath: string },
	nodes: NodeSpec[],
): WorkflowJson {
	const triggerNode =
		'manual' in trigger
			? { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} }
			: {
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2.1,
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path: trigger.webhookPath,
						responseMode: 'lastNode',
						options: {},
					},
				};
	const all = [triggerNode, ...nodes];
	const connections: Record<string, unknown> = {};
	for (let index = 0; index < all.length - 1; index++) {
		connections[all[index].name] = {
			main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return {
		id: workflowId(label),
		name,
		nodes: all.map((node, index) => {
			const spec = node as NodeSpec & { webhookId?: string };
			return {
				id: randomUUID(),
				name: spec.name,
				type: spec.type,
				typeVersion: spec.typeVersion,
				position: [index * 220, 0],
				parameters: spec.parameters,
				...(spec.webhookId ? { webhookId: spec.webhookId } : {}),
				...(spec.credentialId
					? {
							credentials: {
								[CREDENTIAL_TYPE]: { id: spec.credentialId, name: `Bench ${spec.credentialId}` },
							},
						}
					: {}),
				...(spec.onError ? { onError: spec.onError } : {}),
			};
		}),
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
		pinData: {},
	};
}

/** A Code node emitting `count` items built by `itemExpression` (JavaScript, `i` is the index). */
export function generate(count: number, itemExpression: string, name = 'Generate'): NodeSpec {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode: `const out = [];\nfor (let i = 0; i < ${count}; i++) out.push({ json: ${itemExpression} });\nreturn out;`,
		},
	};
}

/** Items for the email scenarios: a unique recipient, a name and a small HTML body each. */
export const emailItems = (count: number) =>
	generate(
		count,
		"{ email: 'user' + i + '@example.com', name: 'User ' + i, html: '<p>Hello User ' + i + ', your code is ' + (1000 + i) + '.</p>' }",
	);

/** This package's Messaging Email → Email → Send, fields mapped from the item. */
export function oursEmailSend(
	credentialId: string,
	requestOptions: Record<string, unknown> = {},
	options: Record<string, unknown> = {},
): NodeSpec {
	return {
		name: 'Send',
		type: 'n8n-nodes-messaging.messagingEmail',
		typeVersion: 1,
		credentialId,
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'email',
			operation: 'send',
			fromEmail: SENDER,
			fromName: 'Bench',
			recipientsInput: 'text',
			to: '={{ $json.email }}',
			subject: '=Hello {{ $json.name }}',
			content: 'htmlAndText',
			html: '={{ $json.html }}',
			options,
			requestOptions,
		},
	};
}

const HTTP_EMAIL_BODY =
	"={{ JSON.stringify({ email: { subject: 'Hello ' + $json.name, from: { name: 'Bench', email: '" +
	SENDER +
	"' }, to: [{ email: $json.email }], html: $json.html.base64Encode() } }) }}";

/**
 * n8n's HTTP Request node as a careful user sets it up for the same send: the package's credential as a
 * predefined credential type (n8n then runs its token exchange and Bearer header), JSON body by expression (the
 * service wants the HTML base64-encoded), default options unless `options` says otherwise.
 */
export function httpEmailSend(
	baseUrl: string,
	credentialId: string,
	options: Record<string, unknown> = {},
	body = HTTP_EMAIL_BODY,
): NodeSpec {
	return {
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		credentialId,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${baseUrl}/smtp/emails`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: body,
			options,
		},
	};
}

/** The HTTP Request node's batching option, e.g. 10 items every 1,000 ms. */
export const httpBatching = (batchSize: number, batchInterval: number) => ({
	batching: { batch: { batchSize, batchInterval } },
});

/** The same send with no credential type for the service: a token request in the workflow, then a Bearer header. */
export function httpTokenThenSend(
	baseUrl: string,
	client: { clientId: string; clientSecret: string },
): NodeSpec[] {
	return [
		{
			name: 'Get token',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: HTTP_REQUEST_VERSION,
			parameters: {
				method: 'POST',
				url: `${baseUrl}/oauth/access_token`,
				sendBody: true,
				contentType: 'json',
				specifyBody: 'keypair',
				bodyParameters: {
					parameters: [
						{ name: 'grant_type', value: 'client_credentials' },
						{ name: 'client_id', value: client.clientId },
						{ name: 'client_secret', value: client.clientSecret },
					],
				},
				options: {},
			},
		},
	];
}

export function httpEmailSendWithHeader(baseUrl: string): NodeSpec {
	return {
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${baseUrl}/smtp/emails`,
			authentication: 'none',
			sendHeaders: true,
			specifyHeaders: 'keypair',
			headerParameters: {
				parameters: [
					{
						name: 'Authorization',
						value: "=Bearer {{ $('Get token').first().json.access_token }}",
					},
				],
			},
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: HTTP_EMAIL_BODY,
			options: {},
		},
	};
}

/** Messaging SMS → Phone Number → Add, one phone per item, combined by the node (default batch size 1,000). */
export function oursPhoneAdd(
	credentialId: string,
	addressBookId: number,
	requestOptions: Record<string, unknown> = {},
): NodeSpec {
	return {
		name: 'Send',
		type: 'n8n-nodes-messaging.messagingSms',
		typeVersion: 1,
		credentialId,
		onError: 'continueRegularOutput',
		parameters: {
			resource: 'phoneNumber',
			operation: 'add',
			addressBookId,
			phones: '={{ $json.phone }}',
			batching: {},
			requestOptions,
		},
	};
}

/** HTTP Request: POST /sms/numbers per item, `{addressBookId, phones:[phone]}`. */
export function httpPhoneAdd(
	baseUrl: string,
	credentialId: string,
	addressBookId: number,
): NodeSpec {
	return {
		name: 'Send',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		credentialId,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${baseUrl}/sms/numbers`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ addressBookId: ${addressBookId}, phones: [$json.phone] }) }}`,
			options: {},
		},
	};
}

/**
 * n8n's own Aggregate node gathering every item's phone into one list: the same volume of output as Messaging
 * SMS → Add (every phone, and a pairedItem entry per input item), with no request and no code of ours.
 */
export const aggregatePhones: NodeSpec = {
	name: 'Send',
	type: 'n8n-nodes-base.aggregate',
	typeVersion: 1,
	parameters: {
		aggregate: 'aggregateIndividualFields',
		fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'phone', renameField: false }] },
		options: {},
	},
};

export const phoneItems = (count: number) => generate(count, '{ phone: String(380500000000 + i) }');

/**
 * One item with a binary attachment of `bytes` bytes made inside the workflow (a Code node returning base64
 * binary data; n8n stores it with its binary data service).
 */
export function binaryItem(bytes: number): NodeSpec {
	return {
		name: 'Generate',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode:
				`const size = ${bytes};\n` +
				"const chunk = 'The quick brown fox jumps over the lazy dog 0123456789\\n';\n" +
				'const text = chunk.repeat(Math.ceil(size / chunk.length)).slice(0, size);\n' +
				"return [{ json: { email: 'user0@example.com', name: 'User 0', html: '<p>Your report is attached.</p>' }, binary: { data: { data: Buffer.from(text).toString('base64'), mimeType: 'text/plain', fileName: 'report.txt' } } }];",
		},
	};
}

/** Extract From File → "Move File to Base64 String": what an HTTP Request user needs to put a binary into JSON. */
export const extractToBase64: NodeSpec = {
	name: 'To base64',
	type: 'n8n-nodes-base.extractFromFile',
	typeVersion: 1.1,
	parameters: {
		operation: 'binaryToPropery',
		binaryPropertyName: 'data',
		destinationKey: 'attachment',
		options: { keepSource: 'json' },
	},
};

export const HTTP_ATTACHMENT_BODY =
	"={{ JSON.stringify({ email: { subject: 'Hello ' + $json.name, from: { name: 'Bench', email: '" +
	SENDER +
	"' }, to: [{ email: $json.email }], html: $json.html.base64Encode(), attachments_binary: { 'report.txt': $json.attachment } } }) }}";

export const HTTP_NO_ATTACHMENT_BODY = HTTP_EMAIL_BODY;

/** A workflow run on its own `n8n execute` process in the full bench, by webhook in the server for a smoke run. */
export function isolatedWorkflow(
	label: string,
	name: string,
	smoke: boolean,
	nodes: NodeSpec[],
): WorkflowJson {
	return linearWorkflow(
		label,
		name,
		smoke ? { webhookPath: `bench-${label}` } : { manual: true },
		nodes,
	);
}
