import type { ObjectSchema } from './schema';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SandboxRequest {
	method: HttpMethod;
	path: string;
	/** Path parameters, already URL-decoded (`/sms/numbers/info/:addressBookId/:phone`). */
	params: Record<string, string>;
	/** Query after `parseQuery` and the route's schema (coerced). */
	query: Record<string, unknown>;
	/** JSON (or form-encoded) body after the route's schema. */
	body: Record<string, unknown>;
	headers: Record<string, string | string[] | undefined>;
}

export interface Reply {
	status?: number;
	body: unknown;
	headers?: Record<string, string>;
	/** Sent as it is instead of `body` as JSON (an injected fault, a page, an attachment's bytes). */
	rawBody?: string | Buffer;
}

export interface RouteDefinition {
	method: HttpMethod;
	/** Path pattern with `:name` segments. */
	path: string;
	/** `email` routes fail as the live service does while the account's email area is not activated. */
	area?: 'email' | 'sms';
	/** Control routes (under /__sandbox) and the token endpoint need no Bearer token. */
	public?: boolean;
	query?: ObjectSchema;
	/** Query parameters that carry arrays / JSON objects (see parseQuery). */
	queryArrays?: string[];
	queryObjects?: string[];
	body?: ObjectSchema;
	/** The vendor client's forms this route takes besides the reference's (see `acceptVendorForms`). */
	vendorForms?: {
		/** Body members that may arrive as JSON text: `"phones":"[\"380986235698\"]"`. */
		jsonText?: string[];
		/** Body members that may arrive PHP-serialized: `"email":"a:5:{…}"`. */
		phpSerialized?: string[];
		/** Parameters of a GET with a JSON body: the value the client sends when its caller left one out. */
		notGiven?: Record<string, unknown>;
	};
	/** HTTP status for schema failures on this route (default 400). */
	validationStatus?: number;
	handle(request: SandboxRequest): Reply | Promise<Reply>;
}
