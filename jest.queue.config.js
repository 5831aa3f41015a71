/**
 * Queue-mode suite: `npm run e2e:queue`. Postgres + Redis + a real n8n main, two workers and a webhook processor
 * (scripts/n8n/queue.ts) run the packed package against the API sandbox. The global setup packs, provisions n8n and
 * installs Postgres/Redis when missing; the test file starts and stops the stack; the global teardown kills, by id,
 * any process a failed or timed-out file left running.
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: '.',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	globalSetup: '<rootDir>/test/queue/global-setup.ts',
	globalTeardown: '<rootDir>/test/queue/global-teardown.ts',
	testTimeout: 10 * 60_000,
	maxWorkers: 1,
};
