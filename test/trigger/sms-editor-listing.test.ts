/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';

/**
 * How n8n's editor (2.40.7, node creator: useActionsGeneration → generateMergedNodesAndActions) files a trigger:
 * it strips the first "Trigger" from the trigger's type name and, when an action node has that exact type name,
 * lists the trigger's events under that node's Triggers; otherwise the trigger is an entry of its own, shown with
 * "Trigger" dropped from its display name. The trigger's actions are the options of its property displayed as
 * "Events", one "On <option name>" each.
 */
const ROOT = join(__dirname, '..', '..');
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[] };
};
const type = (name: string) => `n8n-nodes-messaging.${name}`;

test('the Messaging SMS Trigger is filed under the Messaging SMS node, with its three events', () => {
	const smsTrigger = new MessagingSmsTrigger().description;
	expect(type(smsTrigger.name).replace('Trigger', '')).toBe(
		type(new MessagingSms().description.name),
	);
	const events = smsTrigger.properties.find((property) => property.displayName === 'Events')!;
	expect((events.options as Array<{ name: string }>).map((option) => `On ${option.name}`)).toEqual([
		'On SMS Delivered',
		'On SMS Not Delivered',
		'On SMS Sent',
	]);
	expect(packageJson.n8n.nodes).toContain(
		'dist/nodes/MessagingSmsTrigger/MessagingSmsTrigger.node.js',
	);
	const codex = JSON.parse(
		readFileSync(join(ROOT, 'nodes/MessagingSmsTrigger/MessagingSmsTrigger.node.json'), 'utf8'),
	) as { node: string };
	expect(codex.node).toBe(type(smsTrigger.name));
});

test('the Messaging Trigger (email and SMS events) stays an entry of its own, under a name that says what it covers', () => {
	const trigger = new MessagingTrigger().description;
	expect(trigger.name).toBe('messagingTrigger'); // existing workflows keep working
	expect(trigger.displayName.replace('Trigger', '').trim()).toBe('Messaging Email & SMS');
});
