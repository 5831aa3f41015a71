/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { DEFAULT_N8N_VERSION, packPackage, provisionN8n } from '../../scripts/n8n/instance';

/**
 * Before any editor file (jest.editor.config.js) and, through `shared-n8n-setup.ts`, any e2e file: build and pack
 * the package once (E2E_TARBALL reaches the tests; set already, e.g. by .ci/run, it is used as it is), and provision
 * the pinned n8n, which takes ~6 minutes on a fresh machine — no test should spend that time installing.
 */
export default async function globalSetup(): Promise<void> {
	let started = Date.now();
	if (!process.env.E2E_TARBALL) {
		process.env.E2E_TARBALL = await packPackage();
		process.stdout.write(
			`\ne2e: packed ${process.env.E2E_TARBALL} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
		);
	}
	started = Date.now();
	await provisionN8n(DEFAULT_N8N_VERSION);
	process.stdout.write(
		`e2e: n8n ${DEFAULT_N8N_VERSION} ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
	);
}
