/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SandboxAccount, type AccountCredentials, type AccountSettings } from './account';
import { SandboxClock } from './clock';
import { ServiceError } from './errors';
import { FaultInjector, type FaultRule } from './faults';
import { parseQuery } from './query';
import { RequestLog, type LoggedRequest } from './request-log';
import { validate } from './schema';
import type { HttpMethod, Reply, RouteDefinition, SandboxRequest } from './types';
import { acceptVendorForms } from './vendor-forms';

export const CONTROL_PREFIX = '/__sandbox';

/** Largest request body the sandbox reads (README: The API sandbox); larger ones are answered 413 unread. */
export const DEFAULT_MAX_BODY_BYTES = 40 * 1024 * 1024;

/** What an API area (email, SMS) gets to register its routes and state with. */
export interface SandboxContext {
	clock: SandboxClock;
	account: SandboxAccount;
	log: RequestLog;
	/** A service route (Bearer-checked, rate-limited, logged). */
	route(definition: RouteDefinition): void;
	/** A control route under /__sandbox (no auth, not logged, not rate-limited). Give the path without the prefix. */
	control(definition: Omit<RouteDefinition, 'public' | 'area'>): void;
}

export type SandboxArea = (context: SandboxContext) => void;

export interface SandboxOptions {
	port?: number;
	host?: string;
	settings?: Partial<AccountSettings>;
	credentials?: AccountCredentials;
	areas?: SandboxArea[];
	/** Request bodies past this many bytes are answered 413 without being read further. */
	maxBodyBytes?: number;
	/**
	 * The control API (/__sandbox: it hands out the secret and API key, rewinds nothing but changes everything)
	 * answers loopback clients only, unless this is set.
	 */
	allowRemoteControl?: boolean;
}

interface CompiledRoute {
	definition: RouteDefinition;
	pattern: RegExp;
	names: string[];
}

export class Sandbox {
	readonly clock = new SandboxClock();
	readonly account: SandboxAccount;
	readonly log = new RequestLog();
	readonly faults = new FaultInjector();
	private readonly routes: CompiledRoute[] = [];
	private readonly server: Server;
	private readonly sockets = new Set<import('node:net').Socket>();
	url = '';

	constructor(private readonly options: SandboxOptions = {}) {
		this.account = new SandboxAccount(this.clock, options.settings, options.credentials);
		this.server = createServer((req, res) => void this.dispatch(req, res));
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		this.registerCore();
		const context: SandboxContext = {
			clock: this.clock,
			account: this.account,
			log: this.log,
			route: (definition) => this.addRoute(definition),
			control: (definition) =>
				this.addRoute({ ...definition, path: CONTROL_PREFIX + definition.path, public: true }),
		};
		for (const area of options.areas ?? []) area(context);
	}

