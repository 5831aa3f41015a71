/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import type { Sandbox } from '../../sandbox';
import { harness, newSandbox, parameters, restoreClock, setNow, useSharedClock } from './helpers';
import { logger } from '../harness/poll-harness';
import { infoCall, listCall, sendCampaign, smsCalls, smsEvents, uaPhones } from './sms-helpers';

let sandbox: Sandbox;
beforeEach(async () => {
	useSharedClock('2026-03-10T08:00:00Z');
	sandbox = await newSandbox();
	logger.clear();
});
afterEach(async () => {
	await sandbox.close();
	restoreClock();
});

test('three campaigns of 2,000 phones each, all final at once: 1,000 events per poll (the default cap), each phone once, campaigns read only while they have events to give', async () => {
	const trigger = harness(sandbox, parameters(['smsDelivered', 'smsNotDelivered']));
	await trigger.activate();
	await trigger.poll();
	const phones = [uaPhones(2000, 0), uaPhones(2000, 2000), uaPhones(2000, 4000)];
	const ids: string[] = [];
	for (const list of phones) ids.push(await sendCampaign(sandbox, list));
	setNow('2026-03-10T08:03:30Z');

	const seen = new Map<string, number>();
	const callsPerPoll: string[][] = [];
	const bytesPerPoll: number[] = [];
	const startedAt = Date.now();
	for (let poll = 0; poll < 7; poll++) {
		const since = sandbox.log.lastSeq();
		const events = smsEvents(await trigger.poll());
		expect(events).toHaveLength(poll < 6 ? 1000 : 0);
		for (const event of events) seen.set(event, (seen.get(event) ?? 0) + 1);
		callsPerPoll.push(smsCalls(sandbox, since));
		bytesPerPoll.push(trigger.storedBytes());
	}
	const elapsed = Date.now() - startedAt;

	const list = listCall('2026-03-07 08:03:30');
	expect(callsPerPoll).toEqual([
		[list, infoCall(ids[0])],
		[list, infoCall(ids[0])],
		[list, infoCall(ids[1])],
		[list, infoCall(ids[1])],
		[list, infoCall(ids[2])],
		[list, infoCall(ids[2])],
		[list],
	]);
	const expected = ids.flatMap((id, index) =>
		phones[index].map(
			(phone) => `${phone.endsWith('0') ? 'smsNotDelivered' : 'smsDelivered'} ${id} ${phone}`,
		),
	);
	expect([...seen.keys()].sort()).toEqual(expected.sort());
	expect([...seen.values()].every((count) => count === 1)).toBe(true);
	expect(logger.of('info')).toContain(
		'Messaging Trigger: emitted 1000 SMS events; more are waiting for the next poll',
	);
	// One byte per phone of the campaign half-emitted, a few dozen per campaign otherwise.
	expect(bytesPerPoll[0]).toBeGreaterThan(2000);
	expect(bytesPerPoll[0]).toBeLessThan(2400);
	expect(bytesPerPoll[6]).toBeLessThan(400);
	process.stdout.write(
		`sms volume: ${expected.length} events in 6 polls, ${elapsed} ms; state bytes per poll ${JSON.stringify(bytesPerPoll)}\n`,
	);
});

test('a cap of 1: a phone that went straight to a final status gives Sent, then its final status, over two polls', async () => {
	const trigger = harness(
		sandbox,
		parameters(['smsDelivered', 'smsNotDelivered', 'smsSent'], { maxEventsPerPoll: 1 }),
	);
	await trigger.activate();
	await trigger.poll();
	const id = await sendCampaign(sandbox, ['380671234561', '380671234570']);
	setNow('2026-03-10T08:03:30Z');
	const polls: string[][] = [];
	for (let poll = 0; poll < 5; poll++) {
		const since = sandbox.log.lastSeq();
		polls.push([...smsEvents(await trigger.poll()), ...smsCalls(sandbox, since)]);
	}
	const list = listCall('2026-03-07 08:03:30');
	expect(polls).toEqual([
		[`smsSent ${id} 380671234561`, list, infoCall(id)],
		[`smsDelivered ${id} 380671234561`, list, infoCall(id)],
		[`smsSent ${id} 380671234570`, list, infoCall(id)],
		[`smsNotDelivered ${id} 380671234570`, list, infoCall(id)],
		[list],
	]);
});
