import { formatServiceDate, parseServiceDate } from '../core/clock';
import { ServiceError } from '../core/errors';
import { s, type Schema } from '../core/schema';
import type { SandboxArea } from '../core/server';
import { countryOf } from './countries';
import {
	canonicalPhone,
	checkVariable,
	invalid,
	NEVER_DELIVERED_RULE,
	PHONE_STATUS,
	SENDER_STATUS,
	SmsState,
	type Contact,
	type PhoneTimeline,
	type VariableType,
} from './state';

export { SmsState } from './state';

const phone = s.oneOf(s.string(), s.integer());
const phones = s.array(phone, { minItems: 1 });
const addressBookId = s.integer({ min: 1 });
const sender = s.string({ pattern: /^[A-Za-z0-9]{1,11}$/ });
const route = s.map(s.string());
const flag = s.integer({ enum: [0, 1] });
/** The vendor's client writes `phones` as JSON text inside the JSON body (sandbox/README.md). */
const phonesAsText = { jsonText: ['phones'] };
const typedVariable = s.object({ name: s.string(), type: s.string(), value: s.any() }, [
	'name',
	'type',
]);

/** The state each sandbox's SMS area keeps, for in-process readers (`smsStateOf(sandbox)`: the outbox). */
const states = new WeakMap<object, SmsState>();
export function smsStateOf(sandbox: { clock: object }): SmsState {
	const state = states.get(sandbox.clock);
	if (!state) throw new Error('This sandbox has no SMS area');
	return state;
}