	async listen(): Promise<this> {
		const host = this.options.host ?? '127.0.0.1';
		const port = this.options.port ?? 0;
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', (error: NodeJS.ErrnoException) =>
				reject(
					error.code === 'EADDRINUSE'
						? new Error(
								`Port ${port} on ${host} is already in use (is another sandbox running?). Choose another with --port.`,
							)
						: error,
				),
			);
			this.server.listen(port, host, () => resolve());
		});
		const address = this.server.address() as AddressInfo;
		this.url = `http://${host}:${address.port}`;
		return this;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private addRoute(definition: RouteDefinition) {
		const names: string[] = [];
		const source = definition.path
			.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
			.replace(/:(\w+)/g, (_, name: string) => {
				names.push(name);
				return '([^/]+)';
			});
		this.routes.push({ definition, pattern: new RegExp(`^${source}$`), names });
	}

	private registerCore() {
		this.addRoute({
			method: 'POST',
			path: '/oauth/access_token',
			public: true,
			body: {
				type: 'object',
				properties: {
					grant_type: { type: 'any' },
					client_id: { type: 'any' },
					client_secret: { type: 'any' },
				},
				required: [],
				additionalProperties: false,
			},
			handle: ({ body }) => ({
				body: this.account.issueToken(body.client_id, body.client_secret, body.grant_type),
			}),
		});

		const control = (definition: Omit<RouteDefinition, 'public'>) =>
			this.addRoute({ ...definition, path: CONTROL_PREFIX + definition.path, public: true });
		control({
			method: 'GET',
			path: '/info',
			handle: () => ({
				body: {
					url: this.url,
					clientId: this.account.clientId,
					clientSecret: this.account.clientSecret,
					apiKey: this.account.apiKey,
					settings: this.account.settings,
					tokensIssued: this.account.tokensIssued,
					now: this.clock.now().toISOString(),
				},
			}),
		});
		control({
			method: 'GET',
			path: '/requests',
			query: { type: 'object', properties: { since: { type: 'integer' } } },
			handle: ({ query }) => ({ body: this.log.since((query.since as number | undefined) ?? 0) }),
		});
		control({
			method: 'DELETE',
			path: '/requests',
			handle: () => (this.log.clear(), { body: { result: true } }),
		});
		control({
			method: 'PATCH',
			path: '/settings',
			body: {
				type: 'object',
				properties: {
					emailActivated: { type: 'boolean' },
					rateLimitPerSecond: { type: 'integer', min: 0 },
					rateLimitStatus: { type: 'integer', min: 200, max: 599 },
					tokenTtlSeconds: { type: 'integer', min: 1 },
				},
			},
			handle: ({ body }) => {
				Object.assign(this.account.settings, body);
				return { body: this.account.settings };
			},
		});
		control({
			method: 'POST',
			path: '/clock/advance',
			body: {
				type: 'object',
				properties: {
					hours: { type: 'number' },
					minutes: { type: 'number' },
					seconds: { type: 'number' },
				},
			},
			handle: ({ body }) => {
				const ms =
					((body.hours as number) ?? 0) * 3_600_000 +
					((body.minutes as number) ?? 0) * 60_000 +
					((body.seconds as number) ?? 0) * 1000;
				if (!(ms >= 0))
					throw new ServiceError(
						400,
						'The sandbox clock only moves forward: hours, minutes and seconds must add up to zero or more',
					);
				return { body: { now: this.clock.advance(ms).toISOString() } };
			},
		});
		control({
			method: 'POST',
			path: '/clock/set',
			body: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
			handle: ({ body }) => {
				const target = new Date(body.to as string);
				if (Number.isNaN(target.getTime())) throw new ServiceError(400, 'Argument to is invalid');
				return { body: { now: this.clock.setTo(target).toISOString() } };
			},
		});
		control({
			method: 'GET',
			path: '/clock',
			handle: () => ({ body: { now: this.clock.now().toISOString() } }),
		});
		control({
			method: 'POST',
			path: '/faults',
			body: {
				type: 'object',
				properties: {
					method: { type: 'string' },
					path: { type: 'string' },
					times: { type: 'integer', min: 1 },
					until: { type: 'string' },
					status: { type: 'integer', min: 100, max: 599 },
					body: { type: 'any' },
					rawBody: { type: 'string' },
					headers: { type: 'map', values: { type: 'string' } },
					delayMs: { type: 'integer', min: 0 },
					drop: { type: 'boolean' },
				},
				required: ['path'],
			},
			handle: ({ body }) => {
				try {
					this.faults.add(body as unknown as FaultRule);
				} catch (error) {
					throw new ServiceError(400, (error as Error).message, 400);
				}
				return { body: { result: true, pending: this.faults.pending() } };
			},
		});
		control({
			method: 'DELETE',
			path: '/faults',
			handle: () => (this.faults.clear(), { body: { result: true } }),
		});
		control({
			method: 'POST',
			path: '/tokens/revoke',
			handle: () => (this.account.revokeTokens(), { body: { result: true } }),
		});
	}

	private async dispatch(req: IncomingMessage, res: ServerResponse) {
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
		const path = url.pathname;
		const isControl = path.startsWith(CONTROL_PREFIX);
		if (isControl && !this.options.allowRemoteControl && !isLoopback(req.socket.remoteAddress)) {
			this.send(req, res, {
				status: 403,
				body: {
					message:
						'The sandbox control API answers loopback clients only (start it with --allow-remote-control to change that)',
					error_code: 403,
				},
			});
			return;
		}
		const maxBodyBytes = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
		const rawBody = await readBody(req, maxBodyBytes);
		const contentType = req.headers['content-type'];
		if (rawBody === undefined) {
			const reply = {
				status: 413,
				body: {
					message: `Request body larger than ${maxBodyBytes} bytes`,
					error_code: 413,
				},
			};
			if (!isControl) {
				this.log.add({
					receivedAt: Date.now(),
					method,
					path,
					rawQuery: url.search.slice(1),
					query: {},
					body: undefined,
					contentType,
					auth: 'none',
					status: 413,
					responseBody: reply.body,
				});
			}
			this.send(req, res, reply, true);
			return;
		}
		let body: unknown;
		let logEntry: Omit<LoggedRequest, 'seq'> | undefined;
		let reply: Reply;
		let fault: FaultRule | undefined;

		const match = this.match(method, path);
		try {
			body = parseBody(rawBody, contentType);
			const query = parseQuery(
				url.searchParams,
				match?.route.definition.queryArrays,
				match?.route.definition.queryObjects,
			);
			if (!isControl) {
				logEntry = {
					receivedAt: Date.now(),
					method,
					path,
					rawQuery: url.search.slice(1),
					query,
					body,
					contentType,
					auth: 'none',
					status: 0,
					responseBody: undefined,
				};
				fault = this.faults.take(method, path, this.clock.nowMs());
				if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault!.delayMs));
				if (fault?.drop) {
					Object.assign(logEntry, { status: 0, fault: true });
					this.log.add(logEntry);
					req.socket.destroy();
					return;
				}
			}
			if (fault?.status) {
				reply = {
					status: fault.status,
					body: fault.body ?? {},
					headers: fault.headers,
					rawBody: fault.rawBody,
				};
			} else {
				reply = await this.handle(match, method, path, query, body, req, logEntry);
			}
		} catch (error) {
			reply = errorReply(error);
		}

		if (logEntry) {
			Object.assign(logEntry, {
				status: reply.status ?? 200,
				responseBody: reply.body,
				fault: fault?.status ? true : undefined,
			});
			if (!fault?.status) delete logEntry.fault;
			this.log.add(logEntry);
		}
		this.send(req, res, reply);
	}

	/** Writes a reply; `close` ends the connection too (the rest of an oversized body is never read). */
	private send(req: IncomingMessage, res: ServerResponse, reply: Reply, close = false) {
		const payload = reply.rawBody ?? JSON.stringify(reply.body);
		res.writeHead(reply.status ?? 200, {
			'Content-Type': reply.rawBody === undefined ? 'application/json' : 'text/plain',
			'Content-Length': Buffer.byteLength(payload),
			...(close ? { Connection: 'close' } : {}),
			...reply.headers,
		});
		res.end(payload, () => {
			if (close) req.socket.destroy();
		});
	}

	private async handle(
		match: { route: CompiledRoute; params: Record<string, string> } | undefined,
		method: HttpMethod,
		path: string,
		rawQuery: Record<string, unknown>,
		rawBody: unknown,
		req: IncomingMessage,
		logEntry: Omit<LoggedRequest, 'seq'> | undefined,
	): Promise<Reply> {
		const definition = match?.route.definition;
		if (!definition?.public) {
			try {
				const auth = this.account.checkBearer(req.headers.authorization);
				if (logEntry) logEntry.auth = auth;
			} catch (error) {
				if (logEntry) logEntry.auth = 'rejected';
				throw error;
			}
			this.account.checkRateLimit();
		}
		if (!match || !definition) {
			const known = this.routes.some((route) => route.pattern.test(path));
			throw known
				? new ServiceError(405, `Method ${method} is not allowed on ${path}`, 405)
				: new ServiceError(404, `Route ${path} not found`, 404);
		}
		if (definition.area === 'email' && !this.account.settings.emailActivated) {
			throw new ServiceError(422, 'No such SMTP user, you need to create SMTP account first', 400);
		}
		const accepted = acceptVendorForms(definition, method, rawQuery, rawBody);
		if (accepted && logEntry) logEntry.accepted = accepted;
		const givenQuery = accepted?.query ?? rawQuery;
		const givenBody = accepted ? accepted.body : rawBody;
		const status = definition.validationStatus ?? 400;
		const query = definition.query
			? (validate(definition.query, givenQuery, '', { coerce: true, status }) as Record<
					string,
					unknown
				>)
			: rejectUnexpected(givenQuery, 'query', status);
		const body = definition.body
			? (validate(definition.body, givenBody ?? {}, '', { status }) as Record<string, unknown>)
			: rejectUnexpected(givenBody, 'body', status);
		const request: SandboxRequest = {
			method,
			path,
			params: match.params,
			query,
			body,
			headers: req.headers,
		};
		return await definition.handle(request);
	}

	private match(method: HttpMethod, path: string) {
		for (const route of this.routes) {
			if (route.definition.method !== method) continue;
			const found = route.pattern.exec(path);
			if (!found) continue;
			let params: Record<string, string>;
			try {
				params = Object.fromEntries(
					route.names.map((name, index) => [name, decodeURIComponent(found[index + 1])]),
				);
			} catch {
				continue;
			}
			return { route, params };
		}
		return undefined;
	}
}

