import { createHash } from 'node:crypto';

import {
	NodeApiError,
	NodeOperationError,
	type DeduplicationScope,
	type ICheckProcessedOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { DAY_MS } from '../values/serviceTime';
import { invalidInput } from '../values/inputErrors';
import { withItemIndex, type SendGate } from '../items/engine';
import { describeValue } from '../values/objects';
import { readParameter, resolveParameter } from '../items/parameters';

/**
 * Send Once per Key: the keys of sent messages are kept in n8n's own deduplication store
 * (`this.helpers.checkProcessedAndRecord`: n8n's database, so they survive restarts and every worker of queue mode
 * sees them). What is remembered, when, and the limits of that store: docs/send-once.md.
 *
 * A key is claimed (recorded) before its message goes out, in one store call for the whole run, and released
 * again when the service refused it or it was never sent, so only accepted (or possibly accepted) messages stay
 * remembered. Claiming first is what keeps two runs that overlap from both sending: the second sees the claim.
 */

/** n8n's store keeps at most this many values per node or workflow (the oldest go first); two per key. */
export const MAX_KEYS = 100_000;
const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: 2 * MAX_KEYS };
const OPTION = 'Send Once per Key';
const FORGET_HINT = `To send it anyway, run once with ${OPTION} → Forget First: This Run's Keys.`;

interface Settings {
	scope: DeduplicationScope;
	days: number;
	forget: 'nothing' | 'items' | 'all';
	/** The Key was left empty: each item's key is a digest of its message. */
	digest: boolean;
}

/** What happened to a key in this run. */
type KeyState =
	| { state: 'claimed'; item: number }
	| { state: 'sending'; item: number }
	| { state: 'sent'; item: number; at: string; id: string | null }
	| { state: 'unknown'; item: number }
	| { state: 'released'; item: number }
	| { state: 'remembered' };

function readSettings(context: IExecuteFunctions): Settings | undefined {
	const raw = (context.getNode().parameters.options as IDataObject | undefined)?.sendOnce as
		IDataObject | undefined;
	if (!raw?.settings) return undefined;
	// Field by field: the Key is read per item (a bad one fails its item, not the run).
	const setting = (name: string, fallback: unknown) =>
		readParameter(context, `options.sendOnce.settings.${name}`, 0, fallback);
	const settings = {
		days: setting('days', 30),
		scope: setting('scope', 'node'),
		forget: setting('forget', 'nothing'),
	};
	const days = Number(settings.days ?? 30);
	if (!Number.isInteger(days) || days < 0)
		throw invalidInput(
			context,
			0,
			OPTION,
			`Remember For (Days) must be a whole number of days, 0 or more, but the value is ${describeValue(settings.days)}`,
		);
	const scope = settings.scope ?? 'node';
	if (scope !== 'node' && scope !== 'workflow')
		throw invalidInput(
			context,
			0,
			OPTION,
			`Remember Per is an unknown choice ${describeValue(scope)}`,
		);
	const forget = settings.forget ?? 'nothing';
	if (forget !== 'nothing' && forget !== 'items' && forget !== 'all')
		throw invalidInput(
			context,
			0,
			OPTION,
			`Forget First is an unknown choice ${describeValue(forget)}`,
		);
	const key = (raw.settings as IDataObject).key;
	return { scope, days, forget, digest: key === undefined || key === '' };
}

/** The gate of one run; undefined when the operation's Send Once per Key option is not set. */
export function sendOnceGate(context: IExecuteFunctions): SendOnceGate | undefined {
	const settings = readSettings(context);
	return settings && new SendOnceGate(context, settings, Date.now());
}

