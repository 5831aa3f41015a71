/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { ROOT } from '../../scripts/n8n/instance';

export const CREDENTIAL_ID = 'editorSandbox1';
export const CREDENTIAL_NAME = 'Messaging Sandbox';

/** One panel the suite opens: a node with a resource and operation chosen and every other parameter empty. */
export interface Panel {
	/** Node name on the canvas, also the screenshot's file name. */
	name: string;
	type: string;
	displayName: string;
	resource?: string;
	resourceName?: string;
	operation?: string;
	operationName?: string;
	/** The action's label in n8n's nodes panel (the operation's `action`). */
	action?: string;
	trigger: boolean;
	/** The description's properties shown for this resource/operation. */
	shown: INodeProperties[];
}

const PACKAGE = 'n8n-nodes-messaging';

/** Every node the package ships (package.json → n8n.nodes), loaded from its source. */
function packageNodes(): INodeTypeDescription[] {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[] };
	};
	return manifest.n8n.nodes.map((built) => {
		const source = join(ROOT, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
		const className = /([^/]+)\.node\.ts$/.exec(source)![1];
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(source) as Record<string, new () => INodeType>;
		return new module[className]().description;
	});
}

/** Whether the editor shows a property on a fresh panel: n8n's own check, over the defaults of every other field. */
function isShown(
	node: INodeTypeDescription,
	property: INodeProperties,
	resource?: string,
	operation?: string,
) {
	const chosen: INodeParameters = resource ? { resource, operation: operation ?? '' } : {};
	const nodeStub = {
		id: 'panel',
		name: 'panel',
		type: node.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: chosen,
	} as INode;
	const parameters =
		NodeHelpers.getNodeParameters(node.properties, chosen, true, false, nodeStub, node) ?? {};
	return NodeHelpers.displayParameter(parameters, property, nodeStub, node);
}

/**
 * n8n lists a trigger under its node's name without " Trigger", one entry per event: "On " and the event's name
 * in lower case (the first event is the one the suite picks).
 */
function triggerAction(node: INodeTypeDescription): string | undefined {
	const events = node.properties.find(
		(property) =>
			(property.name === 'events' || property.name === 'event') &&
			(property.type === 'options' || property.type === 'multiOptions'),
	);
	const first = (events?.options as Array<{ name: string }> | undefined)?.[0];
	return first ? `On ${first.name.toLowerCase()}` : undefined;
}

/** Every operation of every action node, and each trigger, as panels. */
export function allPanels(): Panel[] {
	const panels: Panel[] = [];
	for (const node of packageNodes()) {
		const type = `${PACKAGE}.${node.name}`;
		const resourceProperty = node.properties.find((property) => property.name === 'resource');
		if (!resourceProperty) {
			panels.push({
				name: node.displayName,
				type,
				displayName: node.displayName,
				trigger: node.group.includes('trigger'),
				action: triggerAction(node),
				shown: node.properties.filter((property) => isShown(node, property)),
			});
			continue;
		}
		for (const resource of resourceProperty.options as Array<{ name: string; value: string }>) {
			const operationProperty = node.properties.find(
				(property) =>
					property.name === 'operation' &&
					(property.displayOptions?.show?.resource as unknown[]).includes(resource.value),
			)!;
			for (const operation of operationProperty.options as Array<{
				name: string;
				value: string;
				action?: string;
			}>) {
				panels.push({
					name: `${node.displayName} ${resource.name} ${operation.name}`,
					type,
					displayName: node.displayName,
					resource: resource.value,
					resourceName: resource.name,
					operation: operation.value,
					operationName: operation.name,
					action: operation.action,
					trigger: node.group.includes('trigger'),
					shown: node.properties.filter((property) =>
						isShown(node, property, resource.value, operation.value),
					),
				});
			}
		}
	}
	return panels;
}

/** A required field the editor must flag on a fresh panel: one whose default is no real value. */
export function startsEmpty(property: INodeProperties): boolean {
	const value = property.default as unknown;
	if (value === '' || value === 0 || value === null || value === undefined) return true;
	if (Array.isArray(value)) return value.length === 0;
	if (property.type === 'resourceLocator') return (value as { value?: unknown }).value === '';
	return false;
}
