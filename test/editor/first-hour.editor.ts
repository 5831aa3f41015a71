/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/// <reference lib="dom" />
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, selectors, type BrowserContext, type Page } from 'playwright-core';

import { seedDemo } from '../../scripts/demo-seed';
import { N8nInstance, ROOT } from '../../scripts/n8n/instance';
import { startSandbox, type Sandbox } from '../../sandbox';
import { loadExamples, type Workflow } from '../e2e/helpers';
import { allPanels, type Panel } from './panels';
import { omit } from '../../sandbox/core/records';
import { withFreshWebhookIds } from '../../scripts/n8n/webhook-ids';

/**
 * A new user's first hour, in n8n's editor (Debian's Chromium through playwright-core), on the demo's state
 * (scripts/demo-seed.ts) and the demo's credential id, as `npm start` sets them up:
 * - Email → Send: its attachment fields in one place (Binary Attachments, Binary File Names, Text Attachments),
 *   and lists that stay as an option is added (issue 22, item 4; issue 34);
 * - the Template and Mailing List pickers list the sandbox's templates and lists, Template Variables → Name offers
 *   the chosen template's variables, and the credential shows its Account Time Zone (screenshots to docs/);
 * - every trigger example imported through the editor's file import, published from the editor, then made to run
 *   the way its sticky note says, with a button of the sandbox's outbox page (Bounce, Not delivered, Open: the
 *   webhook example's Production URL, read from its panel, registered with the sandbox first); each must show a
 *   successful execution. The examples `npm start` imports (with their ids, by n8n's
 *   CLI) get the same check.
 */
const OWNER = { email: 'owner@sandbox.test', password: 'Sandbox-n8n-1' };
const CREDENTIAL = { id: 'messagingSandbox1', name: 'Messaging Sandbox' };
const DOCS = join(ROOT, 'docs');
const SHOTS = join(ROOT, 'build', 'editor-screenshots');
const TRIGGER_EXAMPLES = [
	'bounce-cleanup-trigger.json',
	'sms-not-delivered-email-fallback.json',
	'email-events-webhook.json',
];

let sandbox: Sandbox;
let n8n: N8nInstance;
let browser: BrowserContext;
let page: Page;
let profile: string;

beforeAll(async () => {
	const tarball = process.env.E2E_TARBALL;
	if (!tarball) throw new Error('E2E_TARBALL is not set: run through jest.editor.config.js');
	sandbox = await startSandbox();
	await seedDemo(sandbox);
	// Campaigns go out and finish at once, so a poll within the minute sees the final statuses.
	await control('PATCH', '/sms/settings', { moderationDelaySeconds: 0, deliveryDelaySeconds: 1 });
	n8n = await N8nInstance.create({ tarball });
	await n8n.importCredentials([
		{
			...CREDENTIAL,
			type: 'messagingServiceApi',
			data: { baseUrl: sandbox.url, authType: 'apiKey', apiKey: sandbox.account.apiKey },
		},
	]);
	// What `npm start` does: every example imported by n8n's CLI with the ids it carries, its webhook nodes given a
	// fresh webhook id first (scripts/n8n/webhook-ids.ts: n8n's CLI import gives none).
	await n8n.importWorkflows(loadExamples().map(({ workflow }) => withFreshWebhookIds(workflow)));
	await n8n.start({ owner: OWNER });
	mkdirSync(SHOTS, { recursive: true });
	selectors.setTestIdAttribute('data-test-id');
	profile = mkdtempSync(join(tmpdir(), 'editor-first-hour-'));
	browser = await chromium.launchPersistentContext(profile, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
		viewport: { width: 1440, height: 900 },
	});
	page = browser.pages()[0] ?? (await browser.newPage());
	page.setDefaultTimeout(30_000);
	page.on('dialog', (dialog) => void dialog.accept());
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
	await page.getByTestId('password').locator('input').fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/home\//);
});

