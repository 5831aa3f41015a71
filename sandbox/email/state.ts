import type { SandboxClock } from '../core/clock';
import { formatServiceDate } from '../core/clock';
import { EmailWebhooks } from './webhooks';

/** Addresses at this domain bounce (hard, 550 5.1.1 "User unknown"). */
export const BOUNCE_DOMAIN = 'bounce.test';
/** The sandbox's one IP for sending (documentation range). */
export const SANDBOX_SENDING_IP = '192.0.2.10';
/** Most addresses POST/DELETE /smtp/unsubscribe accept per request in the sandbox (the live limit is not documented). */
export const UNSUBSCRIBE_MAX_PER_REQUEST = 500;
/** The service allows this many resubscription request emails per account per 24 hours. */
export const RESUBSCRIBE_LIMIT = 5;
/** Largest message (decoded HTML + text + attachments) the sandbox accepts. */
export const MESSAGE_SIZE_LIMIT = 10 * 1024 * 1024;

export interface OpenEntry {
	browser: string;
	os: string;
	ip: string;
	country: string;
	action_date: string;
}

export interface LinkEntry extends OpenEntry {
	url: string;
	screen_resolution: string;
}

export interface SentEmail {
	id: string;
	sender: string;
	total_size: number;
	sender_ip: string;
	smtp_answer_code: number;
	smtp_answer_subcode: string;
	smtp_answer_data: string;
	used_ip: string;
	recipient: string | null;
	subject: string;
	send_date: string;
	tracking: { click: number; open: number; link: LinkEntry[]; client_info: OpenEntry[] };
	/** What was sent, decoded, for tests (not part of the service's records). */
	content: {
		from: { name?: string; email: string };
		to: Array<{ name?: string; email: string }>;
		cc: Array<{ name?: string; email: string }>;
		bcc: Array<{ name?: string; email: string }>;
		html?: string;
		text?: string;
		autoPlainText?: boolean;
		template?: { id: string | number; variables: Record<string, unknown> };
		attachments: Record<string, string>;
		attachmentsBinary: Record<string, string>;
	};
}

export interface BounceRecord {
	email_to: string;
	sender: string;
	send_date: string;
	subject: string;
	smtp_answer_code: number;
	smtp_answer_subcode: string;
	smtp_answer_data: string;
}

export interface UnsubscribeRecord {
	email: string;
	unsubscribe_by_link: number;
	unsubscribe_by_user: number;
	spam_complaint: number;
	date: string;
	/** Kept for tests; the service does not list it. */
	comment?: string;
}

export interface SendingDomain {
	id: number;
	user_id: number;
	service_type: number;
	service_value: string;
	status: number;
	expire_date: null;
	auto_free_prolong: number;
	currency: string;
	is_default: boolean;
	ssl_type: number;
	ssl_expired: string | null;
	ssl_generated: number | null;
	checks: {
		check_dkim: boolean;
		check_spf: boolean;
		check_dmarc: boolean;
		all_checks: boolean;
		spf_txt_needed: string;
	};
}

export interface Template {
	id: string;
	/** The name the service's template list shows. */
	name?: string;
	subject: string;
	html: string;
}

export const SANDBOX_USER_ID = 7001;
const SPF_NEEDED = 'v=spf1 include:mxsmtp.sandbox.test ~all';

/** Everything the email area remembers; `reset()` goes back to the seed state. */
export class EmailState {
	emails: SentEmail[] = [];
	bounces: Array<BounceRecord & { seq: number }> = [];
	unsubscribes: Array<UnsubscribeRecord & { seq: number }> = [];
	senders: Array<{ email: string; name: string }> = [];
	domains: SendingDomain[] = [];
	templates = new Map<string, Template>();
	/** Sandbox times (ms) of accepted resubscription requests. */
	resubscribes: number[] = [];
	/** Webhook handlers and their queues; not part of reset(), like the account's settings page. */
	readonly webhooks: EmailWebhooks;
	private seq = 0;
	private emailCounter = 0;
	private domainCounter = 0;
	/** See listedAddresses(). */
	private addressIndex?: {
		list: EmailState['unsubscribes'];
		length: number;
		addresses: Set<string>;
	};

	constructor(private readonly clock: SandboxClock) {
		this.webhooks = new EmailWebhooks(clock);
		this.reset();
	}

	reset() {
		this.emails = [];
		this.bounces = [];
		this.unsubscribes = [];
		this.resubscribes = [];
		this.senders = [{ email: 'sender@sandbox.test', name: 'Sandbox Sender' }];
		this.domains = [];
		this.domainCounter = 0;
		this.emailCounter = 0;
		this.seq = 0;
		this.addDomain('sandbox.test', { check_dkim: true, check_spf: true, check_dmarc: true }, true);
		this.templates = new Map([
			[
				'101',
				{
					id: '101',
					name: 'Welcome',
					subject: 'Welcome, {{name}}',
					html: '<p>Hello {{name}}, your code is {{code}}.</p>',
				},
			],
			[
				'tpl-news',
				{ id: 'tpl-news', name: 'Newsletter', subject: 'News', html: '<h1>{{title}}</h1>' },
			],
		]);
	}

