import { formatServiceDate } from '../core/clock';
import type { SandboxClock } from '../core/clock';
import { ServiceError } from '../core/errors';
import { countryOf, DEFAULT_PRICES, roundMoney, segmentsOf } from './countries';

export type VariableType = 'date' | 'string' | 'number';

export interface Contact {
	variables: Record<string, { type: VariableType; value: unknown }>;
	added: Date;
}

export interface MailingList {
	id: number;
	name: string;
	phones: Map<string, Contact>;
}

export interface SenderId {
	id: number;
	sender: string;
	country: string;
	country_code: string;
	status: 0 | 1 | 2;
}

export interface Campaign {
	id: number;
	addressBookId: number;
	sender: string;
	body: string;
	transliterate: boolean;
	route?: Record<string, string>;
	createdAt: Date;
	/** When sending starts: the scheduled date, but never before moderation ends. */
	sendAt: Date;
	/** Fixed at creation, or (use_dynamic_list on a mailing list) read from the list when sending starts. */
	phones?: string[];
	dynamic: boolean;
	cancelled: boolean;
	/** Phone → status set through the control API; wins over the timeline (phones that stall or finish early). */
	statuses?: Record<string, number>;
	/** Phone → its own way through the statuses (control API); phones without one follow the settings. */
	timeline?: Record<string, PhoneTimeline>;
	/** Seconds after the send time during which the details list no phones (the service forms the campaign). */
	formingSeconds?: number;
}

/**
 * One phone's way through the statuses, in seconds after the campaign's send time: 0 "Ready to send" until
 * `sentAfterSeconds`, 1 "Sent" until `finalAfterSeconds`, then `final`. `null` stays where it is for good (a phone
 * never sent, or one that stays at Sent).
 */
export interface PhoneTimeline {
	sentAfterSeconds: number | null;
	finalAfterSeconds: number | null;
	final: 2 | 12;
}

export interface SmsSettings {
	/** Seconds a new campaign spends in moderation before it may be sent. */
	moderationDelaySeconds: number;
	/** Seconds between "Sent" and the final "Delivered" / "Not delivered". */
	deliveryDelaySeconds: number;
	/** Seconds after the send time during which a campaign's details list no phones (it is being formed). */
	formingSeconds: number;
	/** Create a mailing list the first time an addressBookId is used. */
	autoCreateLists: boolean;
	currency: string;
}

export const DEFAULT_SMS_SETTINGS: SmsSettings = {
	moderationDelaySeconds: 120,
	deliveryDelaySeconds: 60,
	formingSeconds: 0,
	autoCreateLists: true,
	currency: 'USD',
};

/**
 * The sandbox's delivery rule, for demos and tests (the README names it): a phone number ending in 0 is never
 * delivered (status 12 "Not delivered" once the delivery delay has passed); every other number is delivered.
 */
export const NEVER_DELIVERED_RULE = 'phone numbers ending in 0 are never delivered (status 12)';
export const neverDelivered = (phone: string): boolean => phone.endsWith('0');

export const PHONE_STATUS: Record<number, string> = {
	0: 'Ready to send',
	1: 'Sent',
	2: 'Delivered',
	12: 'Not delivered',
};
export const SENDER_STATUS: Record<number, string> = {
	0: 'On moderation',
	1: 'Active',
	2: 'Rejected',
};

export const invalid = (message: string, code = 400) => new ServiceError(400, message, code);

