import { describeValue } from '../../shared/values/objects';
import { headerProblem } from './headers';

export interface Address {
	name?: string;
	email: string;
}

/** Deliberately plain: one @, no spaces or list separators, a dot in the domain. */
const EMAIL_PATTERN = /^[^\s@<>,;"()[\]]+@[^\s@<>,;"()[\]]+\.[A-Za-z0-9-]{2,}$/;

export function isEmailAddress(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}

/** Raised inside this module for input that is not an address list; callers get it back as a problem text. */
class AddressProblem {
	constructor(readonly message: string) {}
}

export type ParsedAddresses = { ok: true; addresses: Address[] } | { ok: false; problem: string };

/** Splits on commas, semicolons and line breaks that are outside quotes and angle brackets. */
function splitList(text: string): string[] {
	const parts: string[] = [];
	let current = '';
	let quoted = false;
	let angled = false;
	for (const char of text) {
		if (char === '"') quoted = !quoted;
		else if (char === '<' && !quoted) angled = true;
		else if (char === '>' && !quoted) angled = false;
		if ((char === ',' || char === ';' || char === '\n') && !quoted && !angled) {
			parts.push(current);
			current = '';
		} else {
			current += char;
		}
	}
	parts.push(current);
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

function parseOne(text: string): Address {
	// [\s\S]: a name holding a line break is read as a name, and refused as one (withName), not as an address.
	const angled = /^([\s\S]*?)<\s*([^<>]*?)\s*>$/.exec(text);
	if (angled) {
		const name = angled[1]
			.trim()
			.replace(/^"([\s\S]*)"$/, '$1')
			.trim();
		const email = angled[2];
		if (name.includes('"'))
			throw new AddressProblem(`"${text}": a quoted name must be quoted whole ("Name" <address>)`);
		if (!isEmailAddress(email)) throw new AddressProblem(`"${text}" is not a valid email address`);
		return withName(name, email);
	}
	if (!isEmailAddress(text)) throw new AddressProblem(`"${text}" is not a valid email address`);
	return { email: text };
}

/** A recipient's name is a mail header's text: one line. */
function withName(name: string, email: string): Address {
	if (!name) return { email };
	const problem = headerProblem(name);
	if (problem) throw new AddressProblem(`the name of ${email} ${problem}`);
	return { name, email };
}

function fromObject(value: Record<string, unknown>): Address {
	const email = typeof value.email === 'string' ? value.email.trim() : '';
	if (!email) throw new AddressProblem(`${JSON.stringify(value)} has no "email"`);
	if (!isEmailAddress(email)) throw new AddressProblem(`"${email}" is not a valid email address`);
	// The strict text rule of text parameters: numbers and booleans are their text, nothing is no name, anything
	// else (an object, a list) is refused rather than sent as "[object Object]".
	const name = value.name;
	if (name === undefined || name === null) return { email };
	if (typeof name !== 'string' && typeof name !== 'number' && typeof name !== 'boolean')
		throw new AddressProblem(
			`the name of ${email} must be text, but the value is ${describeValue(name)}`,
		);
	return withName(String(name).trim(), email);
}

/** The accepted forms of a recipient list, for the hint of an address that could not be read. */
export const ADDRESS_FORM_HINT =
	'Write each address as ann@example.com or Ann <ann@example.com>, separated by commas (a list of such texts, or of {"name", "email"} objects, works too).';

/**
 * Reads a recipient list as users, expressions and AI agents give it: `Ann <ann@x.io>, bob@y.io`, an array of
 * such strings or of `{name, email}` objects, one object, or the same as a JSON string.
 */
export function parseAddresses(value: unknown): ParsedAddresses {
	try {
		return { ok: true, addresses: parse(value) };
	} catch (problem) {
		if (problem instanceof AddressProblem) return { ok: false, problem: problem.message };
		return { ok: false, problem: String(problem) };
	}
}

function parse(value: unknown): Address[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flatMap((entry) => parse(entry));
	if (typeof value === 'object') return [fromObject(value as Record<string, unknown>)];
	if (typeof value !== 'string')
		throw new AddressProblem(`${JSON.stringify(value)} is not an email address`);
	const text = value.trim();
	if (!text) return [];
	if (text.startsWith('[') || text.startsWith('{')) {
		const parsed = parseJson(text);
		if (parsed === undefined) throw new AddressProblem('looks like JSON but could not be parsed');
		return parse(parsed);
	}
	// An unclosed quote would swallow the separators after it: `"Doe, John <john@example.com>` is not a name.
	if ((text.match(/"/g) ?? []).length % 2 !== 0)
		throw new AddressProblem(`"${text}" has an opening quote (") without a closing one`);
	return splitList(text).map(parseOne);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}
