/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
/**
 * Generative bad input: a seeded generator makes wrong-typed and malformed values for the checked parameters of
 * every operation (one or two parameters at a time, several items per run, Continue On Fail on and off) and
 * asserts: no request reaches the sandbox, the node does not crash, and every item's error names one of the
 * parameters given a bad value, and the item. Seed: GENERATIVE_SEED (printed in the test names) to replay a run.
 */
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { MessagingSms } from '../../nodes/MessagingSms/MessagingSms.node';
import { startSandbox, type Sandbox } from '../../sandbox/core/server';
import { emailArea } from '../../sandbox/email';
import { smsArea } from '../../sandbox/sms';
import { CredentialStore, sandboxCredentials } from '../harness/credentials';
import { disposeExpressionEngine, runNode } from '../harness/run-node';
import { OPERATIONS, withParameter, type NodeKey, type ParameterCase } from './cases';

const SEED = Number(process.env.GENERATIVE_SEED ?? 20261123);
const RUNS = Number(process.env.GENERATIVE_RUNS ?? 80);
const NODES: Record<NodeKey, INodeType> = { email: new MessagingEmail(), sms: new MessagingSms() };

/** mulberry32: a small, well-known 32-bit PRNG; the same seed gives the same cases. */
function random(seed: number) {
	let state = seed >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
	const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)];
	return { next, int, pick };
}
type Random = ReturnType<typeof random>;

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SYMBOLS = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~é😀\n\t';
const word = (r: Random, alphabet = LETTERS, length = r.int(1, 12)) =>
	Array.from({ length }, () => alphabet[r.int(0, alphabet.length - 1)]).join('');

function primitive(r: Random): unknown {
	return r.pick([
		() => word(r),
		() => word(r, SYMBOLS),
		() => r.int(-1e6, 1e6),
		() => r.next() * 100 - 50,
		() => r.next() < 0.5,
		() => null,
	])();
}

/** An object or a list, possibly nested: never text. */
function structured(r: Random, depth = 0): unknown {
	const entry = () => (depth < 2 && r.next() < 0.3 ? structured(r, depth + 1) : primitive(r));
	return r.next() < 0.5
		? Object.fromEntries(Array.from({ length: r.int(0, 3) }, () => [word(r), entry()]))
		: Array.from({ length: r.int(0, 3) }, entry);
}

type Kind = 'text' | 'limit' | 'date' | 'id' | 'phones' | 'email' | 'recipients' | 'ids' | 'sender';

function kindOf(op: { node: NodeKey }, parameter: ParameterCase): Kind {
	const path = parameter.path;
	if (path === 'limit') return 'limit';
	if (/^filters\.(date|from|to|dateFrom|dateTo)$|sendDate$/.test(path)) return 'date';
	if (path === 'campaignId.value' || path === 'addressBookId') return 'id';
	if (path === 'phones' || path === 'phone') return 'phones';
	if (path === 'emailIds') return 'ids';
	if (['to', 'cc', 'bcc', 'emails'].includes(path)) return 'recipients';
	if (path === 'sender' && op.node === 'sms') return 'sender';
	if (['email', 'fromEmail', 'sender'].includes(path)) return 'email';
	return 'text';
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, '0');

