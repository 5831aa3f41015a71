import { formatServiceDate, parseServiceDate } from '../core/clock';
import { ServiceError } from '../core/errors';
import { s, type Schema } from '../core/schema';
import type { SandboxArea, SandboxContext } from '../core/server';
import {
	EmailState,
	RESUBSCRIBE_LIMIT,
	SANDBOX_SENDING_IP,
	UNSUBSCRIBE_MAX_PER_REQUEST,
	isBounceAddress,
	type LinkEntry,
	type OpenEntry,
	type SentEmail,
} from './state';
import { EMAIL_PATTERN, checkEmailToSend, messageSize } from './validate-email';
import { registerWebhookRoutes, type EmailWebhooks } from './webhooks';
import { omit } from '../core/records';

export { BOUNCE_DOMAIN, RESUBSCRIBE_LIMIT, UNSUBSCRIBE_MAX_PER_REQUEST, EmailState } from './state';

const DAY_MS = 24 * 3_600_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

const serviceDate = (): Schema => s.string({ pattern: DATE_TIME });
const serviceDay = (): Schema => s.string({ pattern: DAY });
const emailAddress = (): Schema => s.string({ pattern: EMAIL_PATTERN });

/** The state each sandbox's email area keeps, for in-process tests (`emailStateOf(sandbox)`). */
const states = new WeakMap<object, EmailState>();
export function emailStateOf(sandbox: { clock: object }): EmailState {
	const state = states.get(sandbox.clock);
	if (!state) throw new Error('This sandbox has no email area');
	return state;
}

function checkedDate(value: unknown, field: string): Date | undefined {
	if (value === undefined) return undefined;
	const date = parseServiceDate(String(value));
	if (!date) throw new ServiceError(400, `Argument ${field} is invalid`, 400);
	return date;
}

function page<T>(records: T[], query: Record<string, unknown>, defaultLimit: number): T[] {
	const offset = (query.offset as number | undefined) ?? 0;
	const limit = (query.limit as number | undefined) ?? defaultLimit;
	return records.slice(offset, offset + limit);
}

/** A sent-email record as the lists show it (numbers as numbers, an extra explanation field). */
function listRecord(email: SentEmail) {
	const record = omit(email, 'content');
	return {
		...record,
		smtp_answer_code_explain: email.smtp_answer_code === 250 ? 'Delivered' : 'Bounced',
	};
}

/** GET /smtp/emails/{id}: numeric fields come as strings there (docs/service-notes.md, Email). */
function singleRecord(email: SentEmail) {
	const record = omit(email, 'content');
	return {
		...record,
		total_size: String(email.total_size),
		smtp_answer_code: String(email.smtp_answer_code),
	};
}

/**
 * The email (SMTP) area of the simulated service: sending, sent-email records with tracking, 24-hour bounces,
 * unsubscribes, resubscription requests (5 per 24 h), sender addresses and sending domains, plus control
 * routes under /__sandbox/email to seed bounces, unsubscribes, tracking, senders, templates and domain checks.
 */
export const emailArea: SandboxArea = (context) => {
	const state = new EmailState(context.clock);
	states.set(context.clock, state);
	registerEmailRoutes(context, state);
	registerListRoutes(context, state);
	registerSenderRoutes(context, state);
	registerControlRoutes(context, state);
	registerWebhookRoutes(context, state.webhooks);
};

/** The webhook delivery of a sandbox's email area, for in-process tests. */
export function webhooksOf(sandbox: { clock: object }): EmailWebhooks {
	return emailStateOf(sandbox).webhooks;
}

function recordSend(state: EmailState, content: ReturnType<typeof checkEmailToSend>): SentEmail {
	const sendDate = state.now();
	const primary = content.to[0]?.email ?? null;
	const bounced = primary !== null && isBounceAddress(primary);
	const email: SentEmail = {
		id: state.nextEmailId(),
		sender: content.from.email,
		total_size: messageSize(content),
		sender_ip: '127.0.0.1',
		smtp_answer_code: bounced ? 550 : 250,
		smtp_answer_subcode: bounced ? '5.1.1' : '2.0.0',
		smtp_answer_data: bounced ? 'User unknown' : 'OK: queued',
		used_ip: SANDBOX_SENDING_IP,
		recipient: primary,
		subject: content.subject,
		send_date: sendDate,
		tracking: { click: 0, open: 0, link: [], client_info: [] },
		content,
	};
	state.emails.push(email);
	for (const recipient of [...content.to, ...content.cc, ...content.bcc]) {
		emitDeliveryEvents(state, email, recipient.email);
		if (!isBounceAddress(recipient.email)) continue;
		state.bounces.push({
			email_to: recipient.email,
			sender: content.from.email,
			send_date: sendDate,
			subject: content.subject,
			smtp_answer_code: 550,
			smtp_answer_subcode: '5.1.1',
			smtp_answer_data: 'User unknown',
			seq: state.nextSeq(),
		});
	}
	return email;
}

