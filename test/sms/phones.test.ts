import { normalizePhone, parsePhones, phoneToString } from '../../nodes/shared/values/phones';

describe('phone normalisation', () => {
	test.each([
		['+380 (98) 623-56-98', '380986235698'],
		['380986235698', '380986235698'],
		[' +1 202.555.0143 ', '12025550143'],
		['44 20 7946 0958', '442079460958'],
		[79217451232, '79217451232'],
		// Spaces that group one number, in the groupings countries use: one phone.
		['+380 98 623 56 98', '380986235698'],
		['+1 555 123 4567', '15551234567'],
		['+86 138 0013 8000', '8613800138000'],
		['+49 1511 2345678', '4915112345678'],
		['+7 495 123 45 67', '74951234567'],
		['+81 90 1234 5678', '819012345678'],
		['+44\u00a07911\u00a0123456', '447911123456'],
	])('%p → %p', (input, expected) => expect(normalizePhone(input)).toBe(expected));

	test.each([
		['abc'],
		['+380 98 623 56 9x'],
		['12345'],
		['1234567890123456'],
		[''],
		[null],
		[1.5],
		[-380986235698],
		['++380986235698'],
		// Spaces that separate two values: joined, they would be another number.
		['+380986235698 12'],
		['5551234 5559876'],
		['555 1234 555 9876'],
		['+380 986235698 12'],
		['+380986235698 +380986235699'],
	])('%p is not a phone', (input) => expect(normalizePhone(input)).toBeUndefined());

	test('lists, separated strings and single values; duplicates kept once; invalid ones reported', () => {
		expect(
			parsePhones('+380 98 623 56 98, 380631234567\n380631234567;\n\n 44 20 7946 0958'),
		).toEqual({
			phones: ['380986235698', '380631234567', '442079460958'],
			invalid: [],
		});
		expect(parsePhones(['380986235698', 79217451232, 'not a phone', ''])).toEqual({
			phones: ['380986235698', '79217451232'],
			invalid: ['not a phone'],
		});
		expect(parsePhones(380986235698)).toEqual({ phones: ['380986235698'], invalid: [] });
		expect(parsePhones('')).toEqual({ phones: [], invalid: [] });
		expect(parsePhones(undefined)).toEqual({ phones: [], invalid: [] });
	});

	test('phones from the service as strings, also beyond 2^31', () => {
		expect(phoneToString(380986235698)).toBe('380986235698');
		expect(phoneToString('79217451232')).toBe('79217451232');
	});
});
