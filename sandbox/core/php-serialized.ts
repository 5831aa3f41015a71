/**
 * Reads text in PHP's `serialize()` format, the form the vendor's own Node.js client gives `email` and `emails`
 * (sandbox/README.md, "What the vendor's own client sends"): `N;`, `b:1;`, `i:12;`, `d:1.5;`,
 * `s:<UTF-8 byte length>:"…";` and `a:<count>:{<key><value>…}`. A string's length counts UTF-8 bytes and its
 * text is not escaped, so strings are cut by length, never by their quotes. An array whose keys are 0, 1, 2…
 * in order is a list; any other array is an object. Returns undefined for anything else (a trailing rest too).
 */
export function parsePhpSerialized(text: string): unknown {
	const bytes = Buffer.from(text, 'utf8');
	let at = 0;
	const malformed = new Error('not PHP-serialized');

	const take = (char: string) => {
		if (bytes[at] !== char.charCodeAt(0)) throw malformed;
		at++;
	};
	const readUntil = (char: string) => {
		const end = bytes.indexOf(char, at);
		if (end < 0) throw malformed;
		const read = bytes.toString('utf8', at, end);
		at = end + 1;
		return read;
	};
	const count = (digits: string) => {
		if (!/^\d+$/.test(digits)) throw malformed;
		return Number(digits);
	};

	const value = (): unknown => {
		const type = String.fromCharCode(bytes[at++]);
		if (type === 'N') {
			take(';');
			return null;
		}
		take(':');
		switch (type) {
			case 'b': {
				const flag = readUntil(';');
				if (flag !== '0' && flag !== '1') throw malformed;
				return flag === '1';
			}
			case 'i':
			case 'd': {
				const digits = readUntil(';');
				const number = Number(digits);
				if (!/^[-+\d.eE]+$/.test(digits) || !Number.isFinite(number)) throw malformed;
				if (type === 'i' && !Number.isInteger(number)) throw malformed;
				return number;
			}
			case 's': {
				const length = count(readUntil(':'));
				take('"');
				if (at + length > bytes.length) throw malformed;
				const string = bytes.toString('utf8', at, at + length);
				at += length;
				take('"');
				take(';');
				return string;
			}
			case 'a': {
				const size = count(readUntil(':'));
				take('{');
				const entries: Array<[string | number, unknown]> = [];
				for (let index = 0; index < size; index++) {
					const key = value();
					if (typeof key !== 'string' && typeof key !== 'number') throw malformed;
					entries.push([key, value()]);
				}
				take('}');
				return entries.every(([key], index) => key === index)
					? entries.map(([, item]) => item)
					: Object.fromEntries(entries.map(([key, item]) => [String(key), item]));
			}
			default:
				throw malformed;
		}
	};

	try {
		const result = value();
		return at === bytes.length ? result : undefined;
	} catch {
		return undefined;
	}
}
