#!/usr/bin/env node
// n8n's verification scanner, run on this package before it is published.
//
// `npx @n8n/scan-community-package <name>` only scans a package already on the registry: it checks the npm
// provenance, downloads the source commit the provenance names and the published tarball, and lints both with
// ESLint (its config: buildScanConfig, i.e. @n8n/eslint-plugin-community-nodes' recommended rules with the
// restricted globals and imports, eslint-plugin-n8n-nodes-base's community/nodes/credentials rules, no-console;
// inline eslint-disable comments are not honoured). This script runs those two lint legs the same way, with the
// scanner's own exported config, file patterns and pinned plugin versions, on
//   - the tarball `npm pack` makes from the current build (its compiled *.js and its package.json), and
//   - the source tree (package.json and nodes/, credentials/ *.{js,ts,json}), as the scanner lints the checkout.
// Only the provenance check needs the registry; the publish workflow produces it (.github/workflows/publish.yml).
// It also checks the tarball's links: homepage, bugs, the credentials' documentationUrl and the codex files'
// documentation all lead to the repository in package.json, each anchor to a section of the packed README.
//
// Usage: node scripts/scan-package.mjs [package.tgz]   (default: `npm pack` of this checkout; build first)
// Exit code 1 on any finding, warnings included.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const scannerPath = require.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
// ESLint and fast-glob as the scanner resolves them.
const scannerRequire = createRequire(scannerPath);
// Loading the scanner makes a temporary download folder; have it removed when this process exits.
scannerRequire('tmp').setGracefulCleanup();
const { buildScanConfig, SOURCE_FILE_PATTERNS } = await import(scannerPath);
const { ESLint } = scannerRequire('eslint');
const glob = scannerRequire('fast-glob');
const scannerVersion = scannerRequire('../package.json').version;

/** One lint leg, as the scanner's analyzePackage runs it (same ESLint options and ignores). */
async function lintLeg(name, dir, patterns) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	if (files.length === 0)
		throw new Error(`${name}: no files matched ${patterns.join(', ')} in ${dir}`);
	await canary(eslint, dir);
	const results = await eslint.lintFiles(files);
	const count = (key) => results.reduce((total, result) => total + result[key], 0);
	const findings = results.filter((result) => result.errorCount + result.warningCount > 0);
	if (findings.length > 0) {
		const formatter = await eslint.loadFormatter('stylish');
		console.log(`== ${name}\n${await formatter.format(findings)}`);
	}
	return {
		name,
		files: files.length,
		errors: count('errorCount'),
		warnings: count('warningCount'),
	};
}

/**
 * Proof that the rules are on before trusting "0 findings": the same ESLint must flag a timer in a compiled node
 * file and a package.json that breaks the naming convention (both texts linted in memory, nothing written).
 */
async function canary(eslint, dir) {
	const probes = [
		['dist/nodes/Canary/Canary.node.js', 'setTimeout(() => {}, 1);\n', 'no-restricted-globals'],
		['package.json', '{ "name": "canary" }\n', 'package-name-convention'],
	];
	for (const [file, text, rule] of probes) {
		const [result] = await eslint.lintText(text, { filePath: path.join(dir, file) });
		if (!result.messages.some((message) => message.ruleId?.endsWith(`/${rule}`))) {
			throw new Error(
				`The scanner's rule ${rule} did not fire on a known-bad ${file}: its config did not load`,
			);
		}
	}
}

/** Unpacks a tarball like the scanner does (tar -xzf --strip-components=1) and checks it holds the build. */
function unpack(tarball, into) {
	fs.mkdirSync(into, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
	const manifest = JSON.parse(fs.readFileSync(path.join(into, 'package.json'), 'utf8'));
	const entries = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = entries.filter((entry) => !fs.existsSync(path.join(into, entry)));
	if (entries.length === 0 || missing.length > 0) {
		throw new Error(
			`${path.basename(tarball)} lacks the built nodes/credentials (${missing.join(', ') || 'none listed'}): run npm run build first`,
		);
	}
	return `${manifest.name}@${manifest.version}`;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const headingAnchor = (heading) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');

/** Every documentation link in the unpacked package, with where it was found. */
function documentationLinks(dir, manifest) {
	const links = [
		{ where: 'package.json homepage', url: manifest.homepage },
		{ where: 'package.json bugs.url', url: manifest.bugs?.url },
	];
	for (const file of glob.sync('dist/credentials/**/*.js', { cwd: dir })) {
		const text = fs.readFileSync(path.join(dir, file), 'utf8');
		for (const [, url] of text.matchAll(/documentationUrl\s*=\s*['"]([^'"]+)['"]/g)) {
			links.push({ where: file, url });
		}
	}
	for (const file of glob.sync('dist/nodes/**/*.node.json', { cwd: dir })) {
		const codex = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
		const resources = codex.resources ?? {};
		const urls = [
			...(resources.primaryDocumentation ?? []),
			...(resources.credentialDocumentation ?? []),
		];
		if (urls.length === 0) links.push({ where: file, url: undefined });
		for (const { url } of urls) links.push({ where: file, url });
	}
	return links;
}

/** The package's links that lead nowhere: outside the repository, or to a section the README does not have. */
function linkProblems(dir) {
	const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	const repositoryUrl = manifest.repository?.url ?? '';
	const repository = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(
		repositoryUrl,
	)?.[1];
	if (!repository) {
		return {
			links: 0,
			problems: [`package.json repository.url is not a GitHub repository: ${repositoryUrl}`],
		};
	}
	const base = `https://github.com/${repository}`;
	const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
	const headings = [...readme.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) =>
		headingAnchor(heading),
	);
	const anchors = new Set(['readme', ...headings]);
	const links = documentationLinks(dir, manifest);
	const problemWith = (where, url) => {
		if (!url) return 'no documentation link';
		if (where === 'package.json bugs.url')
			return url === `${base}/issues` ? null : `not ${base}/issues`;
		if (!url.startsWith(`${base}#`)) return `${url} is not a section of ${base}`;
		return anchors.has(url.slice(base.length + 1)) ? null : `README.md has no section for ${url}`;
	};
	const problems = links
		.map(({ where, url }) => [where, problemWith(where, url)])
		.filter(([, problem]) => problem)
		.map(([where, problem]) => `${where}: ${problem}`);
	return { links: links.length, problems };
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-package-'));
try {
	let tarball = process.argv[2] && path.resolve(process.argv[2]);
	if (!tarball) {
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', work], {
				cwd: root,
				encoding: 'utf8',
			}),
		);
		tarball = path.join(work, packed[0].filename);
	}
	const label = unpack(tarball, path.join(work, 'package'));
	console.log(`scan-package: @n8n/scan-community-package ${scannerVersion} rules on ${label}`);

	const legs = [
		await lintLeg('tarball', path.join(work, 'package'), ['**/*.js', 'package.json']),
		await lintLeg('source', root, SOURCE_FILE_PATTERNS),
	];
	for (const leg of legs) {
		console.log(
			`  ${leg.name}: ${leg.files} files, ${leg.errors} errors, ${leg.warnings} warnings`,
		);
	}
	const links = linkProblems(path.join(work, 'package'));
	for (const problem of links.problems) console.log(`  link: ${problem}`);
	console.log(`  links: ${links.links} documentation links, ${links.problems.length} problems`);
	const findings =
		legs.reduce((total, leg) => total + leg.errors + leg.warnings, 0) + links.problems.length;
	console.log(findings === 0 ? 'scan-package: 0 findings' : `scan-package: ${findings} findings`);
	process.exitCode = findings === 0 ? 0 : 1;
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