/** A phone as the service keeps it: digits only, 7 to 15 of them; anything else is an "exception". */
export function canonicalPhone(value: unknown): string | undefined {
	const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
	return typeof text === 'string' && /^\d{7,15}$/.test(text) ? text : undefined;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isServiceDay(value: unknown): boolean {
	const match = typeof value === 'string' ? DAY.exec(value) : null;
	if (!match) return false;
	const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
	return date.getUTCMonth() === +match[2] - 1 && date.getUTCDate() === +match[3];
}

/** The reference's variable rules: date = YYYY-MM-DD (no time); number = numbers (or a date); string = text, numbers or dates. */
export function checkVariable(name: unknown, type: unknown, value: unknown): VariableType {
	if (typeof name !== 'string' || !name) throw invalid('Variable name missing');
	if (type !== 'date' && type !== 'string' && type !== 'number') {
		throw invalid(`Variable "${name}": type must be date, string or number`);
	}
	const ok =
		type === 'date'
			? isServiceDay(value)
			: type === 'number'
				? (typeof value === 'number' && Number.isFinite(value)) ||
					(typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) ||
					isServiceDay(value)
				: typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
	if (!ok) {
		throw invalid(
			type === 'date'
				? `Variable "${name}": a date value must be YYYY-MM-DD without a time, got ${JSON.stringify(value)}`
				: `Variable "${name}": invalid ${type} value ${JSON.stringify(value)}`,
		);
	}
	return type;
}

const CYRILLIC: Record<string, string> = {
	а: 'a',
	б: 'b',
	в: 'v',
	г: 'g',
	ґ: 'g',
	д: 'd',
	е: 'e',
	є: 'ye',
	ё: 'yo',
	ж: 'zh',
	з: 'z',
	и: 'i',
	і: 'i',
	ї: 'yi',
	й: 'y',
	к: 'k',
	л: 'l',
	м: 'm',
	н: 'n',
	о: 'o',
	п: 'p',
	р: 'r',
	с: 's',
	т: 't',
	у: 'u',
	ф: 'f',
	х: 'kh',
	ц: 'ts',
	ч: 'ch',
	ш: 'sh',
	щ: 'shch',
	ъ: '',
	ы: 'y',
	ь: '',
	э: 'e',
	ю: 'yu',
	я: 'ya',
};

export function transliterate(text: string): string {
	return [...text]
		.map((char) => {
			const lower = char.toLowerCase();
			const latin = CYRILLIC[lower];
			if (latin === undefined) return char;
			return char === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
		})
		.join('');
}

/** Everything the SMS area remembers. */
export class SmsState {
	settings: SmsSettings = { ...DEFAULT_SMS_SETTINGS };
	prices: Record<string, number> = { ...DEFAULT_PRICES };
	lists = new Map<number, MailingList>();
	blacklist = new Map<string, { description: string; added: Date }>();
	senders: SenderId[] = [];
	campaigns = new Map<number, Campaign>();
	private nextCampaignId = 1001;
	private nextSenderId = 1;

	constructor(private readonly clock: SandboxClock) {
		this.addSender({ sender: 'Sandbox', status: 1 });
	}

	reset() {
		this.settings = { ...DEFAULT_SMS_SETTINGS };
		this.prices = { ...DEFAULT_PRICES };
		this.lists.clear();
		this.blacklist.clear();
		this.senders = [];
		this.campaigns.clear();
		this.nextCampaignId = 1001;
		this.nextSenderId = 1;
		this.addSender({ sender: 'Sandbox', status: 1 });
	}

	addSender(input: {
		sender: string;
		status?: 0 | 1 | 2;
		country?: string;
		country_code?: string;
	}): SenderId {
		const sender: SenderId = {
			id: this.nextSenderId++,
			sender: input.sender,
			country: input.country ?? '',
			country_code: input.country_code ?? '',
			status: input.status ?? 0,
		};
		this.senders.push(sender);
		return sender;
	}

	createList(id: number, name?: string): MailingList {
		const existing = this.lists.get(id);
		if (existing) {
			if (name) existing.name = name;
			return existing;
		}
		const list: MailingList = { id, name: name ?? `List ${id}`, phones: new Map() };
		this.lists.set(id, list);
		return list;
	}

	list(id: number): MailingList {
		const list = this.lists.get(id);
		if (list) return list;
		if (!this.settings.autoCreateLists) throw new ServiceError(404, 'Address book not found', 404);
		return this.createList(id);
	}

	isBlacklisted(phone: string) {
		return this.blacklist.has(phone);
	}

	priceOf(phones: string[], body: string): number {
		const parts = segmentsOf(body);
		return roundMoney(
			phones.reduce(
				(sum, phone) => sum + (this.prices[countryOf(phone)] ?? this.prices.default ?? 0) * parts,
				0,
			),
		);
	}

	unitPrice(phone: string, body: string): number {
		return roundMoney(
			(this.prices[countryOf(phone)] ?? this.prices.default ?? 0) * segmentsOf(body),
		);
	}

	checkSender(sender: string) {
		const known = this.senders.find((entry) => entry.sender === sender);
		if (known?.status === 2)
			throw new ServiceError(422, `Sender ${sender} was rejected by moderation`, 422);
	}

	createCampaign(
		input: Omit<Campaign, 'id' | 'createdAt' | 'sendAt' | 'cancelled'> & { date?: Date },
		emulate: boolean,
	): Campaign {
		const createdAt = this.clock.now();
		const moderated = createdAt.getTime() + this.settings.moderationDelaySeconds * 1000;
		const sendAt = new Date(Math.max(moderated, input.date?.getTime() ?? 0));
		const { date: _date, ...rest } = input;
		void _date;
		const campaign: Campaign = {
			...rest,
			id: emulate ? 0 : this.nextCampaignId++,
			createdAt,
			sendAt,
			cancelled: false,
		};
		if (!emulate) this.campaigns.set(campaign.id, campaign);
		return campaign;
	}

	campaign(id: number): Campaign {
		const campaign = this.campaigns.get(id);
		if (!campaign) throw new ServiceError(404, 'Campaign not found', 404);
		return campaign;
	}

	/** The campaign's recipients; a dynamic one reads its list as it stood when sending started. */
	recipients(campaign: Campaign): string[] {
		if (campaign.phones && !campaign.dynamic) return campaign.phones;
		const now = this.clock.now();
		const cutoff = now < campaign.sendAt ? now : campaign.sendAt;
		const list = this.lists.get(campaign.addressBookId);
		const phones = [...(list?.phones ?? new Map<string, Contact>())]
			.filter(([phone, contact]) => contact.added <= cutoff && !this.isBlacklisted(phone))
			.map(([phone]) => phone);
		if (now >= campaign.sendAt) {
			campaign.phones = phones;
			campaign.dynamic = false;
		}
		return phones;
	}

	phoneStatus(campaign: Campaign, phone: string): number {
		const set = campaign.statuses?.[phone];
		if (set !== undefined) return set;
		const now = this.clock.nowMs();
		if (campaign.cancelled || now < campaign.sendAt.getTime()) return 0;
		const own = campaign.timeline?.[phone];
		if (own) {
			const reached = (seconds: number | null) =>
				seconds !== null && now >= campaign.sendAt.getTime() + seconds * 1000;
			return !reached(own.sentAfterSeconds) ? 0 : !reached(own.finalAfterSeconds) ? 1 : own.final;
		}
		if (now < campaign.sendAt.getTime() + this.settings.deliveryDelaySeconds * 1000) return 1;
		return neverDelivered(phone) ? 12 : 2;
	}

	/** Whether the service is still forming the campaign: its details list no phones yet. */
	isForming(campaign: Campaign): boolean {
		const seconds = campaign.formingSeconds ?? this.settings.formingSeconds;
		const now = this.clock.nowMs();
		return now >= campaign.sendAt.getTime() && now < campaign.sendAt.getTime() + seconds * 1000;
	}

	bodyForPricing(campaign: Campaign) {
		return campaign.transliterate ? transliterate(campaign.body) : campaign.body;
	}

	listItem(campaign: Campaign) {
		return {
			id: campaign.id,
			address_book_id: campaign.addressBookId,
			company_price: this.priceOf(this.recipients(campaign), this.bodyForPricing(campaign)).toFixed(
				4,
			),
			company_currency: this.settings.currency,
			send_date: formatServiceDate(campaign.sendAt),
			date_created: formatServiceDate(campaign.createdAt),
			sender_name: campaign.sender,
			sender_mail_address: '',
			sender_mail_name: '',
			external_stat: 0,
		};
	}

	detail(campaign: Campaign) {
		const body = this.bodyForPricing(campaign);
		const phones = this.recipients(campaign);
		return {
			id: campaign.id,
			address_book_id: campaign.addressBookId,
			currency: this.settings.currency,
			company_price: this.priceOf(phones, body),
			send_date: formatServiceDate(campaign.sendAt),
			date_created: formatServiceDate(campaign.createdAt),
			sender_name: campaign.sender,
			task_phones_info: (this.isForming(campaign) ? [] : phones).map((phone) => {
				const status = this.phoneStatus(campaign, phone);
				return {
					// The live service answers phones as JSON numbers and spells the key with a Cyrillic "с".
					phone: Number(phone),
					status,
					status_explain: campaign.cancelled ? 'Cancelled' : PHONE_STATUS[status],
					['\u0441ountry_code']: countryOf(phone),
					money_spent: status === 0 ? 0 : this.unitPrice(phone, body),
				};
			}),
		};
	}
}