	now(): string {
		return formatServiceDate(this.clock.now());
	}

	nextSeq(): number {
		return ++this.seq;
	}

	/** Ids shaped like the live service's (`pzkic9-0afezp-fc`), deterministic per sandbox. */
	nextEmailId(): string {
		const n = ++this.emailCounter;
		const part = (value: number, length: number) =>
			(value % 36 ** length).toString(36).padStart(length, '0');
		return `${part(n * 7919 + 1_000_000, 6)}-${part(n * 104_729 + 77_777, 6)}-${part(n, 2)}`;
	}

	isSender(email: string): boolean {
		return this.senders.some((sender) => sender.email.toLowerCase() === email.toLowerCase());
	}

	addSender(email: string, name: string) {
		const existing = this.senders.find(
			(sender) => sender.email.toLowerCase() === email.toLowerCase(),
		);
		if (existing) existing.name = name;
		else this.senders.push({ email, name });
	}

	findDomain(name: string): SendingDomain | undefined {
		return this.domains.find((domain) => domain.service_value.toLowerCase() === name.toLowerCase());
	}

	addDomain(
		name: string,
		checks: Partial<Omit<SendingDomain['checks'], 'all_checks' | 'spf_txt_needed'>> = {},
		isDefault = false,
	) {
		const domain: SendingDomain = {
			id: 3000 + ++this.domainCounter,
			user_id: SANDBOX_USER_ID,
			service_type: 3,
			service_value: name,
			status: 0,
			expire_date: null,
			auto_free_prolong: 0,
			currency: 'USD',
			is_default: isDefault,
			ssl_type: 0,
			ssl_expired: null,
			ssl_generated: null,
			checks: {
				check_dkim: false,
				check_spf: false,
				check_dmarc: false,
				all_checks: false,
				spf_txt_needed: SPF_NEEDED,
			},
		};
		this.domains.push(domain);
		this.setChecks(domain, checks);
		return domain;
	}

	setChecks(
		domain: SendingDomain,
		checks: Partial<Omit<SendingDomain['checks'], 'all_checks' | 'spf_txt_needed'>>,
	) {
		Object.assign(domain.checks, checks);
		domain.checks.all_checks =
			domain.checks.check_dkim && domain.checks.check_spf && domain.checks.check_dmarc;
		domain.checks.spf_txt_needed = domain.checks.check_spf ? '' : SPF_NEEDED;
		domain.status = domain.checks.all_checks ? 1 : 0;
	}

	/**
	 * The listed addresses (lower case), kept beside the list until it is replaced or changes length, so adding
	 * 100,000 unsubscribes does not scan the list 100,000 times.
	 */
	private listedAddresses(): Set<string> {
		const index = this.addressIndex;
		if (index?.list === this.unsubscribes && index.length === this.unsubscribes.length)
			return index.addresses;
		const addresses = new Set(this.unsubscribes.map((entry) => entry.email.toLowerCase()));
		this.addressIndex = { list: this.unsubscribes, length: this.unsubscribes.length, addresses };
		return addresses;
	}

	isUnsubscribed(email: string): boolean {
		return this.listedAddresses().has(email.toLowerCase());
	}

	/** Unsubscribes; an address already listed keeps its entry (the first date and flags). */
	unsubscribe(entry: Omit<UnsubscribeRecord, 'date'> & { date?: string }): boolean {
		const addresses = this.listedAddresses();
		if (addresses.has(entry.email.toLowerCase())) return false;
		this.unsubscribes.push({ ...entry, date: entry.date ?? this.now(), seq: this.nextSeq() });
		addresses.add(entry.email.toLowerCase());
		this.addressIndex!.length = this.unsubscribes.length;
		this.webhooks.emit({
			event: entry.spam_complaint ? 'spam_by_user' : 'unsubscribed',
			recipient: entry.email,
		});
		return true;
	}

	resubscribe(email: string): boolean {
		const before = this.unsubscribes.length;
		this.unsubscribes = this.unsubscribes.filter(
			(entry) => entry.email.toLowerCase() !== email.toLowerCase(),
		);
		const removed = this.unsubscribes.length < before;
		if (removed) this.webhooks.emit({ event: 'resubscribed', recipient: email });
		return removed;
	}
}

export function isBounceAddress(email: string): boolean {
	return email.toLowerCase().endsWith(`@${BOUNCE_DOMAIN}`);
}
