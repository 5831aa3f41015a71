import { packPackage } from '../real-n8n/instance';

/** Builds and packs the package once for every e2e file (E2E_TARBALL reaches the tests: they run in this process or its workers). */
export default async function globalSetup(): Promise<void> {
	if (process.env.E2E_TARBALL) return;
	const started = Date.now();
	process.env.E2E_TARBALL = await packPackage();
	process.stdout.write(`\ne2e: packed ${process.env.E2E_TARBALL} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
