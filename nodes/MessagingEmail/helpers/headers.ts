/**
 * Fields that become mail headers (Subject, From Name, recipient names, attachment file names) must stay on one
 * line: a CR or LF would let the value start a header of its own (`Hello\r\nBcc: someone@…`), a NUL cuts it.
 */
const HEADER_BREAK = /[\r\n\0]/;

/** Why `text` cannot be a header value, or undefined when it can. */
export function headerProblem(text: string): string | undefined {
	return HEADER_BREAK.test(text)
		? 'must be one line, but it holds a line break (CR or LF) or a NUL character, which would start another mail header'
		: undefined;
}