/** The SMS area of the service: mailing-list phones, blacklist, campaigns and sender IDs (see README.md). */
export const smsArea: SandboxArea = ({ clock, route: addRoute, control }) => {
	const state = new SmsState(clock);
	states.set(clock, state);
	const now = () => clock.now();

	const scheduled = (value: unknown) => {
		if (value === undefined) return undefined;
		const date = typeof value === 'string' ? parseServiceDate(value) : undefined;
		if (!date || value !== formatServiceDate(date))
			throw invalid('Argument date is invalid: use YYYY-MM-DD HH:MM:SS');
		return date;
	};
	const valueOf = (variable: { value?: unknown; name?: unknown }) => {
		if (variable.value === undefined || variable.value === null)
			throw invalid(`Variable "${String(variable.name)}": value missing`);
		return variable.value;
	};

	// ---- phone numbers in mailing lists ----
	addRoute({
		method: 'POST',
		path: '/sms/numbers',
		area: 'sms',
		body: s.object({ addressBookId, phones }, ['addressBookId', 'phones']),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			const list = state.list(body.addressBookId as number);
			const counters = { added: 0, exceptions: 0, exists: 0 };
			for (const raw of body.phones as unknown[]) {
				const number = canonicalPhone(raw);
				if (!number) counters.exceptions++;
				else if (list.phones.has(number)) counters.exists++;
				else {
					list.phones.set(number, { variables: {}, added: now() });
					counters.added++;
				}
			}
			return { body: { result: true, counters } };
		},
	});

	addRoute({
		method: 'POST',
		path: '/sms/numbers/variables',
		area: 'sms',
		body: s.object(
			{
				addressBookId,
				phones: s.map(s.array(s.array(typedVariable), { minItems: 1, maxItems: 1 })),
			},
			['addressBookId', 'phones'],
		),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			const entries = Object.entries(
				body.phones as Record<
					string,
					Array<Array<{ name: string; type: string; value?: unknown }>>
				>,
			);
			if (!entries.length) throw invalid('Argument phones missing');
			// Validate every variable before changing anything.
			const prepared = entries.map(([raw, [variables]]) => ({
				number: canonicalPhone(raw),
				variables: Object.fromEntries(
					variables.map((variable) => [
						variable.name,
						{
							type: checkVariable(variable.name, variable.type, valueOf(variable)),
							value: variable.value,
						},
					]),
				),
			}));
			const list = state.list(body.addressBookId as number);
			const counters = { added: 0, exceptions: 0, exists: 0 };
			for (const { number, variables } of prepared) {
				if (!number) counters.exceptions++;
				else if (list.phones.has(number)) counters.exists++;
				else {
					list.phones.set(number, { variables, added: now() });
					counters.added++;
				}
			}
			return { body: [{ result: true, counters }] };
		},
	});

	addRoute({
		method: 'PUT',
		path: '/sms/numbers',
		area: 'sms',
		body: s.object(
			{
				addressBookId,
				phones,
				variables: s.array(
					s.object({ name: s.string(), type: s.string(), value: s.any() }, ['name']),
					{ minItems: 1 },
				),
			},
			['addressBookId', 'phones', 'variables'],
		),
		vendorForms: { jsonText: ['phones', 'variables'] },
		handle: ({ body }) => {
			const list = state.list(body.addressBookId as number);
			const variables = body.variables as Array<{ name: string; type?: string; value?: unknown }>;
			const targets = [...new Set((body.phones as unknown[]).map(canonicalPhone))].flatMap(
				(number) => {
					const contact = number ? list.phones.get(number) : undefined;
					return contact ? [contact] : [];
				},
			);
			const typed = variables.map((variable) => ({
				name: variable.name,
				value: valueOf(variable),
				type:
					variable.type ??
					targets.find((contact) => contact.variables[variable.name])?.variables[variable.name]
						.type ??
					'string',
			}));
			for (const variable of typed) checkVariable(variable.name, variable.type, variable.value);
			for (const contact of targets) {
				for (const variable of typed) {
					contact.variables[variable.name] = {
						type: variable.type as VariableType,
						value: variable.value,
					};
				}
			}
			return { body: [{ result: true, counters: { updated: targets.length } }] };
		},
	});

	addRoute({
		method: 'DELETE',
		path: '/sms/numbers',
		area: 'sms',
		body: s.object({ addressBookId, phones }, ['addressBookId', 'phones']),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			const list = state.list(body.addressBookId as number);
			let deleted = 0;
			for (const raw of body.phones as unknown[]) {
				const number = canonicalPhone(raw);
				if (number && list.phones.delete(number)) deleted++;
			}
			return { body: { result: true, counters: { deleted } } };
		},
	});

	addRoute({
		method: 'POST',
		path: '/addressbooks/:id/phones/variable',
		area: 'sms',
		body: s.object(
			{
				phone,
				variables: s.array(s.object({ name: s.string(), value: s.any() }, ['name']), {
					minItems: 1,
				}),
			},
			['phone', 'variables'],
		),
		handle: ({ params, body }) => {
			const id = Number(params.id);
			if (!Number.isInteger(id) || id < 1) throw invalid('Argument id is invalid');
			const contact = state.list(id).phones.get(canonicalPhone(body.phone) ?? '');
			if (!contact) throw new ServiceError(404, 'Phone not found in the mailing list', 404);
			const variables = body.variables as Array<{ name: string; value?: unknown }>;
			const typed = variables.map((variable) => {
				const type = contact.variables[variable.name]?.type ?? 'string';
				return {
					name: variable.name,
					type: checkVariable(variable.name, type, valueOf(variable)),
					value: variable.value,
				};
			});
			for (const variable of typed)
				contact.variables[variable.name] = { type: variable.type, value: variable.value };
			return { body: { result: true } };
		},
	});

	addRoute({
		method: 'GET',
		path: '/sms/numbers/info/:addressBookId/:phone',
		area: 'sms',
		handle: ({ params }) => {
			const id = Number(params.addressBookId);
			if (!Number.isInteger(id) || id < 1) throw invalid('Argument addressBookId is invalid');
			const number = canonicalPhone(params.phone);
			if (!number) throw invalid('Argument phoneNumber is invalid');
			const contact: Contact | undefined = state.list(id).phones.get(number);
			if (!contact) throw new ServiceError(404, 'Phone not found in the mailing list', 404);
			const variables = Object.fromEntries(
				Object.entries(contact.variables).map(([name, variable]) => [name, variable.value]),
			);
			return {
				body: [
					{
						result: true,
						data: {
							status: state.isBlacklisted(number) ? 1 : 0,
							variables,
							added: formatServiceDate(contact.added),
						},
					},
				],
			};
		},
	});

	// ---- blacklist ----
	const entry = (number: string) => {
		const listed = state.blacklist.get(number)!;
		return {
			phone: number,
			description: listed.description,
			add_date: formatServiceDate(listed.added),
		};
	};
	addRoute({
		method: 'POST',
		path: '/sms/black_list',
		area: 'sms',
		body: s.object({ phones, description: s.string() }, ['phones', 'description']),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			const counters = { added: 0, exists: 0 };
			for (const raw of body.phones as unknown[]) {
				const number = canonicalPhone(raw);
				if (!number) continue;
				if (state.blacklist.has(number)) counters.exists++;
				else {
					state.blacklist.set(number, { description: body.description as string, added: now() });
					counters.added++;
				}
			}
			return { body: [{ result: true, counters }] };
		},
	});
	addRoute({
		method: 'DELETE',
		path: '/sms/black_list',
		area: 'sms',
		body: s.object({ phones }, ['phones']),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			let removed = 0;
			for (const raw of body.phones as unknown[])
				if (state.blacklist.delete(canonicalPhone(raw) ?? '')) removed++;
			return { body: [{ result: true, counters: { removed } }] };
		},
	});
	addRoute({
		method: 'GET',
		path: '/sms/black_list',
		area: 'sms',
		handle: () => ({ body: { result: true, data: [...state.blacklist.keys()].map(entry) } }),
	});
	addRoute({
		method: 'GET',
		path: '/sms/black_list/by_numbers',
		area: 'sms',
		query: s.object({ phones }, ['phones']),
		queryArrays: ['phones'],
		handle: ({ query }) => {
			const found = [...new Set((query.phones as unknown[]).map(canonicalPhone))].filter(
				(number): number is string => !!number && state.blacklist.has(number),
			);
			return { body: { result: true, data: found.map(entry) } };
		},
	});

	// ---- campaigns ----
	const recipientsOf = (raw: unknown[]) => {
		const counters = { exceptions: 0, sends: 0 };
		const unique = new Set<string>();
		for (const item of raw) {
			const number = canonicalPhone(item);
			if (!number || state.isBlacklisted(number)) counters.exceptions++;
			else unique.add(number);
		}
		counters.sends = unique.size;
		return { phones: [...unique], counters };
	};

	addRoute({
		method: 'POST',
		path: '/sms/campaigns',
		area: 'sms',
		body: s.object(
			{
				sender,
				addressBookId,
				body: s.string({ minLength: 1 }),
				transliterate: flag,
				route,
				date: s.string(),
				emulate: flag,
				use_dynamic_list: s.boolean(),
			},
			['sender', 'addressBookId', 'body', 'transliterate'],
		),
		handle: ({ body }) => {
			const date = scheduled(body.date);
			state.checkSender(body.sender as string);
			const list = state.list(body.addressBookId as number);
			const dynamic = body.use_dynamic_list === true;
			const phones = [...list.phones.keys()].filter((number) => !state.isBlacklisted(number));
			if (!phones.length && !dynamic)
				throw invalid('The mailing list has no phones to send to', 400);
			const campaign = state.createCampaign(
				{
					addressBookId: list.id,
					sender: body.sender as string,
					body: body.body as string,
					transliterate: body.transliterate === 1,
					route: body.route as Record<string, string> | undefined,
					phones: dynamic ? undefined : phones,
					dynamic,
					date,
				},
				body.emulate === 1,
			);
			return { body: { result: true, campaign_id: campaign.id } };
		},
	});

	addRoute({
		method: 'POST',
		path: '/sms/send',
		area: 'sms',
		body: s.object(
			{
				sender,
				phones,
				body: s.string({ minLength: 1 }),
				transliterate: flag,
				route,
				date: s.string(),
				emulate: flag,
				use_dynamic_list: s.boolean(),
			},
			['sender', 'phones', 'body'],
		),
		vendorForms: phonesAsText,
		handle: ({ body }) => {
			const date = scheduled(body.date);
			state.checkSender(body.sender as string);
			const { phones: recipients, counters } = recipientsOf(body.phones as unknown[]);
			if (!recipients.length) throw invalid('No valid phones to send to', 400);
			const campaign = state.createCampaign(
				{
					addressBookId: 0,
					sender: body.sender as string,
					body: body.body as string,
					transliterate: body.transliterate === 1,
					route: body.route as Record<string, string> | undefined,
					phones: recipients,
					dynamic: false,
					date,
				},
				body.emulate === 1,
			);
			return { body: { result: true, campaign_id: campaign.id, counters } };
		},
	});

	addRoute({
		method: 'GET',
		path: '/sms/campaigns/list',
		area: 'sms',
		query: s.object({ dateFrom: s.string(), dateTo: s.string() }),
		handle: ({ query }) => {
			const bound = (name: 'dateFrom' | 'dateTo') => {
				const value = query[name];
				if (value === undefined) return undefined;
				const date = parseServiceDate(value as string);
				if (!date || formatServiceDate(date) !== value)
					throw invalid(`Argument ${name} is invalid: use YYYY-MM-DD HH:MM:SS`);
				return date;
			};
			const from = bound('dateFrom');
			const to = bound('dateTo');
			const data = [...state.campaigns.values()]
				.filter(
					(campaign) => (!from || campaign.createdAt >= from) && (!to || campaign.createdAt <= to),
				)
				.map((campaign) => state.listItem(campaign));
			return { body: { result: true, data } };
		},
	});

	// Mailing lists (address books), as the service lists them (docs/service-notes.md, Lists used by the pickers):
	// pages of 100 by limit/offset, `id` and `name` plus counts.
	addRoute({
		method: 'GET',
		path: '/addressbooks',
		query: s.object({ limit: s.integer({ min: 1, max: 100 }), offset: s.integer({ min: 0 }) }),
		handle: ({ query }) => {
			const offset = (query.offset as number | undefined) ?? 0;
			const limit = (query.limit as number | undefined) ?? 100;
			const books = [...state.lists.values()]
				.sort((a, b) => a.id - b.id)
				.slice(offset, offset + limit)
				.map((list) => ({
					id: list.id,
					name: list.name,
					all_email_qty: 0,
					active_email_qty: 0,
					all_phones_qty: list.phones.size,
					status: 0,
					status_explain: 'Active',
				}));
			return { body: books };
		},
	});

	const campaignId = (raw: unknown) => {
		const id = Number(raw);
		if (!Number.isInteger(id) || id < 1) throw invalid('Argument id is invalid');
		return id;
	};

	addRoute({
		method: 'GET',
		path: '/sms/campaigns/info/:id',
		area: 'sms',
		handle: ({ params }) => ({
			body: [{ result: true, data: state.detail(state.campaign(campaignId(params.id))) }],
		}),
	});

	addRoute({
		method: 'PUT',
		path: '/sms/campaigns/cancel/:id',
		area: 'sms',
		handle: ({ params }) => {
			const campaign = state.campaign(campaignId(params.id));
			if (campaign.cancelled) throw invalid('The campaign is already cancelled', 400);
			if (clock.now() >= campaign.sendAt) {
				throw new ServiceError(
					400,
					'Campaign sending has already started: it can no longer be cancelled',
					602,
				);
			}
			campaign.cancelled = true;
			return { body: { result: true } };
		},
	});

	addRoute({
		method: 'GET',
		path: '/sms/campaigns/cost',
		area: 'sms',
		query: s.object({ addressBookId, phones, body: s.string({ minLength: 1 }), sender, route }, [
			'body',
			'sender',
		]),
		queryArrays: ['phones'],
		queryObjects: ['route'],
		handle: ({ query }) => {
			if (query.addressBookId !== undefined && query.phones !== undefined) {
				throw invalid('Pass either addressBookId or phones, not both');
			}
			if (query.addressBookId === undefined && query.phones === undefined)
				throw invalid('Argument addressBookId or phones missing');
			const recipients =
				query.addressBookId !== undefined
					? [...state.list(query.addressBookId as number).phones.keys()].filter(
							(number) => !state.isBlacklisted(number),
						)
					: recipientsOf(query.phones as unknown[]).phones;
			return {
				body: {
					result: true,
					data: {
						price: state.priceOf(recipients, query.body as string),
						currency: state.settings.currency,
					},
				},
			};
		},
	});

	addRoute({
		method: 'DELETE',
		path: '/sms/campaigns',
		area: 'sms',
		body: s.object({ id: s.integer({ min: 1 }) }, ['id']),
		handle: ({ body }) => {
			state.campaign(body.id as number);
			state.campaigns.delete(body.id as number);
			return { body: { result: true } };
		},
	});

	addRoute({
		method: 'GET',
		path: '/sms/senders',
		area: 'sms',
		handle: () => ({
			body: state.senders.map((entry) => ({
				...entry,
				status_explain: SENDER_STATUS[entry.status],
			})),
		}),
	});

	// ---- control routes (/__sandbox/sms/...) ----
	const senderStatus: Schema = s.integer({ enum: [0, 1, 2] });
	control({
		method: 'POST',
		path: '/sms/senders',
		body: s.object(
			{
				sender: s.string({ minLength: 1 }),
				status: senderStatus,
				country: s.string(),
				country_code: s.string(),
			},
			['sender'],
		),
		handle: ({ body }) => ({
			body: state.addSender(body as { sender: string; status?: 0 | 1 | 2 }),
		}),
	});
	control({
		method: 'PATCH',
		path: '/sms/senders/:id',
		body: s.object({ status: senderStatus }, ['status']),
		handle: ({ params, body }) => {
			const found = state.senders.find((entry) => entry.id === Number(params.id));
			if (!found) throw new ServiceError(404, 'Sender not found', 404);
			found.status = body.status as 0 | 1 | 2;
			return { body: found };
		},
	});
	control({
		method: 'PUT',
		path: '/sms/prices',
		body: s.object({ prices: s.map(s.number()), currency: s.string({ minLength: 1 }) }, ['prices']),
		handle: ({ body }) => {
			state.prices = { ...(body.prices as Record<string, number>) };
			if (body.currency) state.settings.currency = body.currency as string;
			return { body: { prices: state.prices, currency: state.settings.currency } };
		},
	});
	control({
		method: 'PATCH',
		path: '/sms/settings',
		body: s.object({
			moderationDelaySeconds: s.integer({ min: 0 }),
			deliveryDelaySeconds: s.integer({ min: 0 }),
			formingSeconds: s.integer({ min: 0 }),
			autoCreateLists: s.boolean(),
			currency: s.string({ minLength: 1 }),
		}),
		handle: ({ body }) => {
			Object.assign(state.settings, body);
			return { body: state.settings };
		},
	});
	control({
		method: 'POST',
		path: '/sms/addressbooks',
		body: s.object({ id: s.integer({ min: 1 }), name: s.string() }, ['id']),
		handle: ({ body }) => {
			const list = state.createList(body.id as number, body.name as string | undefined);
			return { body: { id: list.id, name: list.name, phones: list.phones.size } };
		},
	});
	control({
		method: 'PATCH',
		path: '/sms/campaigns/:id/phones',
		body: s.object({ statuses: s.map(s.integer({ min: 0 })) }, ['statuses']),
		handle: ({ params, body }) => {
			const campaign = state.campaign(campaignId(params.id));
			const recipients = new Set(state.recipients(campaign));
			const statuses = body.statuses as Record<string, number>;
			const unknown = Object.keys(statuses).filter((phone) => !recipients.has(phone));
			if (unknown.length)
				throw invalid(`Not recipients of campaign ${campaign.id}: ${unknown.join(', ')}`);
			campaign.statuses = { ...campaign.statuses, ...statuses };
			return { body: { id: campaign.id, statuses: campaign.statuses } };
		},
	});
	control({
		method: 'PUT',
		path: '/sms/campaigns/:id/timeline',
		body: s.object({ formingSeconds: s.integer({ min: 0 }), phones: s.map(s.any()) }),
		handle: ({ params, body }) => {
			const campaign = state.campaign(campaignId(params.id));
			const recipients = new Set(state.recipients(campaign));
			const timeline: Record<string, PhoneTimeline> = {};
			const seconds = (value: unknown) =>
				value === null || (Number.isInteger(value) && (value as number) >= 0);
			for (const [number, entry] of Object.entries(
				(body.phones ?? {}) as Record<string, unknown>,
			)) {
				const given = entry as Partial<PhoneTimeline> | null;
				if (!recipients.has(number))
					throw invalid(`Not a recipient of campaign ${campaign.id}: ${number}`);
				if (
					typeof given !== 'object' ||
					given === null ||
					!seconds(given.sentAfterSeconds) ||
					!seconds(given.finalAfterSeconds) ||
					(given.final !== undefined && given.final !== 2 && given.final !== 12)
				)
					throw invalid(
						`Phone ${number}: {sentAfterSeconds, finalAfterSeconds: whole seconds or null, final?: 2 | 12}`,
					);
				timeline[number] = {
					sentAfterSeconds: given.sentAfterSeconds!,
					finalAfterSeconds: given.finalAfterSeconds!,
					final: given.final ?? 2,
				};
			}
			campaign.timeline = { ...campaign.timeline, ...timeline };
			if (body.formingSeconds !== undefined)
				campaign.formingSeconds = body.formingSeconds as number;
			return {
				body: {
					id: campaign.id,
					formingSeconds: campaign.formingSeconds,
					timeline: campaign.timeline,
				},
			};
		},
	});
	control({
		method: 'GET',
		path: '/sms/state',
		handle: () => ({
			body: {
				settings: state.settings,
				// Named for whoever inspects the demo: how to make a phone "Not delivered" from the editor.
				deliveryRule: NEVER_DELIVERED_RULE,
				prices: state.prices,
				lists: [...state.lists.values()].map((list) => ({
					id: list.id,
					name: list.name,
					phones: Object.fromEntries(
						[...list.phones].map(([number, contact]) => [
							number,
							{ added: formatServiceDate(contact.added), variables: contact.variables },
						]),
					),
				})),
				blacklist: [...state.blacklist.keys()].map(entry),
				senders: state.senders,
				campaigns: [...state.campaigns.values()].map((campaign) => ({
					...state.listItem(campaign),
					cancelled: campaign.cancelled,
					dynamic: campaign.dynamic,
					body: campaign.body,
					phones: state.recipients(campaign).map((number) => ({
						phone: number,
						country: countryOf(number),
						status: state.phoneStatus(campaign, number),
						status_explain: PHONE_STATUS[state.phoneStatus(campaign, number)],
					})),
				})),
			},
		}),
	});
	control({
		method: 'POST',
		path: '/sms/reset',
		handle: () => (state.reset(), { body: { result: true } }),
	});
};
