// What ships (nodes/, credentials/) keeps two structural rules, checked in CI by `npm run lint:imports`:
// no import circle, and no node folder importing another node folder (what nodes share lives in nodes/shared/,
// which imports no node folder).
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
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsConfig: { fileName: 'tsconfig.json' },
		tsPreCompilationDeps: true,
	},
};
