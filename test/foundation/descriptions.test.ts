/**
 * The nodes' descriptions follow n8n's conventions where the lint does not check them: the placeholder of a
 * collection or fixed collection (the "Add …" button) is "Add option" for a collection of options, as in n8n's own
 * nodes, and Title Case otherwise ("Add Filter", "Add Field"); list operations are "getAll", labelled "Get Many".
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { resources as emailResources } from '../../nodes/MessagingEmail/actions/resources';
import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingEmailTrigger } from '../../nodes/MessagingEmailTrigger/MessagingEmailTrigger.node';
import { resources as smsResources } from '../../nodes/MessagingSms/actions/resources';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { MessagingSmsTrigger } from '../../nodes/MessagingSmsTrigger/MessagingSmsTrigger.node';
import { MessagingTrigger } from '../../nodes/MessagingTrigger/MessagingTrigger.node';

const nodes: INodeType[] = [
	new MessagingEmail(),
	new MessagingSms(),
	new MessagingTrigger(),
	new MessagingSmsTrigger(),
	new MessagingEmailTrigger(),
];

/** Every property, also those inside collections and fixed collections. */
function everyProperty(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const nested = (property.options ?? []).flatMap((option) =>
			'values' in option
				? everyProperty(option.values)
				: 'type' in option
					? everyProperty([option as INodeProperties])
					: [],
		);
		return [property, ...nested];
	});
}

const titleCase = (text: string) =>
	text.split(' ').every((word) => /^[A-Z0-9]/.test(word) || /^(a|an|and|of|or|to)$/.test(word));

test.each(nodes.map((node) => [node.description.displayName, node] as const))(
	'%s: "Add …" placeholders are n8n-cased',
	(_name, node) => {
		const miscased = everyProperty(node.description.properties)
			.filter((property) => property.type === 'collection' || property.type === 'fixedCollection')
			.map((property) => ({ name: property.name, placeholder: property.placeholder ?? '' }))
			.filter(
				({ placeholder }) =>
					!placeholder.startsWith('Add ') ||
					(placeholder !== 'Add option' && !titleCase(placeholder)),
			);
		expect(miscased).toEqual([]);
	},
);

test.each(nodes.map((node) => [node.description.displayName, node] as const))(
	"%s: a list operation is getAll, labelled Get Many; another resource's list is that resource's getAll",
	(_name, node) => {
		const operations = node.description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => (property.options ?? []) as Array<{ name: string; value: string }>);
		// "Get Many by ID" fetches given records (not a list); "Get Many Addresses" would be a list of another noun.
		const wrong = operations.filter(
			({ name, value }) =>
				(name === 'Get Many') !== (value === 'getAll') || /^Get Many (?!by )/.test(name),
		);
		expect(wrong).toEqual([]);
	},
);

describe('the literal option lists agree with the operation tables the router runs', () => {
	const actionNodes = [
		{ node: new MessagingEmail(), resources: emailResources },
		{ node: new MessagingSms(), resources: smsResources },
	];
	const values = (property: INodeProperties | undefined) =>
		((property?.options ?? []) as Array<{ value: string }>).map(({ value }) => value).sort();

	test.each(actionNodes.map((entry) => [entry.node.description.displayName, entry] as const))(
		'%s: Resource offers exactly the resources, each Operation exactly its operations',
		(_, { node, resources }) => {
			const { properties } = node.description;
			expect(values(properties.find((property) => property.name === 'resource'))).toEqual(
				Object.keys(resources).sort(),
			);
			for (const [resource, { operations }] of Object.entries(resources)) {
				const selector = properties.find(
					(property) =>
						property.name === 'operation' &&
						(property.displayOptions?.show?.resource as unknown[]).includes(resource),
				);
				expect({ resource, offered: values(selector) }).toEqual({
					resource,
					offered: Object.keys(operations).sort(),
				});
			}
		},
	);
});

test('the SMS Send and Wait notice is short enough to read in the panel: the budget first, at most 400 characters', () => {
	const notice = new MessagingSms().description.properties.find(
		(property) => property.name === 'smsLengthNotice',
	)!;
	expect(notice.type).toBe('notice');
	expect(notice.displayName.length).toBeLessThanOrEqual(400);
	expect(notice.displayName).toMatch(
		/^The SMS is your message plus one link .* usually takes 2 parts: keep the message to about 130 characters\./,
	);
});
