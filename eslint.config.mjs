// Lint the shipped code (nodes/, credentials/) with n8n's community-node rules: the verification scanner's
// recommended set from @n8n/eslint-plugin-community-nodes, plus eslint-plugin-n8n-nodes-base's community,
// nodes and credentials rule sets (legacy-format configs, adapted to flat config here).
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';

const legacyRules = (name) => n8nNodesBase.configs[name].rules;

export default [
	{ ignores: ['dist/**', 'build/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', '*.js', '*.mjs'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('community'),
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...legacyRules('nodes'),
			'n8n-nodes-base/node-class-description-credentials-name-unsuffixed': 'off',
			// These two predate NodeConnectionTypes and want the string 'main'; n8n's own nodes use the constant now.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...legacyRules('credentials'), 'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off' },
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: ['nodes/**/*.ts', 'credentials/**/*.ts'] },
];
