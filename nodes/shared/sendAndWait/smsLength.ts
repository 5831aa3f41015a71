// GSM 03.38: the basic set (1 unit each) and the extension set (2 units: escape + character).
const GSM_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

export interface SmsLength {
	encoding: 'GSM-7' | 'UCS-2';
	/** Units: GSM-7 septets (extension characters count 2) or UCS-2 code units. */
	length: number;
	parts: number;
	/** Units one part holds at this length (160/153 for GSM-7, 70/67 for UCS-2). */
	perPart: number;
}

/** How long an SMS is and how many parts it is sent in: GSM-7 160 (153 per part when split), else UCS-2 70/67. */
export function smsLength(text: string): SmsLength {
	let septets = 0;
	for (const character of text) {
		if (GSM_BASIC.includes(character)) septets += 1;
		else if (GSM_EXTENDED.includes(character)) septets += 2;
		else {
			const units = text.length;
			const parts = units <= 70 ? 1 : Math.ceil(units / 67);
			return { encoding: 'UCS-2', length: units, parts, perPart: parts === 1 ? 70 : 67 };
		}
	}
	const parts = septets <= 160 ? 1 : Math.ceil(septets / 153);
	return { encoding: 'GSM-7', length: septets, parts, perPart: parts === 1 ? 160 : 153 };
}

/** The SMS: the message, a line break, the one link. */
export function smsText(message: string, link: string): string {
	return `${message.replace(/\\n/g, '\n').trim()}\n${link}`;
}
