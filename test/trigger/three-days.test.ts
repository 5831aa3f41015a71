import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import {
	addBounces,
	addUnsubscribes,
	bounceCheck,
	bounceItem,
	bouncePage,
	callsSince,
	harness,
	identity,
	newSandbox,
	parameters,
	restoreClock,
	setNow,
	unsubscribeItem,
	unsubscribePage,
	unsubscribeProbe,
	useSharedClock,
} from './helpers';
import type { PersistenceMode, PollHarness, PollOutcome } from '../harness/poll-harness';

describe.each<PersistenceMode>(['legacy', 'staged'])(
	'three simulated days, static data persisted as n8n does (%s)',
	(persistence) => {
		let sandbox: Sandbox;
		let trigger: PollHarness;
		const emitted: IDataObject[] = [];

		const outputOf = (outcome: PollOutcome) => {
			expect(outcome.error).toBeUndefined();
			const items = outcome.items.map((item) => item.json);
			emitted.push(...items);
			return items;
		};

		beforeAll(async () => {
			useSharedClock('2026-03-01T21:00:00Z');
			sandbox = await newSandbox();
			trigger = harness(sandbox, parameters(['bounce', 'unsubscribe']), persistence);
		});
		afterAll(async () => {
			await sandbox.close();
			restoreClock();
		});

		test('day 1: activation starts from now — what already exists is never emitted', async () => {
			await addBounces(sandbox, [
				{ email_to: 'old@bounce.test', send_date: '2026-03-01 20:00:00' },
			]);
			await addUnsubscribes(sandbox, [{ email: 'old@example.com', date: '2026-03-01 20:30:00' }]);
			const since = sandbox.log.lastSeq();
			expect(outputOf(await trigger.activate())).toEqual([]);
			expect(callsSince(sandbox, since)).toEqual([bouncePage(0), unsubscribePage('2026-03-01')]);
			// The first scheduled poll (a durable cursor commits here: n8n does not commit an activation poll that emits nothing).
			expect(outputOf(await trigger.poll())).toEqual([]);
			expect(trigger.stored().messagingTrigger).toMatchObject({
				events: 'bounce,unsubscribe',
				bounce: {
					newest: '2026-03-01 20:00:00',
					seen: { '2026-03-01 20': expect.stringMatching(/^[\w-]{8}$/) },
				},
				unsubscribe: {
					from: '2026-03-01',
					seen: { '2026-03-01': expect.stringMatching(/^[\w-]{8}$/) },
				},
			});
		});

		test('midnight: 23:59:59 and 00:00:00 of both kinds, and two bounces identical but for time, each exactly once', async () => {
			setNow('2026-03-02T00:00:30Z');
			const twin = {
				email_to: 'twin@bounce.test',
				subject: 'Same',
				smtp_answer_code: 450,
				smtp_answer_subcode: '4.2.2',
				smtp_answer_data: 'Mailbox full',
			};
			await addBounces(sandbox, [
				{ email_to: 'a@bounce.test', send_date: '2026-03-01 23:59:59', subject: 'Day 1 last' },
				{ email_to: 'b@bounce.test', send_date: '2026-03-02 00:00:00', subject: 'Day 2 first' },
				{ ...twin, send_date: '2026-03-02 00:00:20' },
				{ ...twin, send_date: '2026-03-02 00:00:10' },
			]);
			await addUnsubscribes(sandbox, [
				{ email: 'u1@example.com', date: '2026-03-01 23:59:59', unsubscribe_by_link: 1 },
				{ email: 'u2@example.com', date: '2026-03-02 00:00:00', spam_complaint: 1 },
			]);
			const since = sandbox.log.lastSeq();
			const soft = {
				subject: 'Same',
				smtpCode: 450,
				smtpSubcode: '4.2.2',
				smtpMessage: 'Mailbox full',
				bounceType: 'soft',
			};
			expect(outputOf(await trigger.poll())).toEqual([
				bounceItem('a@bounce.test', '2026-03-01 23:59:59', { subject: 'Day 1 last' }),
				unsubscribeItem('u1@example.com', '2026-03-01 23:59:59', { byLink: true }),
				bounceItem('b@bounce.test', '2026-03-02 00:00:00', { subject: 'Day 2 first' }),
				unsubscribeItem('u2@example.com', '2026-03-02 00:00:00', { spamComplaint: true }),
				bounceItem('twin@bounce.test', '2026-03-02 00:00:10', soft),
				bounceItem('twin@bounce.test', '2026-03-02 00:00:20', soft),
			]);
			// Counted first (4 more than held); yesterday's unsubscribes probed, then read, today's read.
			expect(callsSince(sandbox, since)).toEqual([
				...bounceCheck,
				bouncePage(0),
				unsubscribeProbe('2026-03-01', 1),
				unsubscribePage('2026-03-01'),
				unsubscribePage('2026-03-02'),
			]);
			expect(outputOf(await trigger.poll())).toEqual([]);
		});

		test('restart: static data reloaded from what n8n saved; nothing repeats', async () => {
			trigger.crash();
			expect(outputOf(await trigger.activate('init'))).toEqual([]);
			expect(outputOf(await trigger.poll())).toEqual([]);
		});

		test('day 2: a late bounce (older send time than the newest seen) is still emitted once; yesterday is no longer read', async () => {
			setNow('2026-03-02T12:00:00Z');
			await addBounces(sandbox, [
				{ email_to: 'late@bounce.test', send_date: '2026-03-01 22:00:00' },
				{ email_to: 'c@bounce.test', send_date: '2026-03-02 11:59:00' },
			]);
			await addUnsubscribes(sandbox, [
				{ email: 'u3@example.com', date: '2026-03-02 11:00:00', unsubscribe_by_user: 1 },
			]);
			const since = sandbox.log.lastSeq();
			expect(outputOf(await trigger.poll())).toEqual([
				bounceItem('late@bounce.test', '2026-03-01 22:00:00'),
				unsubscribeItem('u3@example.com', '2026-03-02 11:00:00', { byUser: true }),
				bounceItem('c@bounce.test', '2026-03-02 11:59:00'),
			]);
			expect(callsSince(sandbox, since)).toEqual([
				bouncePage(0),
				unsubscribePage('2026-03-01'),
				unsubscribePage('2026-03-02'),
			]);
			const next = sandbox.log.lastSeq();
			expect(outputOf(await trigger.poll())).toEqual([]);
			// Right after a full read: the bounce count and the window's first record, one probe of today's two entries.
			expect(callsSince(sandbox, next)).toEqual([
				...bounceCheck,
				unsubscribeProbe('2026-03-02', 2),
			]);
		});

		test('midnight into day 3 while n8n is down: the activation poll after the restart emits what arrived', async () => {
			setNow('2026-03-02T23:59:59Z');
			await addBounces(sandbox, [{ email_to: 'd@bounce.test', send_date: '2026-03-02 23:59:59' }]);
			await addUnsubscribes(sandbox, [{ email: 'u4@example.com', date: '2026-03-02 23:59:59' }]);
			trigger.crash();
			setNow('2026-03-03T00:00:00Z');
			await addBounces(sandbox, [{ email_to: 'e@bounce.test', send_date: '2026-03-03 00:00:00' }]);
			await addUnsubscribes(sandbox, [{ email: 'u5@example.com', date: '2026-03-03 00:00:00' }]);
			const since = sandbox.log.lastSeq();
			expect(outputOf(await trigger.activate('init'))).toEqual([
				bounceItem('d@bounce.test', '2026-03-02 23:59:59'),
				unsubscribeItem('u4@example.com', '2026-03-02 23:59:59'),
				bounceItem('e@bounce.test', '2026-03-03 00:00:00'),
				unsubscribeItem('u5@example.com', '2026-03-03 00:00:00'),
			]);
			expect(callsSince(sandbox, since)).toEqual([
				bouncePage(0),
				unsubscribePage('2026-03-02'),
				unsubscribePage('2026-03-03'),
			]);
			setNow('2026-03-03T02:00:00Z');
			expect(outputOf(await trigger.poll())).toEqual([]);
			setNow('2026-03-03T04:00:00Z');
			expect(outputOf(await trigger.poll())).toEqual([]);
			const later = sandbox.log.lastSeq();
			setNow('2026-03-03T05:00:00Z');
			expect(outputOf(await trigger.poll())).toEqual([]);
			expect(callsSince(sandbox, later)).toEqual([
				...bounceCheck,
				unsubscribeProbe('2026-03-03', 1),
			]);
		});

		test('day 3 ends: every event emitted exactly once, none missed, and the state holds only what the service can still return', async () => {
			setNow('2026-03-03T23:00:00Z');
			await addBounces(sandbox, [{ email_to: 'f@bounce.test', send_date: '2026-03-03 22:59:00' }]);
			expect(outputOf(await trigger.poll())).toEqual([
				bounceItem('f@bounce.test', '2026-03-03 22:59:00'),
			]);

			const expected = [
				'bounce|a@bounce.test|2026-03-01 23:59:59',
				'unsubscribe|u1@example.com|2026-03-01 23:59:59',
				'bounce|b@bounce.test|2026-03-02 00:00:00',
				'unsubscribe|u2@example.com|2026-03-02 00:00:00',
				'bounce|twin@bounce.test|2026-03-02 00:00:10',
				'bounce|twin@bounce.test|2026-03-02 00:00:20',
				'bounce|late@bounce.test|2026-03-01 22:00:00',
				'unsubscribe|u3@example.com|2026-03-02 11:00:00',
				'bounce|c@bounce.test|2026-03-02 11:59:00',
				'bounce|d@bounce.test|2026-03-02 23:59:59',
				'unsubscribe|u4@example.com|2026-03-02 23:59:59',
				'bounce|e@bounce.test|2026-03-03 00:00:00',
				'unsubscribe|u5@example.com|2026-03-03 00:00:00',
				'bounce|f@bounce.test|2026-03-03 22:59:00',
			];
			expect(emitted.map((json) => identity(json).split('|').slice(0, 3).join('|'))).toEqual(
				expected,
			);
			expect(new Set(emitted.map(identity)).size).toBe(emitted.length);

			// Bounce digests only for hours the 24-hour window (+1 h) can still hold; unsubscribes only for days still read.
			const state = trigger.stored().messagingTrigger as IDataObject;
			expect(Object.keys(state).sort()).toEqual([
				'bounce',
				'events',
				'lastPollAt',
				'unsubscribe',
				'version',
			]);
			const digests = /^[\w-]{8}$/;
			// With each bounce's second within its hour (two characters), and when the whole list was last read.
			expect(state.bounce).toEqual({
				newest: '2026-03-03 22:59:00',
				seen: {
					'2026-03-02 23': expect.stringMatching(digests),
					'2026-03-03 00': expect.stringMatching(digests),
					'2026-03-03 22': expect.stringMatching(digests),
				},
				seconds: { '2026-03-02 23': '4P', '2026-03-03 00': 'AA', '2026-03-03 22': '3U' },
				fullReadAt: state.lastPollAt,
			});
			const [u5] = (state.unsubscribe as { seen: Record<string, string> }).seen['2026-03-03'].match(
				digests,
			)!;
			expect(state.unsubscribe).toEqual({
				from: '2026-03-03',
				seen: { '2026-03-03': expect.stringMatching(digests) },
				listed: { '2026-03-03': `1:${u5}` },
				fullReadAt: state.lastPollAt,
			});
			// n8n's clock at the poll (the shared clock runs on in real time after each jump).
			expect(state.lastPollAt).toBeGreaterThanOrEqual(Date.parse('2026-03-03T23:00:00Z'));
			expect(state.lastPollAt).toBeLessThan(Date.parse('2026-03-03T23:00:10Z'));
		});
	},
);