afterAll(async () => {
	await browser?.close();
	if (profile) rmSync(profile, { recursive: true, force: true });
	await n8n?.dispose();
	await sandbox?.close();
});

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
	const response = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${path}: ${await response.text()}`);
	return await response.json();
}

async function freshEditor() {
	await page.goto(`${n8n.baseUrl}/workflow/new`);
	await page.getByTestId('canvas-wrapper').waitFor();
}

/** Adds an action node through the nodes panel, as the every-panel suite does. */
async function addAction(panel: Panel) {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(panel.displayName);
	await page
		.getByTestId('node-creator-item-name')
		.getByText(panel.displayName, { exact: true })
		.click();
	const action = page
		.getByTestId('node-creator-item-name')
		.getByText(panel.action!, { exact: true });
	const group = page.getByTestId('node-creator-category-item').getByText(/^Actions/);
	await action.or(group).first().waitFor();
	if (!(await action.isVisible())) await group.click();
	await action.click();
	await page.getByTestId('ndv').waitFor();
}

const panelNamed = (name: string) => allPanels().find((panel) => panel.name === name)!;

/**
 * The parameters column as a user reads it, once n8n has rendered it: n8n renders fixed collections lazily, first as
 * "Loading fields..." (a fresh-clone CI run read the panel in that state).
 */
async function parametersText() {
	const deadline = Date.now() + 15_000;
	for (;;) {
		const text = (await page.getByTestId('node-parameters').innerText()).replace(/\s+/g, ' ');
		if (!text.includes('Loading fields') || Date.now() > deadline) return text;
		await page.waitForTimeout(100);
	}
}

/**
 * Options → the option named `label`, from the collection's add dropdown (n8n's legacy collection: a filterable
 * select). Options is the first collection of the Send panel (Request Options comes after it).
 */
async function addOption(label: string) {
	await page.getByTestId('collection-parameter-add').first().click();
	const option = page.getByTestId('collection-parameter-option').filter({ hasText: label }).first();
	// A collection of one option is a button that adds it at once (n8n shows no list then: Send's Options from node
	// version 1.1 holds only Send Once per Key); with more the list opens after the click: wait for it, isVisible()
	// does not.
	const listed = await option
		.waitFor({ state: 'visible', timeout: 5_000 })
		.then(() => true)
		.catch(() => false);
	if (listed) await option.click();
	await page.getByTestId('node-parameters').getByText(label, { exact: true }).first().waitFor();
}

describe('Email → Send: attachments (issue 22, item 4; issue 34)', () => {
	/** The Options collection's part of the panel's text (Request Options follows it). */
	const optionsText = async () => {
		const text = await parametersText();
		return text.slice(text.indexOf(' Options '), text.indexOf(' Request Options '));
	};

	// Issue 22: when both lists were entries of Options, adding Text Attachments, then Binary File Names, left Options
	// at "No properties" (n8n's editor drops an Options entry whose list is still empty when another is added).
	// Issue 34: Binary Attachments left Options (node version 1.1) to stand with the two lists.
	it('Binary Attachments, Binary File Names and Text Attachments in one place; the lists stay as an option is added', async () => {
		await freshEditor();
		await addAction(panelNamed('Messaging Email Email Send'));
		const before = await parametersText();
		expect(before).toMatch(
			/Binary Attachments .*Binary File Names.*Currently no items exist.*Add File Name.*Text Attachments.*Currently no items exist.*Add Text Attachment.* Options /,
		);
		await page.getByText('Add Text Attachment', { exact: true }).first().click();
		await page.getByText('Add File Name', { exact: true }).first().click();
		await addOption('Send Once per Key');
		await page.waitForTimeout(500);
		await page.screenshot({ path: join(SHOTS, 'first-hour-send-attachments.png') });
		const after = await parametersText();
		expect(after).toMatch(/Text Attachments File Name .*Content .*Add Text Attachment/);
		expect(after).toMatch(/Binary File Names Binary Property .*File Name .*Add File Name/);
		expect(await optionsText()).toContain('Send Once per Key');
		expect(await optionsText()).not.toContain('Binary Attachments');
		expect(await optionsText()).not.toContain('No properties');
	});
});

/** The parameters column of the open panel (or the open dialog), saved under docs/. */
async function saveDoc(file: string, target = page.getByTestId('ndv')) {
	const box = await target.boundingBox();
	if (!box) throw new Error(`Nothing to photograph for ${file}`);
	await page.screenshot({ path: join(DOCS, file), clip: box });
}

describe('pickers and the credential’s time zone (screenshots for the README)', () => {
	it('Template: From List shows the account’s templates by name', async () => {
		await freshEditor();
		await addAction(panelNamed('Messaging Email Email Send'));
		await page.getByTestId('parameter-input-content').click();
		await page
			.locator('.el-select-dropdown__item:visible')
			.getByText('Template', { exact: true })
			.click();
		await page.getByTestId('resource-locator-templateId').getByTestId('rlc-input').click();
		const entries = page.locator('[data-test-id="rlc-item"]:visible');
		await entries.first().waitFor();
		expect(await entries.allInnerTexts()).toEqual(['Welcome', 'Newsletter']);
		await saveDoc('picker-template.png');
		await page.keyboard.press('Escape');
	});

	it('Template Variables → Name offers the chosen template’s variables', async () => {
		// Continues the panel of the test before: Template chosen as Content, its list open.
		const welcome = page
			.locator('[data-test-id="rlc-item"]:visible')
			.getByText('Welcome', { exact: true });
		if (!(await welcome.isVisible()))
			await page.getByTestId('resource-locator-templateId').getByTestId('rlc-input').click();
		await welcome.click();
		await page.getByText('Add Variable', { exact: true }).first().click();
		const name = page.getByTestId('node-parameters').getByTestId('parameter-input-name').first();
		await name.waitFor();
		const entries = page.locator('.el-select-dropdown__item:visible');
		// The list loads from the service as the row appears; a click during the load may open nothing (seen once):
		// click the select's own input, and again if nothing opened.
		for (let attempt = 1; ; attempt++) {
			await name.locator('input').first().click();
			const opened = await entries
				.first()
				.waitFor({ timeout: 5_000 })
				.then(() => true)
				.catch(() => false);
			if (opened) break;
			if (attempt === 3) {
				await page.screenshot({ path: join(SHOTS, 'first-hour-template-variables-FAILED.png') });
				throw new Error('Template Variables → Name opened no list');
			}
			await page.keyboard.press('Escape');
		}
		expect(
			await entries.evaluateAll((items) =>
				items.map((item) => (item as HTMLElement).innerText.trim().split('\n')[0]),
			),
		).toEqual(['name', 'code']);
		await saveDoc('template-variables.png');
		await page.keyboard.press('Escape');
	});

	it('Mailing List: From List shows the account’s lists by name', async () => {
		await freshEditor();
		await addAction(panelNamed('Messaging SMS Phone Number Add'));
		await page.getByTestId('resource-locator-addressBookId').getByTestId('rlc-input').click();
		const entries = page.locator('[data-test-id="rlc-item"]:visible');
		await entries.first().waitFor();
		expect(await entries.allInnerTexts()).toEqual(['Customers']);
		await saveDoc('picker-mailing-list.png');
		await page.keyboard.press('Escape');
	});

	it('the credential dialog leads with the API key and shows Account Time Zone', async () => {
		await page.goto(`${n8n.baseUrl}/home/credentials/${CREDENTIAL.id}`);
		const modal = page.getByTestId('editCredential-modal');
		await modal.waitFor();
		await page.getByTestId('credentials-config-container-test-success').waitFor();
		const text = (await modal.innerText()).replace(/\s+/g, ' ');
		expect(text).toContain('API Key');
		expect(text).toContain('Account Time Zone');
		expect(text).toContain('Create API key');
		await saveDoc('credential-time-zone.png', modal);
		await page.keyboard.press('Escape');
	});
});

/** n8n's executions of a workflow, newest first, through its public API. */
async function executions(workflowId: string) {
	const answer = (await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=20`)) as {
		data: Array<{ id: string; status: string; mode: string }>;
	};
	return answer.data;
}

