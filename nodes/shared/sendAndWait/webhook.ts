import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readConfig, type CommentMode, type SendAndWaitConfig } from './config';
import {
	formInputs,
	LENGTH_NOTE,
	lengthProblem,
	MAX_ANSWER_CHARACTERS,
	postedText,
	readSubmission,
	type FormField,
} from './form';
import { answeredPage, escapeHtml, lostRacePage, noActionPage, page, textToHtml } from './html';
import { claimAnswer, isCurrentWait, WAIT_PARAMETER } from './wait';

/**
 * What the page may do: no scripts, no assets from anywhere, inline styles only, the form posts back to this
 * instance, and no other site may frame it (a hidden frame could make the press for someone).
 */
const PAGE_POLICY =
	"default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function send(context: IWebhookFunctions, status: number, html: string): void {
	// Node's own response methods: n8n hands over Express's response, which has them too.
	const res = context.getResponseObject();
	res.statusCode = status;
	res.setHeader('Content-Type', 'text/html; charset=utf-8');
	res.setHeader('Content-Security-Policy', PAGE_POLICY);
	res.setHeader('Cache-Control', 'no-store');
	res.setHeader('X-Robots-Tag', 'noindex, nofollow');
	res.setHeader('Referrer-Policy', 'no-referrer');
	res.end(context.getRequestObject().method === 'HEAD' ? undefined : html);
}

/**
 * A text parameter for the page, or '' when it cannot be evaluated here: the page is built in the webhook, where an
 * expression may not resolve as it did when sending (an AI agent's `$tool`), and a throw would fail the execution
 * instead of showing the page.
 */
function textOrEmpty(read: () => unknown): string {
	try {
		const value = read();
		return typeof value === 'string' ? value : '';
	} catch {
		return '';
	}
}

const button = (label: string, name: string, value: string, secondary = false) =>
	`<button type="submit" name="${name}" value="${value}"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button>`;

/** The form posts to the page's own address (`action` left out), so the signed query string goes with it. */
const COMMENT_LABEL: Record<CommentMode, string> = {
	off: '',
	optional: 'Comment (optional)',
	onDecline: 'Comment (required to decline)',
	always: 'Comment *',
};

/** The approval page's comment box (none when Comment is off); `always` is required by the browser too. */
function commentBox(config: SendAndWaitConfig, given: unknown): string {
	if (config.comment === 'off') return '';
	const value = typeof given === 'string' ? given.slice(0, MAX_ANSWER_CHARACTERS) : '';
	return (
		`<label for="comment">${COMMENT_LABEL[config.comment]}</label>` +
		`<textarea id="comment" name="comment" maxlength="${MAX_ANSWER_CHARACTERS}"${config.comment === 'always' ? ' required' : ''}>${escapeHtml(value)}</textarea>` +
		`<p class="note">${LENGTH_NOTE}</p>`
	);
}

function choicePage(
	config: SendAndWaitConfig,
	message: string,
	title: string,
	preferDecline: boolean,
	error?: string,
	comment?: unknown,
): string {
	const approve = button(config.approveLabel, 'approved', 'true', preferDecline);
	const decline = config.double
		? button(config.declineLabel, 'approved', 'false', !preferDecline)
		: '';
	const buttons = preferDecline ? decline + approve : approve + decline;
	return page(
		title,
		`<p>${textToHtml(message)}</p>${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}` +
			`<form method="post">${commentBox(config, comment)}<div class="buttons">${buttons}</div></form>` +
			'<p class="note">Nothing is recorded until you press a button.</p>',
	);
}

/**
 * The comment posted with an approval, or the problem with it. `undefined` when Comment is off (the output then
 * has no `comment`), null when none was given.
 */
function readComment(
	config: SendAndWaitConfig,
	approved: boolean,
	raw: unknown,
): { comment?: string | null } | { problem: string } {
	if (config.comment === 'off') return {};
	if (raw !== undefined && typeof raw !== 'string') return { problem: 'Comment: give one value' };
	const text = typeof raw === 'string' ? postedText(raw) : '';
	const tooLong = lengthProblem('Comment', text);
	if (tooLong) return { problem: tooLong };
	if (!text && config.comment === 'always') return { problem: 'Comment: required' };
	if (!text && config.comment === 'onDecline' && !approved)
		return { problem: `Comment: required to ${config.declineLabel.toLowerCase()}` };
	return { comment: text || null };
}

