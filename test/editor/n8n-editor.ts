/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { ROOT } from '../../scripts/n8n/instance';

/** The sandbox's credentials in the editor suite (made-up values; the sandbox accepts exactly these). */
export const EDITOR_SECRETS = {
	clientId: 'editor-client-id',
	clientSecret: 'editor-client-secret-0123456789abcdef',
	apiKey: 'sp_apikey_editor0123456789abcdef0123456',
};

/** The owner account the suite's n8n is started with (`n8n.start({ owner })`) and signs in as. */
export const EDITOR_OWNER = { email: 'owner@sandbox.test', password: 'Sandbox-n8n-1' };

/** Where the editor suite writes its screenshots. */
export const SCREENSHOTS = join(ROOT, 'build', 'editor-screenshots');

/** Signs in to n8n's editor at `baseUrl` as the suite's owner and waits for its home page. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(EDITOR_OWNER.email);
	await page.getByTestId('password').locator('input').fill(EDITOR_OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/home\//);
}
