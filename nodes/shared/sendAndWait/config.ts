import {
	WAIT_INDEFINITELY,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { readDateParameter } from '../values/dates';
import { invalidInput } from '../values/inputErrors';
import { quoteValue } from '../values/objects';
import { serviceTimeToDate } from '../values/serviceTime';
import { readParameter } from '../items/parameters';
import { formFieldsOf, type FormField } from './form';
import type { MessageLink } from './html';
import { WAIT_PARAMETER } from './wait';

export type ResponseType = 'approval' | 'freeText' | 'customForm' | 'reviewAndEdit';

/** Whether an approval page asks for a comment: not at all, optionally, to decline, or always. */
export type CommentMode = 'off' | 'optional' | 'onDecline' | 'always';
const COMMENT_MODES: CommentMode[] = ['off', 'optional', 'onDecline', 'always'];

/** Reads a node parameter: `readParameter` when sending, the webhook context's `getNodeParameter` on the page. */
export type ParameterSource = (name: string, fallback: unknown) => unknown;

export interface SendAndWaitConfig {
	responseType: ResponseType;
	/** Approve and Decline (approval), else Approve only. */
	double: boolean;
	approveLabel: string;
	declineLabel: string;
	/** Approval: the comment box. */
	comment: CommentMode;
	/** Custom Form fields (empty for the other types). */
	fields: FormField[];
	/** Label of the link in a Free Text / Custom Form message. */
	respondLabel: string;
	formTitle: string;
	formDescription: string;
	submitLabel: string;
}

const text = (value: unknown, fallback: string) =>
	typeof value === 'string' && value.trim() !== '' ? value : fallback;

/** The response settings, the same way when sending and when showing the page. */
export function readConfig(
	read: ParameterSource,
): { config: SendAndWaitConfig } | { parameter: string; problem: string } {
	const responseType = String(read('responseType', 'approval')) as ResponseType;
	const approval = (read('approvalOptions.values', {}) ?? {}) as IDataObject;
	const options = (read('options', {}) ?? {}) as IDataObject;
	let fields: FormField[] = [];
	if (responseType === 'customForm') {
		const parsed = formFieldsOf(read('formFields.values', []));
		if ('problem' in parsed) return { parameter: 'Form Elements', problem: parsed.problem };
		fields = parsed.fields;
	} else if (responseType === 'reviewAndEdit') {
		const parsed = formFieldsOf(read('reviewFields.values', []), true);
		if ('problem' in parsed) return { parameter: 'Fields to Review', problem: parsed.problem };
		fields = parsed.fields;
	} else if (responseType !== 'approval' && responseType !== 'freeText') {
		return { parameter: 'Response Type', problem: `unknown type "${responseType}"` };
	}
	return {
		config: {
			responseType,
			// Review and Edit always offers both: approve the edited values, or decline the draft.
			double: approval.approvalType === 'double' || responseType === 'reviewAndEdit',
			approveLabel: text(approval.approveLabel, 'Approve'),
			declineLabel: text(approval.disapproveLabel, 'Decline'),
			comment: COMMENT_MODES.includes(approval.comment as CommentMode)
				? (approval.comment as CommentMode)
				: 'off',
			fields,
			respondLabel: text(options.messageButtonLabel, 'Respond'),
			formTitle: text(options.responseFormTitle, ''),
			formDescription: text(options.responseFormDescription, ''),
			submitLabel: text(options.responseFormButtonLabel, 'Submit'),
		},
	};
}

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

/**
 * The latest wait limit accepted: the last second of year 9999. Later instants have no four-digit ISO form (and
 * past about 275,000 years JavaScript has no date at all: `1e9` days, or a millisecond timestamp typed as
 * minutes), so n8n could not store or compare them as the execution's `waitTill`.
 */
const LATEST_WAIT_TILL = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * Until when to wait: WAIT_INDEFINITELY unless Limit Wait Time is set. A limit that is not a date n8n can wait
 * until, or not in the future (a past date, an amount of 0 or less), is refused before anything is sent: the
 * message would go out with links already expired, or the execution would wait with an invalid `waitTill`.
 * "At a specified time" is read as Send At is (readDateParameter): a picker's wall-clock value in the workflow's
 * time zone, and only real calendar dates (2027-02-30 is refused, not moved to 2 March).
 */
export function readWaitTill(context: IExecuteFunctions, now: Date): Date {
	const options = (readParameter(context, 'options', 0, {}) ?? {}) as IDataObject;
	const limit = (options.limitWaitTime as IDataObject | undefined)?.values as
		IDataObject | undefined;
	if (!limit || Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	let date: Date;
	if ((limit.limitType ?? 'afterTimeInterval') === 'afterTimeInterval') {
		const amount = Number(limit.resumeAmount ?? 1);
		const unitName = String(limit.resumeUnit ?? 'hours');
		const unit = UNIT_MS[unitName];
		if (!Number.isFinite(amount) || amount <= 0 || !unit)
			throw invalidInput(
				context,
				0,
				'Limit Wait Time',
				`the amount must be more than 0 (got ${String(limit.resumeAmount)})`,
			);
		date = new Date(now.getTime() + amount * unit);
		if (Number.isNaN(date.getTime()) || date.getTime() > LATEST_WAIT_TILL)
			throw invalidInput(
				context,
				0,
				'Limit Wait Time',
				`${amount} ${unitName} from now is after the year 9999, later than n8n can wait`,
				'Give the amount in the unit chosen (not a timestamp), or remove the limit.',
			);
		return date;
	}
	const raw = limit.maxDateAndTime;
	const serviceTime = readDateParameter(context, 0, raw, 'Limit Wait Time', 'UTC');
	const parsed = serviceTime === undefined ? undefined : serviceTimeToDate(serviceTime, 'UTC');
	if (!parsed)
		throw invalidInput(
			context,
			0,
			'Limit Wait Time',
			`Max Date and Time is not a date (got ${quoteValue(raw ?? '')})`,
		);
	date = parsed;
	if (date.getTime() <= now.getTime())
		throw invalidInput(
			context,
			0,
			'Limit Wait Time',
			`Max Date and Time ${date.toISOString()} is not in the future`,
			'Choose a later date, or remove the limit.',
		);
	return date;
}

/** The send-time reading: the config (refused naming the parameter when wrong) and the wait limit. */
export function readSendAndWait(context: IExecuteFunctions): {
	config: SendAndWaitConfig;
	waitTill: Date;
} {
	const result = readConfig((name, fallback) => readParameter(context, name, 0, fallback));
	if ('problem' in result) throw invalidInput(context, 0, result.parameter, result.problem);
	return { config: result.config, waitTill: readWaitTill(context, new Date()) };
}

/**
 * Who a message went to: their links carry it (signed), so the answer says who gave it. An email's address (and
 * name), or an SMS's phone.
 */
export type Recipient = { email: string; name?: string } | { phone: string };

/**
 * The links of one message, n8n's signed resume URLs (a changed byte gets n8n's 401). Every one opens a page;
 * only the page's button (a POST) answers. An email has one link per choice (`approved` in the link only picks
 * the button the page offers first); an SMS has one link to a page with every choice. Each link carries this
 * wait's value (`w`, see wait.ts) and, for an email, its recipient (`to`, `name`), for an SMS to one of several
 * phones, the phone (`phone`): each recipient's links are their own.
 */
export function messageLinks(
	context: IExecuteFunctions,
	config: SendAndWaitConfig,
	wait: string,
	recipient?: Recipient,
	single = false,
): MessageLink[] {
	const own: Record<string, string> = { [WAIT_PARAMETER]: wait };
	if (recipient && 'phone' in recipient) own.phone = recipient.phone;
	else if (recipient) {
		own.to = recipient.email;
		if (recipient.name) own.name = recipient.name;
	}
	const link = (approved?: string) =>
		context.getSignedResumeUrl(approved === undefined ? own : { approved, ...own });
	if (config.responseType !== 'approval')
		return [{ label: config.respondLabel, url: link(), primary: true }];
	if (single || !config.double)
		return [
			{
				label: single ? 'Answer' : config.approveLabel,
				url: link(single ? undefined : 'true'),
				primary: true,
			},
		];
	return [
		{ label: config.approveLabel, url: link('true'), primary: true },
		{ label: config.declineLabel, url: link('false'), primary: false },
	];
}

/** Hosts only the machine itself can reach: a link to them cannot be answered from a recipient's phone. */
const LOCAL_HOST = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/i;

/**
 * A run warning when the link about to be sent cannot work: n8n builds it from WEBHOOK_URL, or without it from
 * its own host and port (`localhost:5678`, as queue workers do when WEBHOOK_URL is set on the main process
 * only), or it uses http: while n8n's own address is https (a proxy in front that n8n was not told about).
 */
export function warnIfUnreachable(context: IExecuteFunctions, url: string): void {
	const link = new URL(url);
	let instance: URL | undefined;
	try {
		instance = new URL(context.getInstanceBaseUrl());
	} catch {
		instance = undefined;
	}
	const problem = LOCAL_HOST.test(link.hostname)
		? `points at ${link.host}, which only the n8n machine itself can open`
		: link.protocol === 'http:' && instance?.protocol === 'https:'
			? `uses http: (${link.origin}) while n8n is served over https (${instance.origin})`
			: undefined;
	if (problem)
		context.addExecutionHints({
			message: `The answer link ${problem}. Set WEBHOOK_URL to n8n's public address (on the main process and on every worker in queue mode) so that recipients can answer.`,
			type: 'warning',
			location: 'outputPane',
		});
}

/**
 * Puts the execution to wait for the answer. The page's POST replaces the node's input with the answer; if the
 * wait limit comes first, n8n resumes the node with its input as stored, so that input (this run's copy, not the
 * previous node's items) gets `data: {timedOut: true}` (plus `approved: false` for an approval) on each item. The
 * rest of each item stays: the page evaluates the message's expressions against this stored input too.
 */
export async function waitForAnswer(
	context: IExecuteFunctions,
	config: SendAndWaitConfig,
	waitTill: Date,
): Promise<INodeExecutionData[]> {
	const input = context.getInputData();
	if (waitTill.getTime() !== WAIT_INDEFINITELY.getTime()) {
		const timedOut: IDataObject = { timedOut: true };
		if (config.responseType === 'approval') timedOut.approved = false;
		const executeData = context.getExecuteData();
		executeData.data = {
			...executeData.data,
			main: [
				input.map((item, index) => ({
					...item,
					json: { ...item.json, data: timedOut },
					pairedItem: { item: index },
				})),
			],
		};
	}
	await context.putExecutionToWait(waitTill);
	return input;
}
