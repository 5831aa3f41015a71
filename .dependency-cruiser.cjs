// What ships (nodes/, credentials/) keeps its structure, checked in CI by `npm run lint:imports`: no import circle; no
// node folder importing another (what nodes share lives in nodes/shared/, which imports no node folder); no
// operation importing another operation; the triggers never load the item engine (nodes/shared/items/: parameters,
// per-item and bulk sending); the values wing (nodes/shared/values/) stays pure: it loads neither the item engine nor
// the transport, the pollers or send-and-wait. docs/architecture.md draws the wings.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'An import circle: split the shared part into a module both import.',
			from: { path: '^(nodes|credentials)/' },
			to: { circular: true },
		},
		{
			name: 'no-node-folder-into-another',
			severity: 'error',
			comment: 'A node folder imports another node folder: move what both need to nodes/shared/.',
			from: { path: '^nodes/([^/]+)/', pathNot: '^nodes/shared/' },
			to: { path: '^nodes/[^/]+/', pathNot: ['^nodes/$1/', '^nodes/shared/'] },
		},
		{
			name: 'no-shared-into-node-folder',
			severity: 'error',
			comment: 'nodes/shared/ is what the nodes share: it must not depend on one of them.',
			from: { path: '^nodes/shared/' },
			to: { path: '^nodes/', pathNot: '^nodes/shared/' },
		},
		{
			name: 'no-operation-into-another',
			severity: 'error',
			comment:
				'An operation imports another operation: move what both need to the node helpers/ or nodes/shared/.',
			from: { path: '\\.operation\\.ts$' },
			to: { path: '\\.operation\\.ts$' },
		},
		{
			name: 'no-item-engine-in-triggers',
			severity: 'error',
			comment:
				'A trigger (or what only triggers use) loads the item engine: read settings with nodes/shared/values/ and triggerSettings.ts.',
			from: {
				path: [
					'^nodes/Messaging[A-Za-z]*Trigger/',
					'^nodes/shared/polling/',
					'^nodes/shared/triggerSettings\\.ts$',
					'^nodes/shared/records/',
				],
			},
			to: { path: '^nodes/shared/items/' },
		},
		{
			name: 'values-stay-pure',
			severity: 'error',
			comment:
				'nodes/shared/values/ is the ground floor: it must not load the item engine, the transport, the pollers or send-and-wait.',
			from: { path: '^nodes/shared/values/' },
			to: { path: '^nodes/shared/(items|transport|polling|sendAndWait)/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsConfig: { fileName: 'tsconfig.json' },
		tsPreCompilationDeps: true,
	},
};
