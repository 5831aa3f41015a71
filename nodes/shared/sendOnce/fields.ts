import type { INodeProperties } from 'n8n-workflow';

/**
 * The "Send Once per Key" option of the operations that make the service send a message (Email → Send, SMS →
 * Send to Numbers, SMS → Create for List): an entry of the operation's Options. How it works and why:
 * docs/send-once.md.
 */
export const sendOnceOption: INodeProperties = {
	displayName: 'Send Once per Key',
	name: 'sendOnce',
	type: 'fixedCollection',
	placeholder: 'Add Send Once Key',
	default: {},
	description:
		'Whether to remember what was sent, so that a re-run, a Retry or a repeated webhook does not send the same message again: an item whose key was already sent is not sent and comes out with alreadySent: true',
	options: [
		{
			displayName: 'Send Once per Key',
			name: 'settings',
			values: [
				{
					displayName: 'Key',
					name: 'key',
					type: 'string',
					default: '',
					placeholder: 'e.g. {{ $json.orderId }}-confirmation',
					description:
						'What makes a message the same message, per item (text or a number). Empty: a digest of the message itself (sender, recipients, subject or text, content or template and variables), so the same message to the same people is sent once.',
				},
				{
					displayName: 'Remember Per',
					name: 'scope',
					type: 'options',
					options: [
						{
							name: 'This Node',
							value: 'node',
							description: "Keys are this node's own (they stay when the node is renamed)",
						},
						{
							name: 'Whole Workflow',
							value: 'workflow',
							description:
								'Keys are shared by every node of this workflow that remembers per workflow: a key one of them sent is not sent by another',
						},
					],
					default: 'node',
				},
				{
					displayName: 'Remember For (Days)',
					name: 'days',
					type: 'number',
					typeOptions: { minValue: 0 },
					default: 30,
					description:
						'How long a sent key is remembered: at least this many days, at most twice as long (n8n keeps no time with a key, see the docs). 0: until forgotten. Changing it forgets the keys remembered so far.',
				},
				{
					displayName: 'Forget First',
					name: 'forget',
					type: 'options',
					options: [
						{ name: 'Nothing', value: 'nothing', description: 'Send each key once' },
						{
							name: "This Run's Keys",
							value: 'items',
							description:
								"Forget the keys of this run's items, then send them: to send again on purpose (e.g. after a send whose outcome is unknown)",
						},
						{
							name: 'Everything Remembered',
							value: 'all',
							description: 'Forget every key remembered here (per node or per workflow), then send',
						},
					],
					default: 'nothing',
					description:
						'Whether this run forgets keys before sending. Set it back to Nothing after the run.',
				},
			],
		},
	],
};
