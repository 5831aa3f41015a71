/**
 * npm test's order: the files that take longest on real clocks start first, then jest's own order. In a fresh clone
 * jest has no timing cache and orders by file size, so the SMS three-day oracle (~7 minutes, mostly sleeping at its
 * 3 requests/s account) started after ~60 other files and CI's npm test took both in a row (891 s instead of ~450).
 */
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = ['test/trigger/sms-three-days.test.ts', 'test/trigger/idle-polls.test.ts'];

class SlowestFirst extends Sequencer {
	async sort(tests) {
		const rank = (test) => {
			const index = FIRST.findIndex((file) => test.path.endsWith(file));
			return index === -1 ? FIRST.length : index;
		};
		// Array.prototype.sort is stable: the other files keep jest's order.
		return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = SlowestFirst;
