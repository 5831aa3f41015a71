import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalidInput } from '../../shared/values/inputErrors';
import { describeValue } from '../../shared/values/objects';
import { readParameter } from '../../shared/items/parameters';
import {
	assertTimeZone,
	dateToServiceTime,
	DAY_MS,
	serviceTimeToDate,
	shiftServiceTime,
} from '../../shared/values/serviceTime';

/**
 * Send Window (Send to Numbers, Create for List): SMS only at the hours people accept. Outside the window the
 * campaign is created with the service's `date` at the window's next opening, so the service holds it (nothing
 * waits in n8n); a Send At outside the window is refused. docs/send-once.md, "SMS send window".
 */

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKDAY_NAMES = [
	'Monday',
	'Tuesday',
	'Wednesday',
	'Thursday',
	'Friday',
	'Saturday',
	'Sunday',
];
const OPTION = 'Send Window';
const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

export const sendWindowOption: INodeProperties = {
	displayName: 'Send Window',
	name: 'sendWindow',
	type: 'fixedCollection',
	placeholder: 'Add Send Window',
	default: {},
	description:
		'Whether to send only at the hours people accept: outside them the campaign is scheduled for the next opening (the service holds it)',
	options: [
		{
			displayName: 'Send Window',
			name: 'window',
			values: [
				{
					displayName: 'From',
					name: 'from',
					type: 'string',
					default: '09:00',
					placeholder: '09:00',
					description: 'Opening time of each allowed day, HH:MM (24-hour)',
				},
				{
					displayName: 'Until',
					name: 'until',
					type: 'string',
					default: '20:00',
					placeholder: '20:00',
					description: 'Closing time of each allowed day, HH:MM (24-hour), later than From',
				},
				{
					displayName: 'Days',
					name: 'days',
					type: 'multiOptions',
					options: WEEKDAYS.map((value, index) => ({ name: WEEKDAY_NAMES[index], value })),
					default: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
					description: 'The days of the week SMS may go out',
				},
				{
					displayName: 'Time Zone',
					name: 'timeZone',
					type: 'string',
					default: '',
					placeholder: 'e.g. Europe/Kyiv',
					description:
						"The zone the hours are read in (the recipients' zone). Empty: the credential's Account Time Zone.",
				},
			],
		},
	],
};

interface Window {
	from: string;
	until: string;
	days: Set<number>;
	timeZone: string;
	/** For messages: "Mon–Fri 09:00–20:00 (Europe/Kyiv)". */
	label: string;
}

function readClock(context: IExecuteFunctions, itemIndex: number, name: string, value: unknown) {
	const match = typeof value === 'string' ? CLOCK.exec(value.trim()) : null;
	if (!match)
		throw invalidInput(
			context,
			itemIndex,
			OPTION,
			`${name} must be a time like 09:00, but the value is ${describeValue(value)}`,
		);
	return `${match[1].padStart(2, '0')}:${match[2]}:00`;
}

function readWindow(
	context: IExecuteFunctions,
	itemIndex: number,
	accountZone: string,
): Window | undefined {
	const option = readParameter(context, 'options.sendWindow', itemIndex, {}) as IDataObject;
	const raw = option.window as IDataObject | undefined;
	if (!raw) return undefined;
	const from = readClock(context, itemIndex, 'From', raw.from ?? '09:00');
	const until = readClock(context, itemIndex, 'Until', raw.until ?? '20:00');
	if (until <= from)
		throw invalidInput(
			context,
			itemIndex,
			OPTION,
			`Until (${until.slice(0, 5)}) must be later than From (${from.slice(0, 5)})`,
			'A window that runs past midnight is not supported: use two nodes, or end the window at 23:59.',
		);
	const given = Array.isArray(raw.days) ? raw.days : [];
	const days = new Set(given.map((day) => WEEKDAYS.indexOf(String(day))));
	if (!days.size || days.has(-1))
		throw invalidInput(
			context,
			itemIndex,
			OPTION,
			`Days must name at least one day of the week, but the value is ${describeValue(raw.days)}`,
		);
	const zone = typeof raw.timeZone === 'string' ? raw.timeZone.trim() : '';
	const timeZone = zone || accountZone;
	try {
		assertTimeZone(timeZone);
	} catch {
		throw invalidInput(
			context,
			itemIndex,
			OPTION,
			`Time Zone "${timeZone}" is not a time zone name`,
			'Use an IANA name such as Europe/Kyiv or America/New_York, or leave it empty.',
		);
	}
	const dayLabel = [...days]
		.sort()
		.map((day) => WEEKDAY_NAMES[day].slice(0, 3))
		.join(', ');
	return {
		from,
		until,
		days,
		timeZone,
		label: `${dayLabel} ${from.slice(0, 5)}–${until.slice(0, 5)} (${timeZone})`,
	};
}

/** Monday 0 … Sunday 6 of a `YYYY-MM-DD…` wall-clock string. */
function weekdayOf(wall: string): number {
	return (new Date(`${wall.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7;
}

function isInside(window: Window, wall: string): boolean {
	const time = wall.slice(11);
	return window.days.has(weekdayOf(wall)) && time >= window.from && time < window.until;
}

/** The next opening after the wall-clock time `wall` (outside the window), as an instant. */
function nextOpening(window: Window, wall: string): Date {
	for (let offset = 0; offset <= 7; offset++) {
		const day = shiftServiceTime(`${wall.slice(0, 10)} 00:00:00`, offset * DAY_MS)!.slice(0, 10);
		if (!window.days.has(weekdayOf(day))) continue;
		if (offset === 0 && wall.slice(11) >= window.from) continue;
		// The zone decides the instant of "09:00" on that day, daylight-saving days included.
		return serviceTimeToDate(`${day} ${window.from}`, window.timeZone)!;
	}
	throw new Error('A send window with a day of the week always opens within a week');
}

/**
 * Applies the Send Window option to a campaign's settings (the service's keys). Outside the window and without a
 * Send At, sets `date` (the account's wall clock) to the next opening and returns what the output says about it;
 * a Send At outside the window is refused. Undefined when the option is not set.
 */
export function applySendWindow(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: IDataObject,
	accountZone: string,
	now = new Date(),
): IDataObject | undefined {
	const window = readWindow(context, itemIndex, accountZone);
	if (!window) return undefined;
	if (typeof settings.date === 'string') {
		const sendAt = serviceTimeToDate(settings.date, accountZone)!;
		const wall = dateToServiceTime(sendAt, window.timeZone);
		if (!isInside(window, wall))
			throw invalidInput(
				context,
				itemIndex,
				'Send At',
				`${settings.date} (${wall.slice(0, 16)} ${WEEKDAY_NAMES[weekdayOf(wall)]} in ${window.timeZone}) is outside the Send Window ${window.label}`,
				'Choose a time inside the window, or leave Send At empty to send at the next opening.',
			);
		return { outsideSendWindow: false };
	}
	const wall = dateToServiceTime(now, window.timeZone);
	if (isInside(window, wall)) return { outsideSendWindow: false };
	const opening = nextOpening(window, wall);
	settings.date = dateToServiceTime(opening, accountZone);
	return {
		outsideSendWindow: true,
		scheduledFor: settings.date,
		scheduledForIso: opening.toISOString(),
	};
}
