import { example, loadExamples, parameterIssues, unknownParameters } from './helpers';

/**
 * n8n silently drops parameters its node description does not define, so a misspelt name in an example would
 * still import and run — doing something else. Checked against the nodes' own descriptions, offline.
 */
describe('examples/: structure and parameters', () => {
	const examples = loadExamples();

	it('has the expected examples, each with a unique 16-character id', () => {
		expect(examples.map(({ file }) => file)).toEqual([
			'ai-agent-messaging-tools.json',
			'approve-refund-by-email.json',
			'approve-refund-by-sms.json',
			'approve-refund-reminder-escalation.json',
			'bounce-cleanup-trigger.json',
			'bulk-sms-cost-dry-run-send.json',
			'email-events-webhook.json',
			'scheduled-sms-campaign-for-list.json',
			'send-once-order-confirmation.json',
			'sms-campaign-delivery-report.json',
			'sms-not-delivered-email-fallback.json',
			'template-email-from-rows.json',
			'transactional-email-pdf-attachment.json',
		]);
		const ids = examples.map(({ workflow }) => workflow.id);
		for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{16}$/);
		expect(new Set(ids).size).toBe(ids.length);
	});

	it.each(loadExamples().map(({ file }) => file))(
		'%s: sticky note, start node, credentials, connections',
		(file) => {
			const workflow = example(file);
			const types = workflow.nodes.map((node) => node.type);
			expect(types).toContain('n8n-nodes-base.stickyNote');
			const start =
				file === 'bounce-cleanup-trigger.json'
					? 'n8n-nodes-messaging.messagingTrigger'
					: file === 'sms-not-delivered-email-fallback.json'
						? 'n8n-nodes-messaging.messagingSmsTrigger'
						: file === 'email-events-webhook.json'
							? 'n8n-nodes-messaging.messagingEmailTrigger'
							: file.startsWith('ai-agent')
								? '@n8n/n8n-nodes-langchain.chatTrigger'
								: 'n8n-nodes-base.manualTrigger';
			expect(types).toContain(start);
			const names = new Set(workflow.nodes.map((node) => node.name));
			expect(names.size).toBe(workflow.nodes.length);
			// The webhook trigger calls no API, so it has no credential.
			for (const node of workflow.nodes.filter(
				(candidate) =>
					candidate.type.startsWith('n8n-nodes-messaging.') &&
					candidate.type !== 'n8n-nodes-messaging.messagingEmailTrigger',
			)) {
				expect(node.credentials).toEqual({
					messagingServiceApi: { id: 'messagingSandbox1', name: 'Messaging Sandbox' },
				});
			}
			// Every connection names existing nodes, and every non-sticky node except the start is connected to.
			const targets = new Set<string>();
			for (const [source, outputs] of Object.entries(
				workflow.connections as Record<string, Record<string, Array<Array<{ node: string }>>>>,
			)) {
				expect(names.has(source)).toBe(true);
				for (const branches of Object.values(outputs))
					for (const branch of branches) for (const link of branch) targets.add(link.node);
			}
			for (const target of targets) expect(names.has(target)).toBe(true);
			const sources = new Set(Object.keys(workflow.connections));
			for (const node of workflow.nodes) {
				if (node.type === 'n8n-nodes-base.stickyNote' || node.type === start) continue;
				expect([node.name, targets.has(node.name) || sources.has(node.name)]).toEqual([
					node.name,
					true,
				]);
			}
		},
	);

	it.each(
		loadExamples().flatMap(({ file, workflow }) =>
			workflow.nodes
				.filter((node) => node.type.startsWith('n8n-nodes-messaging.'))
				.map((node) => [file, node.name] as const),
		),
	)(
		'%s → %s: every parameter exists where it is set, nothing required is missing',
		(file, name) => {
			const node = example(file).nodes.find((candidate) => candidate.name === name)!;
			expect(unknownParameters(node)).toEqual([]);
			expect(parameterIssues(node)).toEqual([]);
		},
	);
});
