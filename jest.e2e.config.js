/**
 * End-to-end suite: a real n8n (scripts/n8n/provision.sh, cached) runs the packed package and the workflows in
 * examples/ against the API sandbox. `npm run e2e` (= jest -c jest.e2e.config.js --runInBand). Files: test/e2e/*.e2e.ts,
 * so the unit suite (jest.config.js, *.test.ts) never picks them up.
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: '.',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	// Packs, provisions and starts the one n8n the files share (test/e2e/shared-n8n.ts); the teardown stops it.
	globalSetup: '<rootDir>/test/e2e/shared-n8n-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/shared-n8n-teardown.ts',
	// First provisioning of an n8n version takes ~6 minutes; the trigger test waits for real one-minute polls.
	testTimeout: 20 * 60_000,
	maxWorkers: 1,
};
