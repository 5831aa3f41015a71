import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bouncePage,
	callsSince,
	harness,
	parameters,
	setNow,
	unsubscribePage,
	unsubscribeProbe,
	useTriggerSandbox,
} from './helpers';
import { logger, type PersistenceMode, type PollHarness } from '../harness/poll-harness';
import { omit } from '../../sandbox/core/records';

/**
 * A stored state the trigger cannot trust must never turn into duplicates: the trigger starts again from now
 * (a fresh baseline of what the service lists), logs a warning and puts it on the next emitted item.
 */
type State = IDataObject & { bounce: IDataObject; unsubscribe: IDataObject };

const damages: Array<[string, (state: State) => unknown, string]> = [
	[
		'a digest list replaced by a string',
		(state) => ({ ...state, bounce: { ...state.bounce, seen: 'not digests' } }),
		'bounce state: digests is text, not a map of digests',
	],
	[
		'one digest cut short',
		(state) => {
			const seen = { ...(state.bounce.seen as Record<string, string>) };
			const hour = Object.keys(seen)[0];
			seen[hour] = seen[hour].slice(0, -3);
			return { ...state, bounce: { ...state.bounce, seen } };
		},
		'bounce state: digests holds a cut or altered digest list for 2026-04-05 09',
	],
	[
		'a digest list holding a number',
		(state) => ({ ...state, bounce: { ...state.bounce, seen: { '2026-04-05 09': 42 } } }),
		'bounce state: digests holds a number for 2026-04-05 09',
	],
	['the bounce part missing', (state) => omit(state, 'bounce'), 'bounce state: missing'],
	[
		'unsubscribe digests replaced by a list',
		(state) => ({ ...state, unsubscribe: { ...state.unsubscribe, seen: ['x'] } }),
		'unsubscribe state: digests is a list, not a map of digests',
	],
	[
		"the unsubscribe part's first day missing",
		(state) => ({ ...state, unsubscribe: { seen: state.unsubscribe.seen } }),
		'unsubscribe state: first day is not a day',
	],
	[
		'a wrong version',
		(state) => ({ ...state, version: 2 }),
		'the state has version 2 (this trigger keeps version 1)',
	],
	[
		'the watched events missing',
		(state) => omit(state, 'events'),
		'the watched events are missing from the state',
	],
	[
		'the last poll time missing',
		(state) => omit(state, 'lastPollAt'),
		'the last poll time is missing from the state',
	],
	['the state replaced by a string', () => 'broken', 'the state is text'],
	['the state replaced by a list', () => [1, 2], 'the state is a list'],
	[
		'waiting warnings that are not texts',
		(state) => ({ ...state, warnings: [{}] }),
		'the waiting warnings are not a list of texts',
	],
];

let sandbox: Sandbox;
useTriggerSandbox('2026-04-05T10:00:00Z', (started) => (sandbox = started));

const emails = (items: Array<{ json: IDataObject }>) =>
	items.map((item) => `${String(item.json.event)} ${String(item.json.email)}`);

/** 20 bounces and 2 unsubscribes emitted, then the stored state is damaged the way `damage` says. */
async function emittedThenDamaged(trigger: PollHarness, damage: (state: State) => unknown) {
	await trigger.activate();
	await addBounces(
		sandbox,
		Array.from({ length: 20 }, (_, index) => ({
			email_to: `b${index}@bounce.test`,
			send_date: `2026-04-05 09:${String(30 + index).padStart(2, '0')}:00`,
		})),
	);
	await addUnsubscribes(sandbox, [
		{ email: 'u1@example.com', date: '2026-04-05 09:40:00' },
		{ email: 'u2@example.com', date: '2026-04-05 09:41:00' },
	]);
	setNow('2026-04-05T10:01:00Z');
	expect((await trigger.poll()).items).toHaveLength(22);
	trigger.persisted = {
		messagingTrigger: damage(trigger.stored().messagingTrigger as State),
	} as IDataObject;
}

describe.each<PersistenceMode>(['legacy', 'staged'])('damaged state (%s)', (persistence) => {
	test.each(damages)(
		'%s: no event again, a fresh baseline, a warning on the next item',
		async (_name, damage, reason) => {
			const trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']), persistence);
			await emittedThenDamaged(trigger, damage);
			// n8n restarts and reloads the damaged state (legacy); durable cursors read it at every poll.
			if (persistence === 'legacy') trigger.crash();
			setNow('2026-04-05T10:02:00Z');
			const since = sandbox.log.lastSeq();
			const outcome =
				persistence === 'legacy' ? await trigger.activate('init') : await trigger.poll();
			expect(outcome.error).toBeUndefined();
			expect(outcome.items).toEqual([]);
			const stream = reason.startsWith('bounce')
				? 'bounce'
				: reason.startsWith('unsubscribe')
					? 'unsubscribe'
					: undefined;
			// The damaged part takes a fresh baseline (its whole list); an intact part goes on with its cheap check.
			expect(callsSince(sandbox, since)).toEqual([
				...(stream === 'unsubscribe' ? bounceCheck : [bouncePage(0)]),
				stream === 'bounce' ? unsubscribeProbe('2026-04-05', 2) : unsubscribePage('2026-04-05'),
			]);
			const warning =
				stream === undefined
					? `The trigger's saved state could not be used (${reason}), so it started again from now: events that ` +
						'arrived since the last successful poll are not emitted (none is emitted twice)'
					: `The trigger's saved ${stream} state could not be used (${reason}), so ${stream}s started again from ` +
						`now: ${stream}s that arrived since the last successful poll are not emitted (none is emitted twice)`;
			expect(logger.of('warn')).toEqual([`Messaging Trigger: ${warning}`]);
			// Nothing emitted: the warning waits in the state (saved with the cursor / the static data).
			if (persistence === 'legacy') trigger.deactivate();
			expect((trigger.stored().messagingTrigger as IDataObject).warnings).toEqual([warning]);

			// A new event: emitted once, carrying the warning; the 22 old ones never come again.
			await addBounces(sandbox, [
				{ email_to: 'new@bounce.test', send_date: '2026-04-05 10:02:30' },
			]);
			setNow('2026-04-05T10:03:00Z');
			const next = await trigger.poll();
			expect(emails(next.items)).toEqual(['bounce new@bounce.test']);
			expect(next.items[0].json.metadata).toEqual({ warnings: [warning] });
			expect((await trigger.poll()).items).toEqual([]);
			expect((trigger.stored().messagingTrigger as IDataObject).warnings).toBeUndefined();
		},
	);
});

test('a broken seconds map is only an optimisation lost: the next poll reads the whole list, no warning, no repeat', async () => {
	const trigger = harness(sandbox, parameters(['bounce']), 'staged');
	await trigger.activate();
	await addBounces(sandbox, [{ email_to: 'a@bounce.test', send_date: '2026-04-05 10:00:30' }]);
	setNow('2026-04-05T10:01:00Z');
	expect((await trigger.poll()).items).toHaveLength(1);
	const state = trigger.stored().messagingTrigger as State;
	trigger.persisted = { messagingTrigger: { ...state, bounce: { ...state.bounce, seconds: 'x' } } };
	const since = sandbox.log.lastSeq();
	expect((await trigger.poll()).items).toEqual([]);
	// The count matches but the window's first bounce cannot be placed without seconds: the list is read.
	expect(callsSince(sandbox, since)).toEqual([...bounceCheck, bouncePage(0)]);
	expect(logger.of('warn')).toEqual([]);
	expect((trigger.stored().messagingTrigger as State).bounce.seconds).toEqual({
		'2026-04-05 10': 'Ae',
	});
});