/** Review and Edit: the fields pre-filled (or as posted), an optional comment, Approve and Decline. */
function reviewPage(
	config: SendAndWaitConfig,
	message: string,
	title: string,
	values: IDataObject,
	problems: string[] = [],
): string {
	const description = config.formDescription || message;
	const errors = problems.map((problem) => `<p class="error">${escapeHtml(problem)}</p>`).join('');
	const buttons =
		button(config.approveLabel, 'approved', 'true') +
		button(config.declineLabel, 'approved', 'false', true);
	return page(
		config.formTitle || title,
		`<p>${textToHtml(description)}</p>${errors}<form method="post">${formInputs(config.fields, values)}` +
			`${commentBox(config, values.comment)}<p class="note">${LENGTH_NOTE}</p>` +
			`<div class="buttons">${buttons}</div></form>` +
			'<p class="note">Nothing is recorded until you press a button.</p>',
	);
}

function formPage(
	config: SendAndWaitConfig,
	message: string,
	title: string,
	values: IDataObject,
	problems: string[] = [],
): string {
	const description = config.formDescription || message;
	const inputs =
		config.responseType === 'freeText'
			? `<label for="f0">Response *</label><textarea id="f0" name="field-0" maxlength="${MAX_ANSWER_CHARACTERS}" required>${escapeHtml(
					typeof values['field-0'] === 'string'
						? values['field-0'].slice(0, MAX_ANSWER_CHARACTERS)
						: '',
				)}</textarea>`
			: formInputs(config.fields, values);
	const errors = problems.map((problem) => `<p class="error">${escapeHtml(problem)}</p>`).join('');
	return page(
		config.formTitle || title,
		`<p>${textToHtml(description)}</p>${errors}<form method="post">${inputs}` +
			`<p class="note">${LENGTH_NOTE}</p>` +
			`<div class="buttons">${button(config.submitLabel, 'submit', '1')}</div></form>`,
	);
}

/**
 * The resume webhook of both nodes. GET and HEAD, any number of times, only show the page (a mail scanner that
 * follows every link answers nothing); the page's POST answers and resumes the execution with n8n's output
 * shapes: `{data: {approved, respondedAt}}`, `{data: {text, respondedAt}}`, `{data: {<field label>: value, …,
 * respondedAt}}`. n8n checks the link's signature before this runs, and after the first answer shows its own
 * "already answered" page. A POST the page would not send (no choice, a missing required field) shows the page
 * again with the problem and resumes nothing.
 */
