import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import {
	harness,
	parameters,
	setNow,
	trigger as messagingTrigger,
	useTriggerSandbox,
} from './helpers';
import { logger, PollHarness } from '../harness/poll-harness';
import {
	ALL_SMS,
	infoCall,
	listCall,
	sendCampaign,
	setTimeline,
	smsCalls,
	smsEvents,
	uaPhones,
} from './sms-helpers';

/**
 * Issue 25: a damaged SMS state that still looks valid. One campaign's entry damaged (levels emptied or cut, the
 * phone digest emptied or of the wrong length) must not repeat its events: that campaign is taken as it is (a
 * baseline, with a warning), every other campaign goes on exactly.
 */
let sandbox: Sandbox;
useTriggerSandbox('2026-03-10T08:00:00Z', (started) => (sandbox = started));

const A = uaPhones(6, 1); // 380670000001 … 380670000006
const B = uaPhones(2, 11);

type Entry = IDataObject & { phones: string; levels: string };
const damages: Array<[string, (entry: Entry) => IDataObject, string]> = [
	[
		'its levels emptied',
		(entry) => ({ ...entry, levels: '' }),
		'could not be read (campaign 1001: no levels)',
	],
	[
		'its levels cut to half',
		(entry) => ({ ...entry, levels: entry.levels.slice(0, 3) }),
		'holds 3 statuses for its 6 phones',
	],
	[
		'its levels and phone digest emptied',
		(entry) => ({ ...entry, phones: '', levels: '' }),
		'could not be read (campaign 1001: bad phone digest)',
	],
	[
		'a phone digest of the wrong length',
		(entry) => ({ ...entry, phones: entry.phones.slice(0, 8) }),
		'could not be read (campaign 1001: bad phone digest)',
	],
];

test.each(damages)(
	'one campaign with %s: none of its events again, its later ones once, the other campaign exact',
	async (_label, damage, reason) => {
		const trigger = harness(sandbox, parameters(ALL_SMS));
		await trigger.activate();
		const a = await sendCampaign(sandbox, A); // sending starts 08:02
		const b = await sendCampaign(sandbox, B);
		expect(a).toBe('1001');
		await setTimeline(sandbox, a, {
			[A[0]]: { sentAfterSeconds: 0, finalAfterSeconds: 60 },
			[A[1]]: { sentAfterSeconds: 0, finalAfterSeconds: 60 },
			[A[2]]: { sentAfterSeconds: 0, finalAfterSeconds: 60, final: 12 },
			[A[3]]: { sentAfterSeconds: 0, finalAfterSeconds: 1800 },
			[A[4]]: { sentAfterSeconds: 0, finalAfterSeconds: 1800 },
			[A[5]]: { sentAfterSeconds: 0, finalAfterSeconds: 3600 },
		});
		await setTimeline(sandbox, b, {
			[B[0]]: { sentAfterSeconds: 0, finalAfterSeconds: 1800 },
			[B[1]]: { sentAfterSeconds: 0, finalAfterSeconds: 1800, final: 12 },
		});
		setNow('2026-03-10T08:04:00Z');
		const seen: string[] = smsEvents(await trigger.poll());
		expect(seen).toEqual([
			`smsSent ${a} ${A[0]}`,
			`smsDelivered ${a} ${A[0]}`,
			`smsSent ${a} ${A[1]}`,
			`smsDelivered ${a} ${A[1]}`,
			`smsSent ${a} ${A[2]}`,
			`smsNotDelivered ${a} ${A[2]}`,
			`smsSent ${a} ${A[3]}`,
			`smsSent ${a} ${A[4]}`,
			`smsSent ${a} ${A[5]}`,
			`smsSent ${b} ${B[0]}`,
			`smsSent ${b} ${B[1]}`,
		]);
		const stored = trigger.stored();
		const state = stored.messagingTriggerSms as IDataObject & { campaigns: Record<string, Entry> };
		expect(state.campaigns[a].levels).toBe('22n111');
		state.campaigns[a] = damage(state.campaigns[a]) as Entry;

		// n8n restarts with the damaged state.
		const restarted = new PollHarness({
			nodeType: messagingTrigger,
			parameters: parameters(ALL_SMS),
			credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
			persisted: stored,
		});
		setNow('2026-03-10T08:40:00Z');
		const since = sandbox.log.lastSeq();
		const after = await restarted.activate('init');
		// Campaign A is taken as it is (A[3] and A[4] became final meanwhile: not emitted); B goes on.
		expect(smsEvents(after)).toEqual([`smsDelivered ${b} ${B[0]}`, `smsNotDelivered ${b} ${B[1]}`]);
		expect(smsCalls(sandbox, since)).toEqual([
			listCall('2026-03-07 08:40:00'),
			infoCall(a),
			infoCall(b),
		]);
		const warning = new RegExp(
			`^The saved SMS delivery state of campaign ${a} ${reason.replace(/[()]/g, '\\$&')}: its phones are taken as they are now; statuses they reached before this poll are not emitted$`,
		);
		expect(logger.of('warn')).toEqual([expect.stringMatching(/^Messaging Trigger: /)]);
		expect(logger.of('warn')[0].replace('Messaging Trigger: ', '')).toMatch(warning);
		expect(after.items[0].json.metadata).toEqual({ warnings: [expect.stringMatching(warning)] });
		seen.push(...smsEvents(after));

		setNow('2026-03-10T09:05:00Z');
		const later = smsEvents(await restarted.poll());
		expect(later).toEqual([`smsDelivered ${a} ${A[5]}`]);
		seen.push(...later);
		setNow('2026-03-10T09:10:00Z');
		expect(smsEvents(await restarted.poll())).toEqual([]);
		expect(new Set(seen).size).toBe(seen.length);
	},
);

test('a campaign entry that is done yet carries levels is damage too: nothing again', async () => {
	const trigger = harness(sandbox, parameters(ALL_SMS));
	await trigger.activate();
	const a = await sendCampaign(sandbox, A.slice(0, 2));
	setNow('2026-03-10T08:04:00Z');
	expect(smsEvents(await trigger.poll())).toHaveLength(4);
	const stored = trigger.stored();
	const state = stored.messagingTriggerSms as IDataObject & {
		campaigns: Record<string, IDataObject>;
	};
	state.campaigns[a] = { ...state.campaigns[a], phones: 'AAAAAAAAAAAA', levels: '00' };
	const restarted = new PollHarness({
		nodeType: messagingTrigger,
		parameters: parameters(ALL_SMS),
		credentials: new CredentialStore(sandboxCredentials(sandbox, 'apiKey')),
		persisted: stored,
	});
	expect(smsEvents(await restarted.activate('init'))).toEqual([]);
	expect(logger.of('warn')).toEqual([
		`Messaging Trigger: The saved SMS delivery state of campaign ${a} could not be read (campaign ${a}: done, yet with levels): its phones are taken as they are now; statuses they reached before this poll are not emitted`,
	]);
	expect(smsEvents(await restarted.poll())).toEqual([]);
});
