// The formatter settings of n8n's community-node starter (@n8n/node-cli), so the code reads like n8n's own.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 100,
};
