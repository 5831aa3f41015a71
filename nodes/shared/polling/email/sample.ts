import { NodeOperationError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { clientForPoll } from '../pollClient';
import { DAY_MS, dateToServiceTime } from '../../values/serviceTime';
import type { PollSample } from '../poller';
import { SAMPLE_SIZE } from '../pollRun';
import {
	fetchBouncePage,
	fetchUnsubscribePage,
	listBounce,
	listUnsubscribe,
	PAGE_SIZE,
	toOutput,
	type ListedEvent,
} from './events';
import { MAX_PAGES } from './scan';
import type { EmailSettings } from './settings';

/** "Fetch Test Event" for the email events: the most recent ones in the service's windows, no state touched. */
export async function sampleEmail(
	context: IPollFunctions,
	settings: EmailSettings,
): Promise<PollSample> {
	const client = clientForPoll(context);
	const events: ListedEvent[] = [];
	if (settings.events.includes('bounce')) {
		const first = await fetchBouncePage(client, 0);
		let records = first.records;
		if (first.total !== undefined && first.total > records.length) {
			records = (await fetchBouncePage(client, Math.max(0, first.total - SAMPLE_SIZE), SAMPLE_SIZE))
				.records;
		} else if (first.total === undefined && records.length === PAGE_SIZE) {
			records = await readAll((offset) => fetchBouncePage(client, offset), records);
		}
		for (const record of records.slice(-SAMPLE_SIZE)) events.push(listBounce(record));
	}
	if (settings.events.includes('unsubscribe')) {
		const now = Date.now();
		const today = dateToServiceTime(now, settings.timeZone).slice(0, 10);
		const yesterday = dateToServiceTime(now - DAY_MS, settings.timeZone).slice(0, 10);
		let records = await readAll((offset) => fetchUnsubscribePage(client, today, offset));
		if (records.length < SAMPLE_SIZE)
			records = [
				...(await readAll((offset) => fetchUnsubscribePage(client, yesterday, offset))),
				...records,
			];
		for (const record of records.slice(-SAMPLE_SIZE)) events.push(listUnsubscribe(record));
	}
	const recent = events
		.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
		.slice(-SAMPLE_SIZE);
	return {
		items: recent.map((event) => ({ json: toOutput(event, settings.timeZone) })),
		nothing: noEmailSample(context, settings),
	};
}

/** Fetch Test Event found no email event: say which windows were read and how to make an event. */
function noEmailSample(context: IPollFunctions, settings: EmailSettings): NodeOperationError {
	const watched = settings.events
		.map((event) => (event === 'bounce' ? 'bounces' : 'unsubscribes'))
		.join(' or ');
	return new NodeOperationError(
		context.getNode(),
		`No ${watched} in the service's window right now`,
		{
			description:
				'Bounces are listed for the last 24 hours, unsubscribes for today and yesterday (service time). ' +
				'To make one: send an email to an address that does not exist (with the sandbox: any address at bounce.test, e.g. someone@bounce.test), or add a test address with Messaging Email → Unsubscribe → Add, then fetch again.',
		},
	);
}

async function readAll(
	fetchPage: (offset: number) => Promise<{ records: IDataObject[] }>,
	first?: IDataObject[],
): Promise<IDataObject[]> {
	const records: IDataObject[] = [...(first ?? [])];
	let last = first;
	for (let pages = 0; pages < MAX_PAGES; pages++) {
		if (last && last.length < PAGE_SIZE) break;
		last = (await fetchPage(records.length)).records;
		// One by one: a spread of a page of 100,000 records would overflow the call stack.
		for (const record of last) records.push(record);
	}
	return records;
}
