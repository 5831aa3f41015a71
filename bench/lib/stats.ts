/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/** Small helpers shared by the scenarios: counting sandbox log entries, sampling a process, formatting. */
import { readFileSync } from 'node:fs';

import type { LoggedRequest } from '../../sandbox/core/request-log';

export const CLOCK_TICKS = 100;

/** CPU seconds (user + system) a process has used so far; its own, not its children's. */
export function processCpuSeconds(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident memory of a process right now, kB. */
export function processRssKb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

export interface LogSummary {
	requests: number;
	accepted: number;
	rateLimited: number;
	otherErrors: number;
	tokenRequests: number;
	/** Recipients (or keys) accepted more than once. */
	duplicates: number;
	firstAt?: number;
	lastAt?: number;
	/** Accepted requests per second between the first and the last accepted one. */
	acceptedPerSecond?: number;
}

/** What the sandbox saw for one run: requests to `path`, how they were answered, duplicates by `key`. */
export function summarise(
	entries: LoggedRequest[],
	path: string,
	key?: (entry: LoggedRequest) => string | undefined,
): LogSummary {
	const calls = entries.filter((entry) => entry.path === path);
	const accepted = calls.filter((entry) => entry.status === 200);
	const seen = new Map<string, number>();
	if (key) {
		for (const entry of accepted) {
			const id = key(entry);
			if (id !== undefined) seen.set(id, (seen.get(id) ?? 0) + 1);
		}
	}
	const times = accepted.map((entry) => entry.receivedAt).sort((a, b) => a - b);
	const span = times.length > 1 ? (times[times.length - 1] - times[0]) / 1000 : undefined;
	return {
		requests: calls.length,
		accepted: accepted.length,
		rateLimited: calls.filter((entry) => entry.status === 429).length,
		otherErrors: calls.filter((entry) => entry.status !== 200 && entry.status !== 429).length,
		tokenRequests: entries.filter((entry) => entry.path === '/oauth/access_token').length,
		duplicates: [...seen.values()].filter((count) => count > 1).length,
		firstAt: times[0],
		lastAt: times[times.length - 1],
		acceptedPerSecond: span ? (times.length - 1) / span : undefined,
	};
}

/** The first `to` address of a logged POST /smtp/emails. */
export function recipientOf(entry: LoggedRequest): string | undefined {
	const email = (entry.body as { email?: { to?: Array<{ email?: string }> } } | undefined)?.email;
	return email?.to?.[0]?.email;
}

/** The middle value (the lower of the two middle ones for an even count); undefined for none. */
export function median(values: Array<number | undefined>): number | undefined {
	const known = values
		.filter((value): value is number => value !== undefined)
		.sort((a, b) => a - b);
	return known.length ? known[Math.floor((known.length - 1) / 2)] : undefined;
}

export function ratio(ours: number | undefined, theirs: number | undefined, digits = 1): string {
	if (
		ours === undefined ||
		theirs === undefined ||
		!Number.isFinite(ours) ||
		!Number.isFinite(theirs) ||
		ours === 0
	)
		return '–';
	return `${(theirs / ours).toFixed(digits)}×`;
}

export function fmt(value: number | undefined, digits = 1): string {
	if (value === undefined || !Number.isFinite(value)) return '–';
	return value.toLocaleString('en-US', {
		minimumFractionDigits: digits,
		maximumFractionDigits: digits,
	});
}

export function int(value: number | undefined): string {
	if (value === undefined || !Number.isFinite(value)) return '–';
	return Math.round(value).toLocaleString('en-US');
}

export function seconds(ms: number | undefined): string {
	return ms === undefined ? '–' : `${fmt(ms / 1000, ms < 10_000 ? 2 : 1)} s`;
}

export function mb(kb: number | undefined): string {
	return kb === undefined ? '–' : `${fmt(kb / 1024, 0)} MB`;
}

export async function sleep(ms: number) {
	await new Promise((resolve) => setTimeout(resolve, ms));
}