/**
 * Webhook events of one recipient of a send: delivered, or not delivered plus a hard bounce (fields:
 * docs/service-notes.md, Webhooks).
 */
function emitDeliveryEvents(state: EmailState, email: SentEmail, recipient: string) {
	const common = { message_id: email.id, sender: email.sender, subject: email.subject };
	if (!isBounceAddress(recipient)) {
		state.webhooks.emit({
			event: 'delivered',
			...common,
			recipient,
			smtp_server_response_code: 250,
			smtp_server_response_subcode: '2.0.0',
			smtp_server_response: 'OK: queued',
		});
		return;
	}
	const failure = {
		smtp_server_response_code: 550,
		smtp_server_response_subcode: '5.1.1',
		smtp_server_response: 'User unknown',
	};
	state.webhooks.emit({ event: 'undelivered', ...common, recipient, ...failure });
	state.webhooks.emit({
		event: 'hard_bounces',
		...common,
		email: recipient,
		task_id: state.emails.length,
		...failure,
	});
}

function registerEmailRoutes({ route }: SandboxContext, state: EmailState) {
	route({
		method: 'POST',
		path: '/smtp/emails',
		area: 'email',
		validationStatus: 422,
		body: s.object({ email: s.any() }),
		vendorForms: { phpSerialized: ['email'] },
		handle: ({ body }) => {
			const email = recordSend(state, checkEmailToSend(state, body));
			return { body: { result: true, id: email.id } };
		},
	});

	route({
		method: 'GET',
		path: '/smtp/emails',
		area: 'email',
		// The vendor's client sends `limit: 0` when its caller gives none (sandbox/README.md).
		vendorForms: { notGiven: { limit: 0 } },
		query: s.object({
			limit: s.integer({ min: 1, max: 500 }),
			offset: s.integer({ min: 0 }),
			from: s.oneOf(serviceDate(), serviceDay()),
			to: s.oneOf(serviceDate(), serviceDay()),
			sender: s.string(),
			recipient: s.string(),
			country: s.string({ enum: ['off'] }),
		}),
		handle: ({ query }) => {
			const from = checkedDate(query.from, 'from');
			let to = checkedDate(query.to, 'to');
			if (to && DAY.test(String(query.to))) to = new Date(to.getTime() + DAY_MS - 1000);
			const sender = (query.sender as string | undefined)?.toLowerCase();
			const recipient = (query.recipient as string | undefined)?.toLowerCase();
			const matching = state.emails.filter((email) => {
				const sent = parseServiceDate(email.send_date)!.getTime();
				if (from && sent < from.getTime()) return false;
				if (to && sent > to.getTime()) return false;
				if (sender && email.sender.toLowerCase() !== sender) return false;
				if (recipient && email.recipient?.toLowerCase() !== recipient) return false;
				return true;
			});
			return { body: page(matching, query, 100).map(listRecord) };
		},
	});

	route({
		method: 'GET',
		path: '/smtp/emails/total',
		area: 'email',
		handle: () => ({ body: { total: state.emails.length } }),
	});

	route({
		method: 'GET',
		path: '/smtp/emails/:id',
		area: 'email',
		handle: ({ params }) => {
			const email = state.emails.find((candidate) => candidate.id === params.id);
			if (!email) throw new ServiceError(400, 'No such email', 14);
			return { body: singleRecord(email) };
		},
	});

	route({
		method: 'POST',
		path: '/smtp/emails/info',
		area: 'email',
		body: s.object(
			{ emails: s.array(s.string({ minLength: 1 }), { maxItems: 500, minItems: 1 }) },
			['emails'],
		),
		handle: ({ body }) => {
			const byId = new Map(state.emails.map((email) => [email.id, email]));
			const found = (body.emails as string[])
				.map((id) => byId.get(id))
				.filter((email) => email !== undefined);
			return { body: found.map(listRecord) };
		},
	});
}