async function waitForExecution(workflowId: string, ms: number) {
	const deadline = Date.now() + ms;
	for (;;) {
		const found = (await executions(workflowId)).filter((run) => run.mode !== 'manual');
		if (found.length > 0) return found;
		if (Date.now() > deadline) return [];
		await page.waitForTimeout(2_000);
	}
}

/** Publishes the open workflow from the editor's header; resolves once n8n reports it active. */
async function publishFromEditor(workflowId: string) {
	// The header's Publish opens n8n's publish dialog; its own Publish button publishes.
	await page.getByTestId('workflow-open-publish-modal-button').click();
	await page.getByTestId('workflow-publish-button').click();
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const workflow = (await n8n.api('GET', `/workflows/${workflowId}`)) as { active: boolean };
		if (workflow.active) {
			// n8n's "Workflow published" notice covers the canvas until it is dismissed.
			const gotIt = page.getByRole('button', { name: 'Got it' });
			await gotIt.waitFor({ timeout: 5_000 }).catch(() => undefined);
			if (await gotIt.isVisible()) await gotIt.click();
			return;
		}
		await page.waitForTimeout(500);
	}
	throw new Error(`Workflow ${workflowId} did not become active after Publish`);
}

/** The open workflow's id, from the editor's address. */
const openWorkflowId = () => /\/workflow\/([^/?#]+)/.exec(page.url())![1];

/** Addresses of the bounce example's lookup table, one per firing: a repeat of an event is no new event. */
const bouncing = ['ann@bounce.test', 'bob@bounce.test'];
/** The SMS example's phones (the demo's SMS holds them Sent until the outbox marks them), one per firing. */
const undelivered = ['380671234570', '380671234580'];
let emailsSent = 0;

/** An email through the service's API, as running the demo's Template email example sends one: a subject of its own. */
async function sendEmail(to: string): Promise<string> {
	const subject = `First-hour email ${++emailsSent}`;
	const response = await fetch(`${sandbox.url}/smtp/emails`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${sandbox.account.apiKey}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({
			email: {
				subject,
				from: { name: 'Sandbox Team', email: 'sender@sandbox.test' },
				to: [{ email: to }],
				html: Buffer.from(
					'<p>Hello <a href="https://shop.example/orders/1">your order</a></p>',
				).toString('base64'),
			},
		}),
	});
	if (!response.ok) throw new Error(await response.text());
	return subject;
}

/**
 * Presses a button of the sandbox's outbox page, in a tab of its own as a person keeps it beside the editor (its
 * address as `npm start` prints it); the page's note, which says what the button did.
 */
async function pressInOutbox(
	target: (outbox: Page) => ReturnType<Page['locator']>,
	button: string,
) {
	const outbox = await browser.newPage();
	try {
		await outbox.goto(`${sandbox.url}/__sandbox/outbox.html`);
		await target(outbox).getByRole('button', { name: button, exact: true }).first().click();
		await outbox.waitForFunction(() => (document.getElementById('note')?.textContent ?? '') !== '');
		return (await outbox.locator('#note').textContent()) ?? '';
	} finally {
		await outbox.close();
	}
}

const emailSection = (subject: string) => (outbox: Page) =>
	outbox.locator('section', { hasText: subject });

/**
 * Waits until each of `triggers` active polling triggers of one kind has made a scheduled poll since `since` (ms): the
 * first takes what the service shows as it is (n8n keeps nothing of the poll it makes on publishing), so an event
 * made before it is never new. A poll is a burst of reads under `path` (a second or more apart from another); two
 * triggers polling in the same second count once, and the wait goes on to their next poll.
 */
async function waitForPolls(path: string, since: number, triggers: number) {
	const deadline = Date.now() + 190_000;
	const polls = () => {
		const times = sandbox.log
			.all()
			.filter((entry) => entry.path.startsWith(path) && entry.receivedAt > since + PUBLISH_POLL_MS)
			.map((entry) => entry.receivedAt);
		return times.filter((time, index) => index === 0 || time - times[index - 1] > 1_000).length;
	};
	while (polls() < triggers) {
		if (Date.now() > deadline)
			throw new Error(`No scheduled poll of ${path} within 190 s of publishing`);
		await page.waitForTimeout(1_000);
	}
	// The rest of the poll (a campaign's details, the next page).
	await page.waitForTimeout(3_000);
}
/** n8n's poll on publishing is over once the workflow shows as published; a read just after is not a scheduled poll. */
const PUBLISH_POLL_MS = 1_000;

/**
 * Makes the example's trigger fire the way its sticky note says: the event made with the outbox page's button.
 * `publishedAt`: when it showed as published; `triggers`: the copies of this example active by then.
 */
async function fire(file: string, workflow: Workflow, publishedAt: number, triggers: number) {
	if (file === 'bounce-cleanup-trigger.json') {
		await waitForPolls('/smtp/bounces/day', publishedAt, triggers);
		const address = bouncing.shift()!;
		const subject = await sendEmail(address);
		expect(await pressInOutbox(emailSection(subject), 'Bounce')).toMatch(
			new RegExp(`^${address.replace('.', '\\.')} bounced \\(550 User unknown\\)`),
		);
	} else if (file === 'sms-not-delivered-email-fallback.json') {
		await waitForPolls('/sms/campaigns/list', publishedAt, triggers);
		const phone = undelivered.shift()!;
		const note = await pressInOutbox(
			(outbox) => outbox.locator('li', { hasText: phone }),
			'Not delivered',
		);
		expect(note).toMatch(new RegExp(` to ${phone}: Not delivered$`));
	} else if (file === 'email-events-webhook.json') {
		// The Production URL the trigger's panel shows, as a user copies it into the service.
		const trigger = workflow.nodes.find((node) => node.type.endsWith('messagingEmailTrigger'))!;
		await page.getByTestId('canvas-node').filter({ hasText: trigger.name }).first().dblclick();
		await page.getByTestId('ndv').waitFor();
		// The panel's "Webhook URLs" section opens on a click; its toggle shows the Production URL.
		await page.getByTestId('ndv').getByText('Webhook URLs', { exact: true }).first().click();
		await page.getByTestId('ndv').getByText('Production URL', { exact: true }).first().click();
		await page.waitForTimeout(300);
		const shown = (await page.getByTestId('ndv').innerText()).match(
			/https?:\/\/\S+\/webhook\/\S+\/email-events/,
		);
		await page.screenshot({
			path: join(SHOTS, `first-hour-webhook-urls-${workflow.name.length}.png`),
		});
		// What the panel shows when it holds no such URL (a node without n8n's random id shows another form).
		expect(shown ?? (await page.getByTestId('ndv').innerText()).slice(0, 600)).toEqual(
			expect.arrayContaining([expect.stringMatching(/\/email-events$/)]),
		);
		await page.getByTestId('ndv-close-button').click();
		// Pasted into the service's webhook settings (the sandbox's), with the kinds the sticky note ticks.
		await control('POST', '/email/webhooks', {
			url: shown![0],
			events: ['opened', 'clicked', 'spam_by_user'],
		});
		const subject = await sendEmail('ann@example.com');
		expect(await pressInOutbox(emailSection(subject), 'Open')).toMatch(
			/^Opened by ann@example\.com; posted to the webhook handler/,
		);
	}
}

describe('the trigger examples, the way users get them', () => {
	it.each(TRIGGER_EXAMPLES)(
		'%s: imported through the editor’s file import, published there, runs',
		async (file) => {
			const workflow = loadExamples().find((entry) => entry.file === file)!.workflow;
			// The file as a user downloads it, without the id n8n's CLI import would keep.
			const asDownloaded = omit(workflow as Workflow & { id?: string }, 'id');
			const path = join(profile, file);
			writeFileSync(path, JSON.stringify(asDownloaded));
			await freshEditor();
			await page.getByTestId('workflow-import-input').setInputFiles(path);
			await page.getByTestId('canvas-node').first().waitFor();
			await page.keyboard.press('Control+s');
			await page.waitForURL(/\/workflow\/(?!new)/);
			const workflowId = openWorkflowId();
			await publishFromEditor(workflowId);
			const published = Date.now();
			await page.screenshot({ path: join(SHOTS, `first-hour-published-${file}.png`) });
			await fire(file, workflow, published, 1);
			const runs = await waitForExecution(workflowId, 150_000);
			expect(runs.map((run) => run.status)).toContain('success');
		},
	);

	it.each(TRIGGER_EXAMPLES)(
		'%s: as `npm start` imports it, published from the editor, runs',
		async (file) => {
			const workflow = loadExamples().find((entry) => entry.file === file)!.workflow as Workflow & {
				id: string;
			};
			await page.goto(`${n8n.baseUrl}/workflow/${workflow.id}`);
			await page.getByTestId('canvas-node').first().waitFor();
			const before = (await executions(workflow.id)).length;
			await publishFromEditor(workflow.id);
			// The file-imported copy of the example is still active: two triggers poll.
			await fire(file, workflow, Date.now(), 2);
			const deadline = Date.now() + 150_000;
			let runs = await executions(workflow.id);
			while (runs.length <= before && Date.now() < deadline) {
				await page.waitForTimeout(2_000);
				runs = await executions(workflow.id);
			}
			expect(runs.map((run) => run.status)).toContain('success');
		},
	);
});
