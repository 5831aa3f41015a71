import type { Sandbox } from '../sandbox';

/** What the examples look up (their Code nodes' tables), so every branch of them runs in the demo. */
export const DEMO_SEED = {
	/** bounce-cleanup-trigger.json: Look Up Phone's table, and the list its Remove from SMS List names. */
	bounces: [
		{ email: 'ann@bounce.test', phone: '380986235698', subject: 'Your order has shipped' },
		{ email: 'bob@bounce.test', phone: '380631234567', subject: 'Welcome' },
	],
	mailingList: { id: 4242, name: 'Customers' },
	/** sms-not-delivered-email-fallback.json: Look Up Customer's phones; they stay Sent until the outbox marks them. */
	undeliveredPhones: ['380671234570', '380671234580'],
};

/**
 * The demo's starting state (the sandbox starts empty), so each example shows its point on the first try:
 * bounces of the addresses the bounce example looks up (a hard and a soft one) and an unsubscribe, the mailing
 * list 4242 holding their phones (the pickers list it), and an SMS campaign to the phones the "SMS not delivered"
 * example looks up. Those stay "Sent" (after 2 minutes of moderation) until the outbox's Not delivered button
 * marks them: the SMS trigger's first activation starts from now, so a status reached before the user publishes
 * the example would never start it.
 */
export async function seedDemo(sandbox: Sandbox) {
	const call = async (
		path: string,
		body: object,
		headers: Record<string, string> = {},
		method = 'POST',
	) => {
		const response = await fetch(`${sandbox.url}${path}`, {
			method,
			headers: { 'Content-Type': 'application/json', ...headers },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`Seeding ${path} failed: ${await response.text()}`);
		return (await response.json()) as Record<string, unknown>;
	};
	const control = async (path: string, body: object) => await call(`/__sandbox${path}`, body);
	const api = async (path: string, body: object) =>
		await call(path, body, { Authorization: `Bearer ${sandbox.account.apiKey}` });
	const [hard, soft] = DEMO_SEED.bounces;
	await control('/email/bounces', {
		bounces: [
			{ email_to: hard.email, subject: hard.subject },
			{
				email_to: soft.email,
				subject: soft.subject,
				smtp_answer_code: 452,
				smtp_answer_subcode: '4.2.2',
				smtp_answer_data: 'Mailbox full',
			},
		],
	});
	await control('/email/unsubscribes', {
		unsubscribes: [{ email: 'leaving@example.com', unsubscribe_by_link: 1 }],
	});
	await control('/sms/addressbooks', DEMO_SEED.mailingList);
	await api('/sms/numbers', {
		addressBookId: DEMO_SEED.mailingList.id,
		phones: DEMO_SEED.bounces.map((bounce) => bounce.phone),
	});
	const sent = await api('/sms/send', {
		sender: 'Sandbox',
		phones: DEMO_SEED.undeliveredPhones,
		body: 'Your order has shipped and arrives on Friday.',
	});
	const waitForTheButton = { sentAfterSeconds: 0, finalAfterSeconds: null };
	await call(
		`/__sandbox/sms/campaigns/${String(sent.campaign_id)}/timeline`,
		{
			phones: Object.fromEntries(
				DEMO_SEED.undeliveredPhones.map((phone) => [phone, waitForTheButton]),
			),
		},
		{},
		'PUT',
	);
}
