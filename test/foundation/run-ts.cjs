// Lets a test start a TypeScript entry point (the sandbox CLI) as its own Node process without a build:
// `node --no-experimental-strip-types -r test/foundation/run-ts.cjs sandbox/cli.ts …`. Transpile only, no checks.
const fs = require('node:fs');
const ts = require('typescript');

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		fileName: filename,
		compilerOptions: {
			module: ts.ModuleKind.CommonJS,
			target: ts.ScriptTarget.ES2022,
			esModuleInterop: true,
		},
	});
	module._compile(outputText, filename);
};
