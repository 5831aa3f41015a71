export interface Address {
	name?: string;
	email: string;
}

/** Deliberately plain: one @, no spaces or list separators, a dot in the domain. */
const EMAIL_PATTERN = /^[^\s@<>,;"()[\]]+@[^\s@<>,;"()[\]]+\.[A-Za-z0-9-]{2,}$/;

export function isEmailAddress(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}

/** Thrown for input that is not an address list; the caller names the parameter and item. */
export class AddressError extends Error {}

/** Splits on commas and semicolons that are outside quotes and angle brackets. */
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
	const angled = /^(.*?)<\s*([^<>]*?)\s*>$/.exec(text);
	if (angled) {
		const name = angled[1].trim().replace(/^"(.*)"$/, '$1').trim();
		const email = angled[2];
		if (!isEmailAddress(email)) throw new AddressError(`"${text}" is not a valid email address`);
		return name ? { name, email } : { email };
	}
	if (!isEmailAddress(text)) throw new AddressError(`"${text}" is not a valid email address`);
	return { email: text };
}

function fromObject(value: Record<string, unknown>): Address {
	const email = typeof value.email === 'string' ? value.email.trim() : '';
	if (!email) throw new AddressError(`${JSON.stringify(value)} has no "email"`);
	if (!isEmailAddress(email)) throw new AddressError(`"${email}" is not a valid email address`);
	const name = value.name === undefined || value.name === null ? '' : String(value.name).trim();
	return name ? { name, email } : { email };
}

/**
 * Reads a recipient list as users, expressions and AI agents give it: `Ann <ann@x.io>, bob@y.io`, an array of
 * such strings or of `{name, email}` objects, one object, or the same as a JSON string. Throws AddressError.
 */
export function parseAddresses(value: unknown): Address[] {
	if (value === undefined || value === null) return [];
	if (Array.isArray(value)) return value.flatMap((entry) => parseAddresses(entry));
	if (typeof value === 'object') return [fromObject(value as Record<string, unknown>)];
	if (typeof value !== 'string') throw new AddressError(`${JSON.stringify(value)} is not an email address`);
	const text = value.trim();
	if (!text) return [];
	if (text.startsWith('[') || text.startsWith('{')) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			throw new AddressError('looks like JSON but could not be parsed');
		}
		return parseAddresses(parsed);
	}
	return splitList(text).map(parseOne);
}

/** Plain addresses only (unsubscribe lists): a string list, an array, or objects with "email". */
export function parseEmailList(value: unknown): string[] {
	return parseAddresses(value).map((address) => address.email);
}