/**
 * `list` sorted by `order`, kept until the list is replaced or grows or shrinks (the email state only appends to
 * these lists or replaces them, and never edits an entry's dates): a list of 100,000 is then sorted once per change,
 * not once per page asked for.
 */
function sortedOnce<T>(order: (a: T, b: T) => number) {
	let cached: { list: T[]; length: number; sorted: T[] } | undefined;
	return (list: T[]): T[] => {
		if (cached?.list !== list || cached.length !== list.length)
			cached = { list, length: list.length, sorted: [...list].sort(order) };
		return cached.sorted;
	};
}

/** The first index of `sorted` at which `after` holds (it holds from some index to the end). */
function firstWhere<T>(sorted: T[], after: (entry: T) => boolean): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (after(sorted[middle])) high = middle;
		else low = middle + 1;
	}
	return low;
}

function registerListRoutes({ route, clock }: SandboxContext, state: EmailState) {
	const sortedBounces = sortedOnce<EmailState['bounces'][number]>(
		(a, b) => a.send_date.localeCompare(b.send_date) || a.seq - b.seq,
	);
	// Sorted by send time, the bounces of the 24-hour window are one run of the list.
	const bouncesInWindow = (day: unknown) => {
		const now = clock.nowMs();
		const sorted = sortedBounces(state.bounces);
		const sentAt = (bounce: { send_date: string }) => parseServiceDate(bounce.send_date)!.getTime();
		const inWindow = sorted.slice(
			firstWhere(sorted, (bounce) => sentAt(bounce) > now - DAY_MS),
			firstWhere(sorted, (bounce) => sentAt(bounce) > now),
		);
		return day === undefined
			? inWindow
			: inWindow.filter((bounce) => bounce.send_date.startsWith(`${String(day)} `));
	};
	const sortedUnsubscribes = sortedOnce<EmailState['unsubscribes'][number]>(
		(a, b) => a.date.localeCompare(b.date) || a.seq - b.seq,
	);
	let unsubscribesByDay:
		| { sorted: EmailState['unsubscribes']; days: Map<string, EmailState['unsubscribes']> }
		| undefined;
	const unsubscribesOf = (day: unknown) => {
		const sorted = sortedUnsubscribes(state.unsubscribes);
		if (day === undefined) return sorted;
		if (unsubscribesByDay?.sorted !== sorted) {
			const days = new Map<string, EmailState['unsubscribes']>();
			for (const entry of sorted) {
				const key = entry.date.slice(0, 10);
				const list = days.get(key) ?? [];
				list.push(entry);
				days.set(key, list);
			}
			unsubscribesByDay = { sorted, days };
		}
		return unsubscribesByDay.days.get(String(day)) ?? [];
	};

	route({
		method: 'GET',
		path: '/smtp/bounces/day',
		area: 'email',
		query: s.object({
			date: serviceDay(),
			limit: s.integer({ min: 1, max: 100 }),
			offset: s.integer({ min: 0 }),
		}),
		handle: ({ query }) => {
			checkedDate(query.date, 'date');
			const matching = bouncesInWindow(query.date);
			const emails = page(matching, query, 100).map((bounce) => omit(bounce, 'seq'));
			return { body: { total: matching.length, emails, request_limit: 100, found: emails.length } };
		},
	});

	route({
		method: 'GET',
		path: '/smtp/bounces/day/total',
		area: 'email',
		handle: () => ({ body: { total: bouncesInWindow(undefined).length } }),
	});

	const emptyEmails = () => new ServiceError(400, 'Empty emails', 14);
	route({
		method: 'POST',
		path: '/smtp/unsubscribe',
		area: 'email',
		vendorForms: { phpSerialized: ['emails'] },
		body: s.object({
			emails: s.array(s.object({ email: emailAddress(), comment: s.string() }, ['email']), {
				maxItems: UNSUBSCRIBE_MAX_PER_REQUEST,
			}),
		}),
		handle: ({ body }) => {
			const emails = (body.emails as Array<{ email: string; comment?: string }> | undefined) ?? [];
			if (emails.length === 0) throw emptyEmails();
			for (const entry of emails) {
				state.unsubscribe({
					email: entry.email,
					unsubscribe_by_link: 0,
					unsubscribe_by_user: 1,
					spam_complaint: 0,
					...(entry.comment ? { comment: entry.comment } : {}),
				});
			}
			return { body: { result: true } };
		},
	});

	route({
		method: 'DELETE',
		path: '/smtp/unsubscribe',
		area: 'email',
		// The live service takes a JSON body (docs/service-notes.md, Email); the reference calls it a parameter, so
		// the query is accepted too.
		query: s.object({ emails: s.array(emailAddress(), { maxItems: UNSUBSCRIBE_MAX_PER_REQUEST }) }),
		queryArrays: ['emails'],
		body: s.object({ emails: s.array(emailAddress(), { maxItems: UNSUBSCRIBE_MAX_PER_REQUEST }) }),
		vendorForms: { phpSerialized: ['emails'] },
		handle: ({ body, query }) => {
			const emails = ((body.emails ?? query.emails) as string[] | undefined) ?? [];
			if (emails.length === 0) throw emptyEmails();
			for (const email of emails) state.resubscribe(email);
			return { body: { result: true } };
		},
	});

	route({
		method: 'GET',
		path: '/smtp/unsubscribe',
		area: 'email',
		query: s.object({
			date: serviceDay(),
			limit: s.integer({ min: 1, max: 100 }),
			offset: s.integer({ min: 0 }),
		}),
		handle: ({ query }) => {
			checkedDate(query.date, 'date');
			const matching = unsubscribesOf(query.date);
			return {
				body: page(matching, query, 100).map(
					({ email, unsubscribe_by_link, unsubscribe_by_user, spam_complaint, date }) => ({
						email,
						unsubscribe_by_link,
						unsubscribe_by_user,
						spam_complaint,
						date,
					}),
				),
			};
		},
	});

	route({
		method: 'GET',
		path: '/smtp/unsubscribe/search',
		area: 'email',
		query: s.object({ email: s.string({ minLength: 1 }) }, ['email']),
		handle: ({ query }) => ({ body: { result: state.isUnsubscribed(String(query.email)) } }),
	});

	route({
		method: 'POST',
		path: '/smtp/resubscribe',
		area: 'email',
		body: s.object(
			{ email: emailAddress(), sender: emailAddress(), lang: s.string({ pattern: /^[a-z]{2}$/ }) },
			['email', 'sender'],
		),
		validationStatus: 422,
		handle: ({ body }) => {
			const sender = String(body.sender);
			if (!state.isSender(sender)) throw new ServiceError(422, 'Sender is not valid', 422);
			const now = clock.nowMs();
			state.resubscribes = state.resubscribes.filter((time) => time > now - DAY_MS);
			if (state.resubscribes.length >= RESUBSCRIBE_LIMIT) {
				throw new ServiceError(
					422,
					`Resubscription request limit exceeded: ${RESUBSCRIBE_LIMIT} per 24 hours`,
					422,
				);
			}
			state.resubscribes.push(now);
			const sent = recordSend(state, {
				from: {
					name: state.senders.find((entry) => entry.email.toLowerCase() === sender.toLowerCase())
						?.name,
					email: sender,
				},
				to: [{ email: String(body.email) }],
				cc: [],
				bcc: [],
				text: `Confirm your subscription (${String(body.lang ?? 'en')})`,
				attachments: {},
				attachmentsBinary: {},
				subject: 'Please confirm your subscription',
			});
			return { body: { result: true, id: sent.id } };
		},
	});
}

