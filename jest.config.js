/** Tests run the TypeScript sources through ts-jest; integration tests start their own sandbox on 127.0.0.1. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	rootDir: '.',
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json' }] },
	testTimeout: 60_000,
	maxWorkers: 2,
	testSequencer: '<rootDir>/test/sequencer.js',
	setupFiles: ['<rootDir>/test/setup-env.js'],
};
