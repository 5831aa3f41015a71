// Lint what ships (nodes/, credentials/, package.json) with n8n's community-node rules, arranged the way n8n's
// verification scanner (@n8n/scan-community-package) and `n8n-node lint` arrange them: the recommended set of
// @n8n/eslint-plugin-community-nodes everywhere, eslint-plugin-n8n-nodes-base's `community` rules on package.json
// and its `nodes` / `credentials` rules on the sources, with the scanner's own rule switches. The scanner itself,
// with its pinned plugin versions, runs on the packed tarball in scripts/scan-package.mjs.
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';

const legacyRules = (name) => n8nNodesBase.configs[name].rules;

export default [
	{
		ignores: [
			'dist/**',
			'build/**',
			'node_modules/**',
			'test/**',
			'bench/**',
			'scripts/**',
			'*.js',
			'*.mjs',
		],
	},
	// The scanner lints with allowInlineConfig: false, so an eslint-disable comment does not silence it: here neither.
	{ linterOptions: { noInlineConfig: true } },
	// package.json is not JavaScript: the TypeScript parser reads its top-level object literal, which is the AST
	// the package.json rules of both plugins walk (the scanner registers the same parser for *.json).
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['package.json'],
		rules: legacyRules('community'),
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...legacyRules('nodes'),
			'n8n-nodes-base/node-class-description-credentials-name-unsuffixed': 'off',
			// These two predate NodeConnectionTypes and want the string 'main'; n8n's own nodes use the constant now.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// The service caps some values (page sizes, batch sizes), so maxValue is real information (scanner: off).
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...legacyRules('credentials'),
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// @n8n/community-nodes/credential-password-field is the more accurate check (scanner: off).
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
	},
	// The scanner fails a package on any console call.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: { 'no-console': 'error' },
	},
];