/** A value that is wrong for the kind of parameter, whatever the generator draws. */
function badValue(r: Random, kind: Kind): unknown {
	switch (kind) {
		case 'text':
			return structured(r);
		case 'limit':
			return r.pick([
				() => -r.int(0, 1e6),
				() => r.int(1, 1000) + 0.5,
				() => word(r),
				() => structured(r),
				() => r.next() < 0.5,
			])();
		case 'date': {
			const year = r.int(1970, 2400);
			const month = r.int(1, 12);
			return r.pick([
				() => `${year}-${pad(r.int(13, 99))}-${pad(r.int(1, 28))}`,
				() => `${year}-${pad(month)}-${pad(r.int(daysIn(year, month) + 1, 99))}`,
				() => `${year}-${pad(month)}-01T${pad(r.int(24, 99))}:00:00`,
				() => `${year}-${pad(month)}-01 10:${pad(r.int(60, 99))}`,
				() => `${year}-${pad(month)}-00`,
				() => word(r),
				() => structured(r),
			])();
		}
		case 'id':
			return r.pick([
				() => -r.int(0, 1e6),
				() => r.int(1, 1000) + 0.25,
				() => `${r.int(1, 99)}${word(r)}`,
				() => word(r),
				() => structured(r),
			])();
		case 'phones':
			return r.pick([
				() => word(r),
				() => String(r.int(1, 999999)),
				() => '9'.repeat(r.int(16, 25)),
				() => [String(380986235698), { phone: word(r) }],
				() => ({ [word(r)]: primitive(r) }),
			])();
		case 'email':
			return r.pick([
				() => word(r),
				() => `${word(r)}@${word(r)}`,
				() => `${word(r)} ${word(r)}@example.com`,
				() => structured(r),
			])();
		case 'recipients':
			return r.pick([
				() => `"${word(r)}, ${word(r)} <${word(r)}@example.com>`,
				() => `${word(r)} <${word(r)}>`,
				() => word(r),
				() => ({ name: word(r) }),
				() => [{ email: word(r) }],
			])();
		case 'ids':
			return r.pick([
				() => ({ [word(r)]: primitive(r) }),
				() => [word(r), { id: word(r) }],
				() => ' '.repeat(r.int(0, 3)),
			])();
		case 'sender':
			return r.pick([
				() => `${word(r, LETTERS, 3)} ${word(r, LETTERS, 3)}`,
				() => word(r, LETTERS, r.int(12, 20)),
				() => `${word(r, LETTERS, 3)}!`,
				() => structured(r),
			])();
	}
}

let sandbox: Sandbox;
let store: CredentialStore;
beforeAll(async () => {
	sandbox = await startSandbox({
		areas: [emailArea, smsArea],
		settings: { rateLimitPerSecond: 0 },
	});
	store = new CredentialStore(sandboxCredentials(sandbox, 'apiKey'));
});
afterAll(async () => {
	await sandbox.close();
	await disposeExpressionEngine();
});

const checked = OPERATIONS.filter((op) => op.bad.length > 0 && !op.firstItemOnly);

it(`seed ${SEED}: ${RUNS} runs of random bad values, nothing sent, no crash, each error names a parameter and its item`, async () => {
	const r = random(SEED);
	const failures: unknown[] = [];
	let values = 0;
	for (let run = 0; run < RUNS; run++) {
		// Every operation in turn, so each gets its share whatever RUNS is.
		const op = checked[run % checked.length];
		const chosen = [r.pick(op.bad)];
		const second = r.pick(op.bad);
		if (r.next() < 0.4 && second.path !== chosen[0].path) chosen.push(second);
		let parameters: INodeParameters = op.base;
		chosen.forEach((parameter, index) => {
			parameters = withParameter(parameters, parameter.path, `={{ $json.v${index} }}`);
		});
		const continueOnFail = r.next() < 0.7;
		const itemCount = continueOnFail ? r.int(1, 5) : 1;
		const items = Array.from({ length: itemCount }, () => ({
			json: Object.fromEntries(
				chosen.map((parameter, index) => [`v${index}`, badValue(r, kindOf(op, parameter))]),
			),
		}));
		values += itemCount * chosen.length;
		sandbox.log.clear();
		let outcome: { errors: string[]; crash?: string };
		try {
			const result = await runNode({
				node: NODES[op.node],
				credentials: store,
				parameters: { requestOptions: { requestsPerSecond: 0 }, ...parameters },
				items: items as never,
				continueOnFail,
			});
			outcome = {
				errors: continueOnFail
					? result.items.map((item) => String(item.json.error))
					: [String(result.error?.message)],
			};
		} catch (error) {
			outcome = { errors: [], crash: (error as Error).stack };
		}
		const names = chosen.map((parameter) => parameter.displayName);
		const problems = outcome.errors.flatMap((message, index) =>
			names.some((name) => message.startsWith(`${name}: `)) && message.includes(`[item ${index}]`)
				? []
				: [`item ${index}: ${message}`],
		);
		const requests = sandbox.log.all().map((entry) => `${entry.method} ${entry.path}`);
		if (
			outcome.crash ||
			problems.length ||
			requests.length ||
			outcome.errors.length !== itemCount
		) {
			failures.push({
				run,
				operation: `${op.node} ${op.resource} → ${op.operation}`,
				parameters: chosen.map((parameter) => parameter.path),
				values: items.map((item) => item.json),
				continueOnFail,
				crash: outcome.crash,
				problems,
				errors: outcome.errors,
				requests,
			});
		}
	}
	expect(failures).toEqual([]);
	expect(values).toBeGreaterThanOrEqual(RUNS);
});
