// tsc compiles the TypeScript; gulp copies what tsc does not: node/credential icons and codex (.node.json) files.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{svg,png}', 'nodes/**/*.node.json', 'credentials/**/*.{svg,png}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.build = copyAssets;
exports.default = copyAssets;
