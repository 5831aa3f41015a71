import { copyJson } from '../../nodes/shared/values/objects';

/**
 * The triggers copy their state in and out of n8n's static data on every poll with `copyJson` instead of a round
 * trip through JSON text (nodes/shared/values/objects.ts). The copy must be what the round trip gives, and a copy.
 */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

describe('copyJson: what JSON.parse(JSON.stringify(value)) gives', () => {
	const state = {
		version: 3,
		events: 'bounce,unsubscribe',
		lastPollAt: 1_795_800_000_000,
		warnings: ['one', 'two'],
		bounce: {
			seen: { '2026-11-27T10': 'AbCdEfGhIjKl'.repeat(1_000) } as Record<string, string>,
			seconds: undefined,
		},
		unsubscribe: { listed: { '2026-11-27': '2500:XyZ' }, fullReadAt: null },
		nested: [[1, 2.5, -0], { deep: { deeper: [true, false] } }],
	};

	it.each([
		['a trigger state', state],
		['texts, numbers, booleans and null', ['text', 0, 42, -7.25, true, false, null]],
		[
			'what JSON drops in objects (undefined, functions)',
			{ kept: 1, gone: undefined, fn: () => 1 },
		],
		['what JSON turns into null in lists', [undefined, () => 1, Number.NaN, Infinity, -Infinity]],
		['a date (its toJSON)', { at: new Date(Date.UTC(2026, 10, 27, 9, 30)) }],
		['an empty object and list', { empty: {}, none: [] }],
	])('%s', (_name, value) => {
		expect(copyJson(value)).toEqual(roundTrip(value));
		// Keys JSON drops are absent, not present as undefined (toEqual would not tell them apart).
		expect(JSON.stringify(copyJson(value))).toBe(JSON.stringify(value));
	});

	it('is a copy: changing it leaves the original as it was', () => {
		const original = roundTrip(state) as typeof state;
		const copy = copyJson(original) as typeof state;
		copy.warnings.push('three');
		copy.bounce.seen['2026-11-27T11'] = 'new';
		(copy.nested[1] as { deep: { deeper: boolean[] } }).deep.deeper[0] = false;
		expect(original).toEqual(roundTrip(state));
		expect(copy).not.toEqual(original);
	});
});
