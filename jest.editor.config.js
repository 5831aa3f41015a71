/**
 * The editor suite: n8n's editor in Debian's Chromium (playwright-core), every panel of every node. `npm run
 * e2e:editor` (= jest -c jest.editor.config.js --runInBand, after scripts/ensure-chromium.sh). Files:
 * test/editor/*.editor.ts; the global setup is the e2e one (build + pack once, provision the pinned n8n).
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: '.',
	roots: ['<rootDir>/test/editor'],
	testMatch: ['**/*.editor.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	// Provisioning n8n the first time takes ~6 minutes; each panel takes a few seconds.
	testTimeout: 10 * 60_000,
	maxWorkers: 1,
};
