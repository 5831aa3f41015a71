import type { RequestPacer } from '../../transport/pacer';
import type { SmsState } from './state';

/**
 * The pace of the SMS polls, carried from one poll to the next. Each poll has a pacer of its own, which starts at
 * the node's Max Requests per Second: on an account allowed fewer (3/s), every poll would learn that again through
 * rate-limit answers. So once a poll met one, the next polls go no faster than the pace the service let this one
 * reach (its accepted requests per second, rounded: a poll held at 3/s reaches a little less; at least one slower
 * than the pace that met the answer), and
 * they try one request per second more only after `CALM_POLLS` busy polls in a row (more requests than the pace:
 * the limit was reached) met none.
 */
const CALM_POLLS = 10;

export type Pace = SmsState['pace'];

/**
 * The pace to keep after a poll whose requests went through `pacer` (paced at min(node setting, learned pace)) in
 * `elapsedMs`.
 */
export function nextPace(pace: Pace, pacer: RequestPacer, elapsedMs: number): Pace {
	if (!pacer.paces) return undefined;
	const used = pacer.requestsPerSecond;
	if (pacer.rateLimitedAnswers > 0) {
		const reached = Math.round((pacer.acceptedAnswers * 1000) / Math.max(1000, elapsedMs));
		// At least one slower: a short poll reaches more than the limit (its first second's burst), and a pace that
		// met a rate-limit answer is not tried again before CALM_POLLS busy polls.
		return { perSecond: Math.max(1, Math.min(used - 1, reached)), calm: 0 };
	}
	// The node's setting is below the learned pace (it was lowered, or the pace grew past it): it rules alone.
	if (!pace || pace.perSecond > used) return undefined;
	// A poll too small to reach the limit tells nothing.
	if (pacer.acceptedAnswers <= used) return pace;
	if (pace.calm + 1 < CALM_POLLS) return { perSecond: pace.perSecond, calm: pace.calm + 1 };
	return { perSecond: pace.perSecond + 1, calm: 0 };
}
