/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Workflow, type INode, type INodeType } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingEmailTrigger } from '../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';
import { NodeTypes } from '../harness/run-node';

/** Issue 22, items 6 and 7: the service's name where n8n searches, one name per node, labels in words. */
const NODES: Array<[string, INodeType]> = [
	['MessagingEmail', new MessagingEmail()],
	['MessagingEmailTrigger', new MessagingEmailTrigger()],
	['MessagingSms', new MessagingSms()],
	['MessagingSmsTrigger', new MessagingSmsTrigger()],
	['MessagingTrigger', new MessagingTrigger()],
];

const codex = (folder: string) =>
	JSON.parse(
		readFileSync(join(__dirname, '../../nodes', folder, `${folder}.node.json`), 'utf8'),
	) as { alias?: string[] };

test.each(NODES)(
	'%s: "SendPulse" among its codex aliases and in its description',
	(folder, node) => {
		expect(codex(folder).alias).toContain('SendPulse');
		expect(node.description.description).toContain('SendPulse');
	},
);

test.each(NODES)('%s: one name (the default node name is the display name)', (_, node) => {
	expect(node.description.defaults.name).toBe(node.description.displayName);
});

test('the SMS trigger has the SMS icon, not the envelope', () => {
	expect(new MessagingSmsTrigger().description.icon).toEqual(new MessagingSms().description.icon);
	expect(new MessagingSmsTrigger().description.icon).not.toEqual(
		new MessagingEmailTrigger().description.icon,
	);
});

test('the two bounce triggers say in their description which to choose: the other one is named', () => {
	expect(new MessagingTrigger().description.description).toContain(
		'use Messaging Email Trigger (webhook)',
	);
	expect(new MessagingEmailTrigger().description.description).toContain(
		'without that, Messaging Email & SMS Trigger polls bounces and unsubscribes',
	);
});

test('every Email Trigger event has a description', () => {
	const events = new MessagingEmailTrigger().description.properties.find(
		(property) => property.name === 'events',
	)!;
	for (const option of events.options as Array<{ name: string; description?: string }>)
		expect([option.name, Boolean(option.description)]).toEqual([option.name, true]);
});

test('the Email Trigger set-up notice: list items without a second marker', () => {
	const notice = String(
		new MessagingEmailTrigger().description.properties.find((p) => p.name === 'setupNotice')!
			.displayName,
	);
	expect(notice).toContain('<li>');
	expect(notice).not.toMatch(/<li>\s*\d+\./);
});

/** The subtitle as n8n's editor shows it under the node: the description's expression, evaluated by n8n. */
function subtitleOf(node: INodeType, events: unknown): string {
	const type = `n8n-nodes-messaging.${node.description.name}`;
	const instance: INode = {
		id: 'n',
		name: 'Trigger',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: { events } as never,
	};
	const workflow = new Workflow({
		nodes: [instance],
		connections: {},
		active: false,
		nodeTypes: new NodeTypes({ [type]: node }),
	});
	return String(
		workflow.expression.getSimpleParameterValue(
			instance,
			node.description.subtitle!,
			'internal',
			{},
		),
	);
}

test.each([
	[new MessagingSmsTrigger(), ['smsNotDelivered'], 'On SMS Not Delivered'],
	[new MessagingSmsTrigger(), ['smsSent', 'smsDelivered'], 'On SMS Sent and SMS Delivered'],
	[new MessagingTrigger(), ['bounce', 'smsNotDelivered'], 'On Bounce and SMS Not Delivered'],
])('trigger labels show words, not values: %#', (node, events, shown) => {
	expect(subtitleOf(node, events)).toBe(shown);
});