function registerSenderRoutes({ route }: SandboxContext, state: EmailState) {
	route({
		method: 'GET',
		path: '/smtp/ips',
		area: 'email',
		handle: () => ({ body: [SANDBOX_SENDING_IP] }),
	});
	route({
		method: 'GET',
		path: '/smtp/senders',
		area: 'email',
		handle: () => ({ body: state.senders.map((sender) => sender.email) }),
	});
	// The account's templates, as the service's template list gives them (docs/service-notes.md, Lists used
	// by the pickers): `id` and `real_id` (here both the id a send takes), a name; `owner=me` leaves out the gallery,
	// which the sandbox does not have.
	route({
		method: 'GET',
		path: '/templates',
		query: s.object({ owner: s.string({ enum: ['me'] }) }),
		handle: () => ({
			body: [...state.templates.values()].map((template) => ({
				id: template.id,
				real_id: /^\d+$/.test(template.id) ? Number(template.id) : template.id,
				name: template.name ?? template.subject,
				lang: 'en',
				owner: 'me',
			})),
		}),
	});
	// One template (docs/service-notes.md, Lists used by the pickers): the list's fields plus `body`, the template's
	// HTML as Base64, as the live service gives it. Its variables are not listed apart: they are the `{{name}}`
	// placeholders inside the body.
	route({
		method: 'GET',
		path: '/template/:id',
		handle: ({ params }) => {
			const template = state.templates.get(params.id);
			if (!template) throw new ServiceError(404, 'Template not found', 404);
			return {
				body: {
					id: template.id,
					real_id: /^\d+$/.test(template.id) ? Number(template.id) : template.id,
					name: template.name ?? template.subject,
					lang: 'en',
					owner: 'me',
					body: Buffer.from(template.html, 'utf8').toString('base64'),
				},
			};
		},
	});
	route({
		method: 'POST',
		path: '/senders',
		area: 'email',
		body: s.object({ email: emailAddress(), name: s.string({ minLength: 1 }) }, ['email', 'name']),
		handle: ({ body }) => {
			state.addSender(String(body.email), String(body.name));
			return { body: { result: true } };
		},
	});
	route({
		method: 'GET',
		path: '/v2/email-service/smtp/sender_domains',
		area: 'email',
		handle: () => ({ body: { data: { result: true, data: state.domains } } }),
	});
	route({
		method: 'POST',
		path: '/v2/email-service/smtp/sender_domains/:domain',
		area: 'email',
		handle: ({ params }) => {
			const domain = params.domain;
			if (!DOMAIN_PATTERN.test(domain))
				return { body: { data: { result: false, error: 'domain is invalid' } } };
			if (state.findDomain(domain))
				return { body: { data: { result: false, error: 'domain exists' } } };
			state.addDomain(domain.toLowerCase());
			return { body: { data: { result: true, error: null } } };
		},
	});
}

