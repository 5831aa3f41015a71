/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { startSandbox, type Sandbox, type SandboxArea } from '../../sandbox/core/server';
import { s } from '../../sandbox/core/schema';

/** Routes that exercise the core's validation, area switch and query parsing. */
const checkArea: SandboxArea = ({ route }) => {
	route({
		method: 'POST',
		path: '/check/strict',
		body: s.object(
			{
				name: s.string(),
				count: s.integer({ min: 0 }),
				tags: s.array(s.string(), { maxItems: 2 }),
			},
			['name'],
		),
		handle: ({ body }) => ({ body: { result: true, body } }),
	});
	route({
		method: 'GET',
		path: '/check/phones',
		query: s.object({ phones: s.array(s.string()), limit: s.integer() }, ['phones']),
		queryArrays: ['phones'],
		handle: ({ query }) => ({ body: { result: true, query } }),
	});
	route({
		method: 'GET',
		path: '/check/email-only',
		area: 'email',
		handle: () => ({ body: { result: true } }),
	});
};

let sandbox: Sandbox;
let token: string;

async function call(
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
) {
	const response = await fetch(sandbox.url + path, {
		method,
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return {
		status: response.status,
		body: (await response.json()) as Record<string, unknown>,
		headers: response.headers,
	};
}

beforeAll(async () => {
	sandbox = await startSandbox({ areas: [checkArea], settings: { rateLimitPerSecond: 0 } });
	token = sandbox.account.apiKey;
});
afterAll(async () => await sandbox.close());

describe('token endpoint', () => {
	test('JSON and form-encoded exchanges both work; tokens expire on the sandbox clock', async () => {
		const json = await call('POST', '/oauth/access_token', {
			grant_type: 'client_credentials',
			client_id: sandbox.account.clientId,
			client_secret: sandbox.account.clientSecret,
		});
		expect(json.status).toBe(200);
		expect(json.body).toEqual({
			access_token: expect.stringMatching(/^[0-9a-f]{48}$/),
			token_type: 'Bearer',
			expires_in: 3600,
		});
		const form = await fetch(`${sandbox.url}/oauth/access_token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: sandbox.account.clientId,
				client_secret: sandbox.account.clientSecret,
			}),
		});
		expect(form.status).toBe(200);
		const accessToken = json.body.access_token as string;
		expect(
			(
				await call('GET', '/check/email-only', undefined, {
					Authorization: `Bearer ${accessToken}`,
				})
			).status,
		).toBe(200);
		sandbox.clock.advance(3600 * 1000);
		expect(
			await call('GET', '/check/email-only', undefined, { Authorization: `Bearer ${accessToken}` }),
		).toMatchObject({
			status: 401,
			body: { message: 'Unauthorized!', error_code: 401 },
		});
	});

	test('bad client secret: the documented 401', async () => {
		const result = await call('POST', '/oauth/access_token', {
			grant_type: 'client_credentials',
			client_id: sandbox.account.clientId,
			client_secret: 'nope',
		});
		expect(result).toMatchObject({
			status: 401,
			body: {
				error: 'invalid_client',
				error_description: 'Client authentication failed.',
				message: 'Client authentication failed.',
				error_code: 1,
			},
		});
	});
});

describe('additional API clients of the account (sandbox set-up)', () => {
	const second = { clientId: 'second-integration', clientSecret: 'second-integration-secret-0123' };
	let withSecond: Sandbox;
	beforeAll(async () => {
		withSecond = await startSandbox({
			areas: [checkArea],
			settings: { rateLimitPerSecond: 0 },
			credentials: { additionalClients: [second] },
		});
	});
	afterAll(async () => await withSecond.close());

	const exchange = async (clientId: string, clientSecret: string) => {
		const response = await fetch(`${withSecond.url}/oauth/access_token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				grant_type: 'client_credentials',
				client_id: clientId,
				client_secret: clientSecret,
			}),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	};

	test('the second pair gets a token that works on an API call of the account', async () => {
		const issued = await exchange(second.clientId, second.clientSecret);
		expect(issued).toEqual({
			status: 200,
			body: {
				access_token: expect.stringMatching(/^[0-9a-f]{48}$/),
				token_type: 'Bearer',
				expires_in: 3600,
			},
		});
		const response = await fetch(`${withSecond.url}/check/email-only`, {
			headers: { Authorization: `Bearer ${issued.body.access_token as string}` },
		});
		expect({ status: response.status, body: await response.json() }).toEqual({
			status: 200,
			body: { result: true },
		});
		expect(
			withSecond.log.all().map((entry) => `${entry.path} ${entry.auth} ${entry.status}`),
		).toEqual(['/oauth/access_token none 200', '/check/email-only token 200']);
	});

	test('a wrong secret for the second id: the same 401 as a wrong secret for the main id', async () => {
		const wrongForSecond = await exchange(second.clientId, withSecond.account.clientSecret);
		expect(wrongForSecond).toEqual({
			status: 401,
			body: {
				error: 'invalid_client',
				error_description: 'Client authentication failed.',
				message: 'Client authentication failed.',
				error_code: 1,
			},
		});
		expect(await exchange(withSecond.account.clientId, second.clientSecret)).toEqual(
			wrongForSecond,
		);
	});
});

describe('validation from declarative schemas', () => {
	test.each([
		[{ count: 1 }, 'Argument name missing'],
		[{ name: 5 }, 'Argument name is invalid'],
		[{ name: 'a', count: 'x' }, 'Argument count is invalid'],
		[{ name: 'a', surprise: true }, 'Unknown argument surprise'],
		[{ name: 'a', tags: ['1', '2', '3'] }, 'Argument tags has more than 2 items'],
		[['not', 'an', 'object'], 'Argument  is invalid'],
	])('%j → 400 %s', async (body, message) => {
		expect(await call('POST', '/check/strict', body)).toMatchObject({
			status: 400,
			body: { message, error_code: 400 },
		});
	});

	test('a valid body passes through', async () => {
		expect(await call('POST', '/check/strict', { name: 'a', count: 2, tags: ['x'] })).toMatchObject(
			{
				status: 200,
				body: { result: true, body: { name: 'a', count: 2, tags: ['x'] } },
			},
		);
	});

	test('malformed JSON, unknown routes and wrong methods get the envelope', async () => {
		const malformed = await fetch(`${sandbox.url}/check/strict`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
			body: '{oops',
		});
		expect(malformed.status).toBe(400);
		expect(await malformed.json()).toEqual({
			message: 'Request body is not valid JSON',
			error_code: 400,
		});
		expect(await call('GET', '/nowhere')).toMatchObject({ status: 404, body: { error_code: 404 } });
		expect(await call('DELETE', '/check/strict')).toMatchObject({
			status: 405,
			body: { error_code: 405 },
		});
	});

	test.each([
		['phones=%5B%221%22%2C%222%22%5D', ['1', '2']],
		['phones%5B0%5D=1&phones%5B1%5D=2', ['1', '2']],
		['phones=1&phones=2', ['1', '2']],
		['phones=7', ['7']],
	])('array query form %s is accepted', async (query, phones) => {
		expect(await call('GET', `/check/phones?${query}&limit=3`)).toMatchObject({
			status: 200,
			body: { query: { phones, limit: 3 } },
		});
	});
});

describe('account settings, rate limit, faults, clock', () => {
	test('email routes fail as the live service does while the email area is not activated', async () => {
		sandbox.account.settings.emailActivated = false;
		expect(await call('GET', '/check/email-only')).toEqual(
			expect.objectContaining({
				status: 422,
				body: {
					message: 'No such SMTP user, you need to create SMTP account first',
					error_code: 400,
				},
			}),
		);
		sandbox.account.settings.emailActivated = true;
		expect((await call('GET', '/check/email-only')).status).toBe(200);
	});

	test('the per-account limit answers the documented code', async () => {
		await call('PATCH', '/__sandbox/settings', { rateLimitPerSecond: 3 });
		const statuses = [];
		for (let index = 0; index < 5; index++)
			statuses.push((await call('GET', '/check/email-only')).status);
		expect(statuses).toEqual([200, 200, 200, 429, 429]);
		const limited = await call('GET', '/check/email-only');
		expect(limited.body).toEqual({
			message: 'More than 3 requests per second',
			error_code: 2020202020,
		});
		await call('PATCH', '/__sandbox/settings', { rateLimitPerSecond: 0 });
	});

	test('faults through the control API: status, delay, drop; then normal again', async () => {
		await call('POST', '/__sandbox/faults', {
			path: '/check/email-only',
			status: 503,
			body: { message: 'down', error_code: 503 },
		});
		await call('POST', '/__sandbox/faults', { path: '/check/*', delayMs: 300 });
		await call('POST', '/__sandbox/faults', {
			method: 'GET',
			path: '/check/email-only',
			drop: true,
		});
		expect(await call('GET', '/check/email-only')).toMatchObject({
			status: 503,
			body: { message: 'down' },
		});
		const started = Date.now();
		expect((await call('GET', '/check/email-only')).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
		await expect(call('GET', '/check/email-only')).rejects.toThrow();
		expect((await call('GET', '/check/email-only')).status).toBe(200);
	});

	test('the request log records exact requests and is readable over HTTP', async () => {
		await call('DELETE', '/__sandbox/requests');
		await call('POST', '/check/strict', { name: 'logged' });
		await call('GET', '/check/phones?phones=%5B%221%22%5D');
		const log = await fetch(`${sandbox.url}/__sandbox/requests`).then((response) =>
			response.json(),
		);
		expect(log).toEqual([
			expect.objectContaining({
				seq: expect.any(Number),
				method: 'POST',
				path: '/check/strict',
				body: { name: 'logged' },
				status: 200,
				auth: 'apiKey',
			}),
			expect.objectContaining({
				method: 'GET',
				path: '/check/phones',
				rawQuery: 'phones=%5B%221%22%5D',
				query: { phones: ['1'] },
			}),
		]);
	});

	test('the clock moves forward on request and never back', async () => {
		const before = Date.parse((await call('GET', '/__sandbox/clock')).body.now as string);
		const after = Date.parse(
			(await call('POST', '/__sandbox/clock/advance', { hours: 25 })).body.now as string,
		);
		expect(after - before).toBeGreaterThanOrEqual(25 * 3600 * 1000);
		expect(() => sandbox.clock.advance(-1)).toThrow('The sandbox clock only moves forward');
	});

	test('a second sandbox on a taken port fails with a clear message', async () => {
		const port = Number(new URL(sandbox.url).port);
		await expect(startSandbox({ port })).rejects.toThrow(
			`Port ${port} on 127.0.0.1 is already in use (is another sandbox running?)`,
		);
	});
});
