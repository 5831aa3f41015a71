/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The flags the editor suite starts Debian's headless Chromium with (no sandbox in CI, nothing in the background). */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** A started Chromium: its browser, its first page, and `close()`, which stops it and removes its profile. */
export interface HeadlessChromium {
	browser: BrowserContext;
	page: Page;
	close: () => Promise<void>;
}

/**
 * Headless Chromium (/usr/bin/chromium through playwright-core) with a profile of its own; `close()` stops it and
 * removes the profile.
 */
export async function launchChromium(
	viewport = { width: 1100, height: 900 },
): Promise<HeadlessChromium> {
	const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
	const browser = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: CHROMIUM_ARGS,
		viewport,
	});
	const page = browser.pages()[0] ?? (await browser.newPage());
	page.setDefaultTimeout(15_000);
	return {
		browser,
		page,
		close: async () => {
			await browser.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