export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const read = (name: string, fallback: unknown) => this.getNodeParameter(name, fallback);
	const result = readConfig(read);
	if ('problem' in result) {
		send(this, 500, page('This link cannot be answered', `<p>${escapeHtml(result.problem)}</p>`));
		return { noWebhookResponse: true };
	}
	const { config } = result;
	const message = textOrEmpty(() => read('message', ''));
	const title = textOrEmpty(() => read('subject', '')).trim() || 'Your answer';
	const body = (request.method === 'POST' ? (this.getBodyData() ?? {}) : {}) as IDataObject;
	const query = (request.query ?? {}) as IDataObject;
	if (!isCurrentWait(this, query)) {
		send(this, 200, noActionPage());
		return { noWebhookResponse: true };
	}
	/** Resumes with `data`; the page repeats `recorded` (label, value) to the person. */
	const answer = (
		data: IDataObject,
		recorded: Array<[label: string, value: string]>,
	): IWebhookResponseData => {
		if (!claimAnswer(this, query[WAIT_PARAMETER])) {
			send(this, 409, lostRacePage());
			return { noWebhookResponse: true };
		}
		send(this, 200, answeredPage(recorded));
		const json: IDataObject = { data: { ...data, respondedAt: new Date().toISOString() } };
		if (typeof query.to === 'string')
			json.responder =
				typeof query.name === 'string'
					? { email: query.to, name: query.name }
					: { email: query.to };
		else if (typeof query.phone === 'string') json.responder = { phone: query.phone };
		return { noWebhookResponse: true, workflowData: [[{ json }]] };
	};

	if (config.responseType === 'approval') {
		const preferDecline = query.approved === 'false' && config.double;
		if (request.method !== 'POST') {
			send(this, 200, choicePage(config, message, title, preferDecline));
			return { noWebhookResponse: true };
		}
		const choice = body.approved;
		if (choice !== 'true' && !(choice === 'false' && config.double)) {
			send(
				this,
				400,
				choicePage(config, message, title, preferDecline, 'Choose an answer.', body.comment),
			);
			return { noWebhookResponse: true };
		}
		const approved = choice === 'true';
		const comment = readComment(config, approved, body.comment);
		if ('problem' in comment) {
			send(
				this,
				400,
				choicePage(
					config,
					message,
					title,
					!approved && config.double,
					comment.problem,
					body.comment,
				),
			);
			return { noWebhookResponse: true };
		}
		// n8n's AI Agent hands a declined tool call's `chatInput` to the model as the reviewer's feedback
		// (processHitlResponses in @n8n/n8n-nodes-langchain); only the generated …HitlTool node adds it.
		const forAgent =
			!approved && comment.comment && this.getNode().type.endsWith('HitlTool')
				? { chatInput: comment.comment }
				: {};
		return answer({ approved, ...comment, ...forAgent }, [
			['Answer', approved ? config.approveLabel : config.declineLabel],
			...commentRow(comment),
		]);
	}

	if (config.responseType === 'reviewAndEdit') {
		if (request.method !== 'POST') {
			send(this, 200, reviewPage(config, message, title, {}));
			return { noWebhookResponse: true };
		}
		const choice = body.approved;
		if (choice !== 'true' && choice !== 'false') {
			send(this, 400, reviewPage(config, message, title, body, ['Choose an answer.']));
			return { noWebhookResponse: true };
		}
		const approved = choice === 'true';
		const comment = readComment(config, approved, body.comment);
		// A Decline gives no values (the draft is not to be used), so it needs no valid ones.
		const submission = approved ? readSubmission(config.fields, body) : { data: {} };
		const problems = [
			...('problems' in submission ? submission.problems : []),
			...('problem' in comment ? [comment.problem] : []),
		];
		if (problems.length || 'problems' in submission || 'problem' in comment) {
			send(this, 400, reviewPage(config, message, title, body, problems));
			return { noWebhookResponse: true };
		}
		return answer({ approved, ...submission.data, ...comment }, [
			['Answer', approved ? config.approveLabel : config.declineLabel],
			...(approved ? recordedFields(config.fields, submission.data) : []),
			...commentRow(comment),
		]);
	}

	if (request.method !== 'POST') {
		send(this, 200, formPage(config, message, title, {}));
		return { noWebhookResponse: true };
	}
	if (config.responseType === 'freeText') {
		const text = typeof body['field-0'] === 'string' ? postedText(body['field-0']) : '';
		const problem = text ? lengthProblem('Response', text) : 'Response: required';
		if (problem) {
			send(this, 400, formPage(config, message, title, body, [problem]));
			return { noWebhookResponse: true };
		}
		return answer({ text }, [['Response', text]]);
	}
	const submission = readSubmission(config.fields, body);
	if ('problems' in submission) {
		send(this, 400, formPage(config, message, title, body, submission.problems));
		return { noWebhookResponse: true };
	}
	return answer(submission.data, recordedFields(config.fields, submission.data));
}

/** The fields of an answer as the page repeats them: label and value, lists joined. */
function recordedFields(fields: FormField[], data: IDataObject): Array<[string, string]> {
	return fields.map((field) => {
		const value = data[field.key];
		return [field.label, Array.isArray(value) ? value.join(', ') : String(value ?? '')];
	});
}

/** A comment given with the answer, as the page repeats it. */
function commentRow(
	comment: { comment?: string | null } | { problem: string },
): Array<[string, string]> {
	return 'comment' in comment && comment.comment ? [['Comment', comment.comment]] : [];
}
