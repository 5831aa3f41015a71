/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import { control, harness, restoreClock, setNow, useSharedClock } from './helpers';
import { logger } from '../harness/poll-harness';
import { sendCampaign, smsEvents, uaPhones } from './sms-helpers';

/**
 * The account's limit is set once the test's own campaigns exist (the sandbox counts every client's requests).
 *
 * Issue 25: on an account allowed 3 requests/s (the node's pacing at its default 10/s), every poll's fresh pacer
 * learned the limit again through rate-limit answers (0.69 per accepted request over three days). The poll now
 * keeps the pace the service allowed: after the first polls, at most 0.1 rate-limit answers per accepted request.
 */
let sandbox: Sandbox;
beforeEach(async () => {
	useSharedClock('2026-03-10T08:00:00Z');
	sandbox = await startSandbox({ settings: { rateLimitPerSecond: 0 } });
	logger.clear();
});
afterEach(async () => {
	await sandbox.close();
	restoreClock();
});

const defaultPacing = (events: string[]): INodeParameters => ({
	events,
	options: {},
	requestOptions: {},
});

test('a 3/s account: the polls settle at its pace (≤ 0.1 rate-limit answers per accepted request once learned), every status once', async () => {
	// Five campaigns whose phones stay at Sent: every poll reads the list and each of them (6 requests).
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 86_400 });
	const trigger = harness(sandbox, defaultPacing(['smsSent', 'smsDelivered']));
	expect((await trigger.activate()).error).toBeUndefined();
	const ids: string[] = [];
	for (let index = 0; index < 5; index++)
		ids.push(await sendCampaign(sandbox, uaPhones(2, 10 * index)));
	await control(sandbox, 'PATCH', '/settings', { rateLimitPerSecond: 3 });

	const perPoll: Array<{ accepted: number; rateLimited: number; pace?: number }> = [];
	const emitted: string[] = [];
	for (let poll = 0; poll < 10; poll++) {
		setNow(new Date(Date.UTC(2026, 2, 10, 8, 3 + poll)).toISOString());
		const since = sandbox.log.lastSeq();
		const outcome = await trigger.poll();
		emitted.push(...smsEvents(outcome));
		const answers = sandbox.log.since(since);
		trigger.deactivate();
		const pace = (trigger.stored().messagingTriggerSms as IDataObject).pace as
			IDataObject | undefined;
		perPoll.push({
			accepted: answers.filter((entry) => entry.status === 200).length,
			rateLimited: answers.filter((entry) => entry.status === 429).length,
			pace: pace?.perSecond as number | undefined,
		});
	}
	process.stdout.write(`sms 3/s polls: ${JSON.stringify(perPoll)}\n`);
	expect(emitted.sort()).toEqual(
		ids
			.flatMap((id, index) => uaPhones(2, 10 * index).map((phone) => `smsSent ${id} ${phone}`))
			.sort(),
	);
	for (const poll of perPoll) expect(poll.accepted).toBe(6);
	// Learned within a few polls, then at most one rate-limit answer per 10 accepted requests.
	const settled = perPoll.slice(4);
	const rateLimited = settled.reduce((sum, poll) => sum + poll.rateLimited, 0);
	const accepted = settled.reduce((sum, poll) => sum + poll.accepted, 0);
	expect(rateLimited / accepted).toBeLessThanOrEqual(0.1);
	expect(perPoll.at(-1)?.pace).toBeLessThanOrEqual(4);
});

test('pacing off (Max Requests per Second 0) stays off: nothing is learned, nothing kept', async () => {
	await control(sandbox, 'PATCH', '/sms/settings', { deliveryDelaySeconds: 86_400 });
	const trigger = harness(sandbox, {
		events: ['smsSent'],
		options: {},
		requestOptions: { requestsPerSecond: 0 },
	});
	await trigger.activate();
	for (let index = 0; index < 4; index++) await sendCampaign(sandbox, uaPhones(1, index));
	await control(sandbox, 'PATCH', '/settings', { rateLimitPerSecond: 3 });
	setNow('2026-03-10T08:03:00Z');
	const outcome = await trigger.poll();
	expect(smsEvents(outcome)).toHaveLength(4);
	trigger.deactivate();
	expect((trigger.stored().messagingTriggerSms as IDataObject).pace).toBeUndefined();
});
