import type { SandboxArea } from '../../sandbox/core/server';
import { s } from '../../sandbox/core/schema';

/** A small service area for the transport's tests: a long list, an echo with a path segment, a send, who am I. */
export const probeArea: SandboxArea = ({ route, account }) => {
	const bearer = (headers: Record<string, string | string[] | undefined>) =>
		/^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1] ?? '';
	const records = Array.from({ length: 1234 }, (_, index) => ({ id: String(index + 1) }));
	route({
		method: 'GET',
		path: '/probe/records',
		query: s.object({ limit: s.integer({ min: 1, max: 100 }), offset: s.integer({ min: 0 }) }),
		handle: ({ query }) => {
			const offset = (query.offset as number) ?? 0;
			return { body: records.slice(offset, offset + ((query.limit as number) ?? 10)) };
		},
	});
	route({
		method: 'GET',
		path: '/probe/phones/:phone',
		query: s.object({ phones: s.array(s.string()), route: s.map(s.string()) }),
		queryArrays: ['phones'],
		queryObjects: ['route'],
		handle: ({ params, query }) => ({ body: { result: true, phone: params.phone, query } }),
	});
	route({
		method: 'POST',
		path: '/probe/send',
		body: s.object({ text: s.string() }, ['text']),
		handle: ({ body }) => ({ body: { result: true, id: `sent-${String(body.text)}` } }),
	});
	route({
		method: 'GET',
		path: '/probe/single',
		handle: () => ({ body: [{ result: true, data: { id: 7 } }] }),
	});
	// Which of the account's API clients the request acts as (the client id its token was issued to).
	route({
		method: 'GET',
		path: '/probe/whoami',
		handle: ({ headers }) => ({ body: { clientId: account.clientOf(bearer(headers)) ?? null } }),
	});
	// A service that quotes the token it refuses, in words no pattern knows.
	route({
		method: 'GET',
		path: '/probe/echo-token',
		handle: ({ headers }) => ({
			status: 403,
			body: { message: `Token ${bearer(headers)} rejected`, error_code: 403 },
		}),
	});
	route({ method: 'GET', path: '/probe/list-of-one', handle: () => ({ body: [{ id: 'only' }] }) });
};
