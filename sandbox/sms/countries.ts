/**
 * Country of a phone from its leading digits (longest prefix wins), for prices and campaign detail.
 * A small table: enough for tests and demos, not a numbering plan.
 */
const PREFIXES: Array<[string, string]> = [
	['380', 'UA'],
	['375', 'BY'],
	['373', 'MD'],
	['370', 'LT'],
	['371', 'LV'],
	['372', 'EE'],
	['374', 'AM'],
	['995', 'GE'],
	['998', 'UZ'],
	['77', 'KZ'],
	['76', 'KZ'],
	['7', 'RU'],
	['1', 'US'],
	['44', 'GB'],
	['49', 'DE'],
	['48', 'PL'],
	['33', 'FR'],
	['39', 'IT'],
	['34', 'ES'],
	['31', 'NL'],
	['90', 'TR'],
	['91', 'IN'],
	['972', 'IL'],
];

const SORTED = [...PREFIXES].sort((a, b) => b[0].length - a[0].length);

export function countryOf(phone: string): string {
	return SORTED.find(([prefix]) => phone.startsWith(prefix))?.[1] ?? '';
}

/** Price of one SMS part per country (USD); `default` for countries not listed. */
export const DEFAULT_PRICES: Record<string, number> = {
	UA: 0.03,
	RU: 0.05,
	KZ: 0.04,
	BY: 0.06,
	US: 0.01,
	GB: 0.04,
	DE: 0.07,
	PL: 0.03,
	default: 0.1,
};

const GSM =
	/^[A-Za-z0-9 \r\n@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&'()*+,\-./:;<=>?¡ÄÖÑÜ§¿äöñüà^{}\\[~\]|€]*$/;

/** SMS parts a body takes: 160/153 characters in GSM-7, 70/67 otherwise. */
export function segmentsOf(body: string): number {
	const length = [...body].length;
	const [single, multi] = GSM.test(body) ? [160, 153] : [70, 67];
	return length <= single ? 1 : Math.ceil(length / multi);
}

export function roundMoney(value: number): number {
	return Math.round(value * 10_000) / 10_000;
}