function rejectUnexpected(value: unknown, where: string, status: number): Record<string, unknown> {
	if (
		value !== undefined &&
		!(typeof value === 'object' && value !== null && Object.keys(value).length === 0)
	) {
		throw new ServiceError(status, `This route takes no ${where} parameters`, status);
	}
	return {};
}

function errorReply(error: unknown): Reply {
	if (error instanceof ServiceError) return { status: error.status, body: error.toBody() };
	const message = error instanceof Error ? error.message : String(error);
	return { status: 500, body: { message: `Sandbox internal error: ${message}`, error_code: 500 } };
}

/**
 * The body as text, or undefined as soon as it is known to pass `maxBytes` (by its Content-Length, or while
 * reading): the rest is left unread (paused, not destroyed, so the 413 can still be written).
 */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
	if (Number(req.headers['content-length'] ?? 0) > maxBytes) return undefined;
	return await new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > maxBytes) {
				req.off('data', onData);
				req.pause();
				resolve(undefined);
				return;
			}
			chunks.push(chunk);
		};
		req.on('data', onData);
		req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.once('error', reject);
	});
}

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopback(address: string | undefined): boolean {
	if (!address) return false;
	const ipv4 = address.replace(/^::ffff:/i, '');
	return ipv4.startsWith('127.') || address === '::1';
}

function parseBody(raw: string, contentType: string | undefined): unknown {
	if (!raw) return undefined;
	if (contentType?.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(raw));
	}
	try {
		return JSON.parse(raw);
	} catch {
		throw new ServiceError(400, 'Request body is not valid JSON', 400);
	}
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await new Sandbox(options).listen();
}
