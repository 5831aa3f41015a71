import type { Sandbox } from '../sandbox';

/** What the examples look up (their Code nodes' tables), so every branch of them runs in the demo. */
export const DEMO_SEED = {
	/** bounce-cleanup-trigger.json: Look Up Phone's table, and the list its Remove from SMS List names. */
	bounces: [
		{ email: 'ann@bounce.test', phone: '380986235698', subject: 'Your order has shipped' },
		{ email: 'bob@bounce.test', phone: '380631234567', subject: 'Welcome' },
	],
	mailingList: { id: 4242, name: 'Customers' },
	/** sms-not-delivered-email-fallback.json: Look Up Customer's phones; they end in 0, so never delivered. */
	undeliveredPhones: ['380671234570', '380671234580'],
};

/**
 * The demo's starting state (the sandbox starts empty), so each example shows its point on the first try:
 * bounces of the addresses the bounce example looks up (a hard and a soft one) and an unsubscribe, the mailing
 * list 4242 holding their phones (the pickers list it), and an SMS campaign to the phones the "SMS not delivered"
 * example looks up: the sandbox never delivers numbers ending in 0, so they turn "Not delivered" about 3 minutes
 * after the start (2 minutes of moderation, 1 of delivery).
 */
export async function seedDemo(sandbox: Sandbox) {
	const call = async (path: string, body: object, headers: Record<string, string> = {}) => {
		const response = await fetch(`${sandbox.url}${path}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`Seeding ${path} failed: ${await response.text()}`);
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
	await api('/sms/send', {
		sender: 'Sandbox',
		phones: DEMO_SEED.undeliveredPhones,
		body: 'Your order has shipped and arrives on Friday.',
	});
}