export class SendOnceGate implements SendGate {
	/** Each read item's key. */
	private readonly keyOf = new Map<number, string>();
	private readonly keys = new Map<string, KeyState>();
	/** Items not sent because their key was sent before, or by an earlier item of this run. */
	private readonly skipped: number[] = [];
	private readonly requests = new Set<Promise<unknown>>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly settings: Settings,
		private readonly now: number,
	) {}

	/**
	 * Reads an item's key while the item is read (bad keys fail before anything is sent). `message` is what the
	 * default key digests: what makes the message the same message (sender, recipients, subject, content).
	 */
	readKey(itemIndex: number, message: () => unknown): string {
		const key = this.settings.digest ? digestKey(message()) : this.givenKey(itemIndex);
		this.keyOf.set(itemIndex, key);
		return key;
	}

	private givenKey(itemIndex: number): string {
		// Read without the text parameters' conversion, which turns null into empty text: a key that is null
		// points at a missing field and must not quietly become the default.
		const value = resolveParameter(this.context, 'options.sendOnce.settings.key', itemIndex);
		if (typeof value === 'number' && Number.isFinite(value)) return String(value);
		if (typeof value !== 'string')
			throw invalidInput(
				this.context,
				itemIndex,
				OPTION,
				`Key must be text or a number, but the value is ${describeValue(value)}`,
				'Point the expression at a field that holds text, e.g. {{ $json.orderId }}, or leave Key empty to use a digest of the message.',
			);
		const key = value.trim();
		if (!key)
			throw invalidInput(
				this.context,
				itemIndex,
				OPTION,
				'Key is empty',
				'The expression gave empty text: check the field it reads, or leave Key empty to use a digest of the message.',
			);
		return key;
	}

	/** The store's values of a key: one per period of Remember For (the current and the previous one). */
	private storeValues(key: string): string[] {
		const { days } = this.settings;
		if (days === 0) return [`send-once:${key}`];
		const period = Math.floor(this.now / DAY_MS / days) * days;
		return [`send-once:${period}:${key}`, `send-once:${period - days}:${key}`];
	}

	async admit(itemIndexes: number[]): Promise<Set<number>> {
		const { scope, forget } = this.settings;
		const helpers = this.context.helpers;
		const firstItem = new Map<string, number>();
		for (const itemIndex of itemIndexes) {
			const key = this.keyOf.get(itemIndex)!;
			if (firstItem.has(key)) this.skipped.push(itemIndex);
			else firstItem.set(key, itemIndex);
		}
		const keys = [...firstItem.keys()];
		const valuesOf = new Map(keys.map((key) => [key, this.storeValues(key)]));
		const admitted = new Set<number>();
		if (!keys.length && forget === 'nothing') return admitted;
		await this.store(async () => {
			if (forget === 'all') await helpers.clearAllProcessedItems(scope, STORE);
			if (forget === 'items')
				await helpers.removeProcessed([...valuesOf.values()].flat(), scope, STORE);
			const answer = await helpers.checkProcessedAndRecord(
				[...valuesOf.values()].flat(),
				scope,
				STORE,
			);
			const processed = new Set(answer.processed.map(String));
			const extended: string[] = [];
			for (const key of keys) {
				const values = valuesOf.get(key)!;
				const item = firstItem.get(key)!;
				if (!values.some((value) => processed.has(value))) {
					this.keys.set(key, { state: 'claimed', item });
					admitted.add(item);
					continue;
				}
				this.keys.set(key, { state: 'remembered' });
				this.skipped.push(item);
				// Sent in the previous period only: the value of this period was just recorded, which would make
				// the key last another period each time it is seen. Take it back.
				extended.push(...values.filter((value) => !processed.has(value)));
			}
			if (extended.length) await helpers.removeProcessed(extended, scope, STORE);
		});
		return admitted;
	}

	async send(
		itemIndexes: number[],
		request: () => Promise<INodeExecutionData[]>,
	): Promise<INodeExecutionData[]> {
		const keys = [...new Set(itemIndexes.map((itemIndex) => this.keyOf.get(itemIndex)!))];
		for (const key of keys) this.keys.set(key, { state: 'sending', item: this.itemOf(key) });
		const running = this.sendAndRecord(keys, request);
		this.requests.add(running);
		try {
			return await running;
		} finally {
			this.requests.delete(running);
		}
	}

	private itemOf(key: string): number {
		const state = this.keys.get(key)!;
		return 'item' in state ? state.item : -1;
	}

	private async sendAndRecord(
		keys: string[],
		request: () => Promise<INodeExecutionData[]>,
	): Promise<INodeExecutionData[]> {
		let output: INodeExecutionData[];
		try {
			output = await request();
		} catch (error) {
			if (sendOutcomeUnknown(error)) {
				for (const key of keys) this.keys.set(key, { state: 'unknown', item: this.itemOf(key) });
				addDescription(
					error,
					`${OPTION}: ${keys.length === 1 ? `the key "${keys[0]}" stays` : `the keys ${keys.map((key) => `"${key}"`).join(', ')} stay`} remembered as possibly sent, so a re-run does not send ${keys.length === 1 ? 'it' : 'them'} again. Check what was sent. ${FORGET_HINT}`,
				);
			} else {
				await this.release(keys);
			}
			// Thrown on as the transport made it (the engine tags the item).
			return await Promise.reject(error as Error);
		}
		const at = new Date().toISOString();
		const first = output[0]?.json ?? {};
		const id = first.id ?? first.campaign_id;
		for (const key of keys)
			this.keys.set(key, {
				state: 'sent',
				item: this.itemOf(key),
				at,
				id: id === undefined || id === null || id === '' ? null : String(id as string),
			});
		for (const { json } of output) {
			json.alreadySent = false;
			if (keys.length === 1) json.sendOnceKey = keys[0];
			else json.sendOnceKeys = keys;
		}
		return output;
	}

	/** Forgets keys whose message was refused or never sent, so a re-run sends them. */
	private async release(keys: string[]) {
		if (!keys.length) return;
		for (const key of keys) this.keys.set(key, { state: 'released', item: this.itemOf(key) });
		await this.store(
			async () =>
				await this.context.helpers.removeProcessed(
					keys.flatMap((key) => this.storeValues(key)),
					this.settings.scope,
					STORE,
				),
		);
	}

	async settle(): Promise<void> {
		// Requests still under way when another failed stop the run: wait for their outcome first.
		while (this.requests.size) await Promise.allSettled([...this.requests]);
		const neverSent = [...this.keys]
			.filter(([, key]) => key.state === 'claimed')
			.map(([key]) => key);
		await this.release(neverSent);
	}

	notSent(): INodeExecutionData[] {
		return this.skipped.map((itemIndex) => {
			const key = this.keyOf.get(itemIndex)!;
			const state = this.keys.get(key)!;
			const pairedItem = { item: itemIndex };
			if (state.state === 'remembered' || state.state === 'sent') {
				const json: IDataObject = {
					alreadySent: true,
					sendOnceKey: key,
					firstSentAt: state.state === 'sent' ? state.at : null,
					firstSendId: state.state === 'sent' ? state.id : null,
				};
				return { json, pairedItem };
			}
			const problem =
				state.state === 'unknown'
					? `may have been sent with item ${state.item} (its outcome is unknown)`
					: `was not sent with item ${state.item}, which failed`;
			return {
				json: {
					error: `Not sent: the ${OPTION} key "${key}" ${problem} [item ${itemIndex}]`,
					alreadySent: false,
					sendOnceKey: key,
				},
				pairedItem,
			};
		});
	}

	/** A failure of n8n's store stops the run before anything is sent (or, releasing, says what is kept). */
	private async store(call: () => Promise<void>) {
		try {
			await call();
		} catch (error) {
			throw withItemIndex(
				new NodeOperationError(
					this.context.getNode(),
					`${OPTION}: n8n's store of sent keys failed: ${error instanceof Error ? error.message : String(error)}`,
					{
						description:
							"Nothing more was sent. Run the node again; if it keeps failing, check n8n's database (and that no Remove Duplicates node of this workflow keeps per workflow in another mode).",
					},
				),
				0,
			);
		}
	}
}

/** The default key: a digest of the message, so the same message to the same recipients is sent once. */
export function digestKey(message: unknown): string {
	return `auto:${createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 22)}`;
}

function sendOutcomeUnknown(error: unknown): boolean {
	return (
		(error instanceof NodeApiError || error instanceof NodeOperationError) &&
		error.context.sendOutcomeUnknown === true
	);
}

function addDescription(error: unknown, text: string) {
	if (error instanceof NodeApiError || error instanceof NodeOperationError)
		error.description = error.description ? `${error.description}. ${text}` : text;
}