function registerControlRoutes({ control, clock }: SandboxContext, state: EmailState) {
	const flag = () => s.integer({ enum: [0, 1] });
	const defaultsDate = (value: unknown, field: string) => {
		if (value === undefined) return formatServiceDate(clock.now());
		checkedDate(value, field);
		return String(value);
	};

	control({
		method: 'POST',
		path: '/email/bounces',
		body: s.object(
			{
				bounces: s.array(
					s.object(
						{
							email_to: emailAddress(),
							sender: s.string(),
							subject: s.string(),
							smtp_answer_code: s.integer({ min: 100, max: 599 }),
							smtp_answer_subcode: s.string(),
							smtp_answer_data: s.string(),
							send_date: serviceDate(),
						},
						['email_to'],
					),
				),
			},
			['bounces'],
		),
		handle: ({ body }) => {
			const bounces = body.bounces as Array<Record<string, unknown>>;
			for (const bounce of bounces) {
				const record = {
					email_to: String(bounce.email_to),
					sender: (bounce.sender as string | undefined) ?? 'sender@sandbox.test',
					subject: (bounce.subject as string | undefined) ?? '',
					smtp_answer_code: (bounce.smtp_answer_code as number | undefined) ?? 550,
					smtp_answer_subcode: (bounce.smtp_answer_subcode as string | undefined) ?? '5.1.1',
					smtp_answer_data: (bounce.smtp_answer_data as string | undefined) ?? 'User unknown',
					send_date: defaultsDate(bounce.send_date, 'send_date'),
				};
				state.bounces.push({ ...record, seq: state.nextSeq() });
				// The bounce is posted to webhook handlers too, as a send's bounce is (bounce kinds name the address
				// `email`); a 4xx reply is a soft bounce.
				state.webhooks.emit({
					event: record.smtp_answer_code < 500 ? 'soft_bounces' : 'hard_bounces',
					email: record.email_to,
					sender: record.sender,
					subject: record.subject,
					smtp_server_response_code: record.smtp_answer_code,
					smtp_server_response_subcode: record.smtp_answer_subcode,
					smtp_server_response: record.smtp_answer_data,
				});
			}
			return { body: { result: true, added: bounces.length } };
		},
	});

	control({
		method: 'POST',
		path: '/email/unsubscribes',
		body: s.object(
			{
				unsubscribes: s.array(
					s.object(
						{
							email: emailAddress(),
							unsubscribe_by_link: flag(),
							unsubscribe_by_user: flag(),
							spam_complaint: flag(),
							date: serviceDate(),
						},
						['email'],
					),
				),
			},
			['unsubscribes'],
		),
		handle: ({ body }) => {
			const entries = body.unsubscribes as Array<Record<string, unknown>>;
			let added = 0;
			for (const entry of entries) {
				const date = defaultsDate(entry.date, 'date');
				const isNew = state.unsubscribe({
					email: String(entry.email),
					unsubscribe_by_link: (entry.unsubscribe_by_link as number | undefined) ?? 0,
					unsubscribe_by_user: (entry.unsubscribe_by_user as number | undefined) ?? 0,
					spam_complaint: (entry.spam_complaint as number | undefined) ?? 0,
					date,
				});
				if (isNew) added++;
			}
			return { body: { result: true, added } };
		},
	});

	const entryFields = {
		browser: s.string(),
		os: s.string(),
		ip: s.string(),
		country: s.string(),
		action_date: serviceDate(),
	};
	control({
		method: 'POST',
		path: '/email/tracking',
		body: s.object(
			{
				id: s.string({ minLength: 1 }),
				opens: s.array(s.object(entryFields)),
				clicks: s.array(
					s.object(
						{
							...entryFields,
							url: s.string(),
							screen_resolution: s.string({ pattern: /^\d+x\d+$/ }),
						},
						['url'],
					),
				),
			},
			['id'],
		),
		handle: ({ body }) => {
			const email = state.emails.find((candidate) => candidate.id === body.id);
			if (!email) throw new ServiceError(404, 'No such email', 14);
			const base = (entry: Record<string, unknown>): OpenEntry => ({
				browser: (entry.browser as string | undefined) ?? 'Chrome',
				os: (entry.os as string | undefined) ?? 'Linux',
				ip: (entry.ip as string | undefined) ?? '198.51.100.7',
				country: (entry.country as string | undefined) ?? 'US',
				action_date: defaultsDate(entry.action_date, 'action_date'),
			});
			const viewer = (entry: OpenEntry) => ({
				message_id: email.id,
				recipient: email.recipient,
				sender: email.sender,
				subject: email.subject,
				user_agent: `Mozilla/5.0 (${entry.os}) ${entry.browser}`,
				ip: entry.ip,
			});
			for (const open of (body.opens as Array<Record<string, unknown>> | undefined) ?? []) {
				const entry = base(open);
				email.tracking.client_info.push(entry);
				email.tracking.open++;
				state.webhooks.emit({ event: 'opened', ...viewer(entry) });
			}
			for (const click of (body.clicks as Array<Record<string, unknown>> | undefined) ?? []) {
				const link: LinkEntry = {
					url: String(click.url),
					...base(click),
					screen_resolution: (click.screen_resolution as string | undefined) ?? '1920x1080',
				};
				email.tracking.link.push(link);
				email.tracking.click++;
				state.webhooks.click({ ...viewer(link), link: link.url });
			}
			return { body: { result: true, tracking: email.tracking } };
		},
	});

	control({
		method: 'POST',
		path: '/email/senders',
		body: s.object({ email: emailAddress(), name: s.string() }, ['email', 'name']),
		handle: ({ body }) => {
			state.addSender(String(body.email), String(body.name));
			return { body: { result: true } };
		},
	});

	control({
		method: 'POST',
		path: '/email/templates',
		body: s.object(
			{
				id: s.oneOf(s.string({ minLength: 1 }), s.integer()),
				name: s.string(),
				subject: s.string(),
				html: s.string(),
			},
			['id', 'html'],
		),
		handle: ({ body }) => {
			const id = String(body.id);
			state.templates.set(id, {
				id,
				...(typeof body.name === 'string' ? { name: body.name } : {}),
				subject: (body.subject as string | undefined) ?? '',
				html: String(body.html),
			});
			return { body: { result: true } };
		},
	});

	control({
		method: 'POST',
		path: '/email/domains/:domain/checks',
		body: s.object({ check_dkim: s.boolean(), check_spf: s.boolean(), check_dmarc: s.boolean() }),
		handle: ({ params, body }) => {
			const domain = state.findDomain(params.domain);
			if (!domain) throw new ServiceError(404, 'No such domain', 404);
			state.setChecks(domain, body);
			return { body: { result: true, checks: domain.checks } };
		},
	});

	control({ method: 'GET', path: '/email/emails', handle: () => ({ body: state.emails }) });
	control({
		method: 'POST',
		path: '/email/reset',
		handle: () => (state.reset(), { body: { result: true } }),
	});
}
