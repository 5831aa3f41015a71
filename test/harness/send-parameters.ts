import type { INodeParameters } from 'n8n-workflow';

/** Email → Send's parameters with sensible defaults (the sandbox's approved sender, one recipient, HTML and text). */
export function sendParameters(overrides: INodeParameters = {}): INodeParameters {
	return {
		resource: 'email',
		operation: 'send',
		fromEmail: 'sender@sandbox.test',
		fromName: 'Sandbox Sender',
		to: 'Ann <ann@example.com>',
		subject: 'Hello',
		content: 'htmlAndText',
		html: '<p>Hello</p>',
		text: 'Hello',
		...overrides,
	};
}
