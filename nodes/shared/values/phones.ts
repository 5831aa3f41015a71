/** Phone input as users give it, normalised to the digits the service expects (`+380 (98) 623-56-98` → `380986235698`). */

export interface PhoneParseResult {
	phones: string[];
	invalid: string[];
}

const SEPARATORS = /[\n\r,;]+/;
/** What people write inside a phone number: spaces, dashes, dots, brackets, a leading plus. */
const DECORATION = /[\s\-.()/]/g;

/** Already the service's form: 7 to 15 digits and nothing else. */
const PLAIN_PHONE = /^\d{7,15}$/;

/**
 * Digits, one dot, digits, nothing else: a number written out (`380986235698.5`, or `380986235698.0` from a
 * spreadsheet or CSV column read as floats), not a phone with a dot between digit groups (`+380.98.623.56.98`).
 * Dropping the dot would give another, longer number, and the message would go to it. `.0` is refused as well,
 * not read as the integer: a column read as floats has already lost what it held as text (a leading 0 or +, a
 * 16th digit), so the integer is not shown to be the number meant; the user formats the column as text.
 */
const DECIMAL_NUMBER = /^\d+\.\d+$/;

/** Whether an entry was refused because it is a number with a decimal part (see DECIMAL_NUMBER). */
export function isDecimalNumber(value: unknown): boolean {
	if (typeof value === 'number') return Number.isFinite(value) && !Number.isInteger(value);
	return typeof value === 'string' && DECIMAL_NUMBER.test(value.trim());
}

/** The fewest digits of a phone: a run of this many is a complete number on its own. */
const MIN_PHONE_DIGITS = 7;

/**
 * Whether the spaces of one entry separate two values instead of grouping one number's digits. Spaces are read as
 * grouping (`+380 98 623 56 98`, `+1 555 123 4567`) unless
 * - a group before the last is a complete number on its own (7 digits or more): `+380986235698 12` is a phone and
 *   something typed after it, not the phone 38098623569812;
 * - the groups split at a space into two runs of 7 digits or more: `5551234 5559876`, `555 1234 555 9876` are two
 *   numbers (no country's grouping puts 7 digits on both sides of a space).
 * Joining either would send the message to a number nobody gave. Such an entry is refused, never split, since which
 * reading was meant is not known.
 */
export function isTwoValuesInOne(value: unknown): boolean {
	if (typeof value !== 'string') return false;
	const groups = value
		.trim()
		.split(/\s+/)
		.map((group) => group.replace(DECORATION, '').replace(/^\+/, ''));
	if (groups.length < 2) return false;
	const total = groups.reduce((sum, group) => sum + group.length, 0);
	let before = 0;
	for (const group of groups.slice(0, -1)) {
		if (group.length >= MIN_PHONE_DIGITS) return true;
		before += group.length;
		if (before >= MIN_PHONE_DIGITS && total - before >= MIN_PHONE_DIGITS) return true;
	}
	return false;
}

/** A phone given exactly as the service expects it (the usual case): used as it is, without a copy. */
export function isPlainPhone(value: unknown): value is string {
	return typeof value === 'string' && PLAIN_PHONE.test(value);
}

/** One phone to digits, or undefined when it is not a phone (letters, too short or too long for E.164). */
export function normalizePhone(value: unknown): string | undefined {
	if (isPlainPhone(value)) return value;
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value > 0 ? normalizePhone(String(value)) : undefined;
	if (typeof value !== 'string' || isDecimalNumber(value) || isTwoValuesInOne(value))
		return undefined;
	let text = value.trim().replace(DECORATION, '');
	if (text.startsWith('+')) text = text.slice(1);
	return PLAIN_PHONE.test(text) ? text : undefined;
}

/**
 * Accepts a list (array), a comma / semicolon / newline-separated string, or a single value. Empty entries are
 * ignored; duplicates are kept once, in first-seen order.
 */
export function parsePhones(input: unknown): PhoneParseResult {
	// One phone per item (`{{ $json.phone }}`) is the common case of bulk loads: no split, no set.
	if (isPlainPhone(input)) return { phones: [input], invalid: [] };
	if (typeof input === 'string' && !SEPARATORS.test(input)) {
		const text = input.trim();
		if (!text) return { phones: [], invalid: [] };
		const phone = normalizePhone(text);
		return phone === undefined ? { phones: [], invalid: [text] } : { phones: [phone], invalid: [] };
	}
	const raw: unknown[] = Array.isArray(input)
		? input.flatMap((entry) => (typeof entry === 'string' ? entry.split(SEPARATORS) : [entry]))
		: typeof input === 'string'
			? input.split(SEPARATORS)
			: input === undefined || input === null
				? []
				: [input];
	const phones: string[] = [];
	const invalid: string[] = [];
	const seen = new Set<string>();
	for (const entry of raw) {
		if (entry === undefined || entry === null || (typeof entry === 'string' && !entry.trim()))
			continue;
		const phone = normalizePhone(entry);
		if (phone === undefined) {
			invalid.push(typeof entry === 'string' ? entry.trim() : JSON.stringify(entry));
		} else if (!seen.has(phone)) {
			seen.add(phone);
			phones.push(phone);
		}
	}
	return { phones, invalid };
}

/** A phone from the service (digit string or JSON number) as a string. */
export function phoneToString(value: unknown): string {
	if (typeof value === 'number')
		return Number.isSafeInteger(value)
			? String(value)
			: value.toLocaleString('fullwide', { useGrouping: false });
	return String(value ?? '');
}
