import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';

import { invalidInput } from '../values/inputErrors';
import { describeValue } from '../values/objects';

/**
 * THE parameter reader of both action nodes. Same values as `getNodeParameter`, at a fraction of the cost:
 * - a parameter with no expression anywhere in it is the same for every item: read once per execution;
 * - an expression that only names a field of the current item (`{{ $json.a.b }}`, `{{ $json["a b"] }}`,
 *   `{{ $input.item.json.a }}`, or text around such references) is read straight from the input item;
 * - everything else goes through n8n's evaluation, as before.
 * n8n 2.x evaluates expressions in an isolate: one `getNodeParameter` of `{{ $json.phone }}` costs ~180 µs there,
 * reading the field ~0.3 µs. Where the shortcut cannot be sure it gives n8n's answer (a value that is not plain
 * JSON, a missing path through something that is not an object, text with escapes) it asks n8n.
 * test/foundation/parameter-reader.test.ts compares both over a table of expression shapes on both engines.
 *
 * Values are then checked by the parameter's declared type (strict text): see `asText`.
 */

type PathSegment = string | number;
type Plan =
	| { kind: 'constant'; value: unknown }
	| { kind: 'field'; path: PathSegment[] }
	| { kind: 'template'; parts: Array<string | PathSegment[]> }
	/** A collection whose members are each constant or a field read (an Options collection with one mapped entry). */
	| { kind: 'members'; plans: Array<[string, Plan]> }
	| { kind: 'evaluate' };

/** The answer "ask n8n": a field reference that cannot be read safely. */
const UNSURE = Symbol('unsure');

// `$json` or `$input.item.json`, then `.name`, `["name"]`, `['name']` or `[0]` segments.
const IDENTIFIER = '[A-Za-z_$][A-Za-z0-9_$]*';
const SEGMENT = `(?:\\.${IDENTIFIER}|\\[\\s*(?:"[^"\\\\{}]*"|'[^'\\\\{}]*'|\\d+)\\s*\\])`;
const REFERENCE = new RegExp(`^\\s*(?:\\$json|\\$input\\.item\\.json)((?:${SEGMENT})*)\\s*$`);
const SEGMENTS = new RegExp(SEGMENT, 'g');

/** `{{ $json.a["b"][0] }}` → ['a', 'b', 0]; undefined when the code is anything else. */
function fieldPath(code: string): PathSegment[] | undefined {
	const match = REFERENCE.exec(code);
	if (!match) return undefined;
	const path: PathSegment[] = [];
	for (const [segment] of match[1].matchAll(SEGMENTS)) {
		if (segment.startsWith('.')) path.push(segment.slice(1));
		else {
			const inner = segment.slice(1, -1).trim();
			path.push(/^\d+$/.test(inner) ? Number(inner) : inner.slice(1, -1));
		}
	}
	// n8n refuses `.constructor` outright; let it say so.
	if (path.some((key) => key === 'constructor' || key === '__proto__' || key === 'prototype'))
		return undefined;
	return path;
}

function containsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(containsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(containsExpression);
	return false;
}

/** How to read one raw parameter value; computed once per parameter and execution. */
function planFor(raw: unknown): Plan {
	if (!containsExpression(raw)) return { kind: 'constant', value: raw };
	if (isPlainObject(raw)) {
		const plans = Object.entries(raw).map(([key, member]): [string, Plan] => [
			key,
			planFor(member),
		]);
		return plans.some(([, plan]) => plan.kind === 'evaluate')
			? { kind: 'evaluate' }
			: { kind: 'members', plans };
	}
	if (typeof raw !== 'string') return { kind: 'evaluate' };
	const source = raw.slice(1);
	const single = /^\{\{([^{}]*)\}\}$/.exec(source);
	if (single) {
		const path = fieldPath(single[1]);
		return path ? { kind: 'field', path } : { kind: 'evaluate' };
	}
	// Text around references. Escapes, stray braces and `}}` inside code make n8n's splitter the only judge.
	const parts: Array<string | PathSegment[]> = [];
	let rest = source;
	while (rest) {
		const open = rest.indexOf('{{');
		const text = open === -1 ? rest : rest.slice(0, open);
		if (/[{}\\]/.test(text)) return { kind: 'evaluate' };
		if (text) parts.push(text);
		if (open === -1) break;
		const close = rest.indexOf('}}', open + 2);
		if (close === -1) return { kind: 'evaluate' };
		const code = rest.slice(open + 2, close);
		const path = /[{}]/.test(code) ? undefined : fieldPath(code);
		if (!path) return { kind: 'evaluate' };
		parts.push(path);
		rest = rest.slice(close + 2);
	}
	return { kind: 'template', parts };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object') return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** A copy of plain JSON (finite numbers, strings, booleans, null, plain objects and arrays), or UNSURE. */
function plainCopy(value: unknown, depth = 0): unknown {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? value : UNSURE;
	if (depth > 50) return UNSURE;
	if (Array.isArray(value)) {
		const copy: unknown[] = [];
		for (let index = 0; index < value.length; index++) {
			if (!(index in value)) return UNSURE;
			const entry = plainCopy(value[index], depth + 1);
			if (entry === UNSURE) return UNSURE;
			copy.push(entry);
		}
		return copy;
	}
	if (isPlainObject(value)) {
		const copy: Record<string, unknown> = {};
		for (const key of Object.keys(value)) {
			const entry = value[key];
			// n8n drops undefined members of objects it copies out of the isolate; do not guess.
			if (entry === undefined) return UNSURE;
			const copied = plainCopy(entry, depth + 1);
			if (copied === UNSURE) return UNSURE;
			copy[key] = copied;
		}
		return copy;
	}
	return UNSURE;
}

/** The value at `path` in the item's JSON, or UNSURE. A missing key of a plain object is undefined. */
function readField(json: unknown, path: PathSegment[]): unknown {
	let value: unknown = json;
	for (const key of path) {
		if (typeof key === 'number') {
			if (!Array.isArray(value) || key >= value.length) return UNSURE;
			value = value[key];
		} else {
			if (!isPlainObject(value)) return UNSURE;
			if (!Object.prototype.hasOwnProperty.call(value, key)) {
				// Inherited names (toString, hasOwnProperty…) are n8n's business.
				return key in Object.prototype ? UNSURE : undefined;
			}
			value = value[key];
		}
	}
	if (value === undefined) return UNSURE;
	return plainCopy(value);
}

/** A referenced value inside text, as n8n writes it; UNSURE for objects (n8n writes `[Object: …]`). */
function inText(value: unknown): string | typeof UNSURE {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return UNSURE;
}

/** A fresh copy per read, as n8n gives: an operation may change what it got without touching the next item's. */
function copyOf(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(copyOf);
	if (value !== null && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) copy[key] = copyOf(entry);
		return copy;
	}
	return value;
}

/** The declaration of `name` (`a.b.c` paths go through collections and fixed collections). */
function declarationAt(
	properties: INodeProperties[],
	name: string,
): INodeProperties | INodePropertyCollection | undefined {
	const [first, ...rest] = name.split('.');
	let current: INodeProperties | INodePropertyCollection | undefined = properties.find(
		(property) => property.name === first,
	);
	for (const key of rest) {
		if (!current) return undefined;
		const options = (current as INodeProperties).options ?? [];
		const values = (current as INodePropertyCollection).values;
		const children = (values ?? options) as Array<INodeProperties | INodePropertyCollection>;
		current = children.find((child) => child.name === key);
	}
	return current;
}

/**
 * Strict text: a text parameter is text. Numbers and booleans become their usual text (`42`, `true`) because
 * that is what `{{ $json.code }}` means; nothing becomes ''; an object or array is refused, so it can never
 * go out as `[object Object]` or `a,b`.
 */
/** What to do when an expression gives an object or a list where text is read. */
const TEXT_HINT =
	'The expression gives an object or a list. Point it at the field that holds the text (for example {{ $json.subject }} rather than {{ $json }}), or turn the value into text yourself, for example {{ JSON.stringify($json.subject) }}.';

function asText(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	displayName: string,
	owner?: string,
): string {
	if (typeof value === 'string') return value;
	if (value === undefined || value === null) return '';
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'boolean') return String(value);
	// A field of a row (Variables → Value) is named by the parameter a user sees, then the field.
	throw invalidInput(
		context,
		itemIndex,
		owner ?? displayName,
		`${owner ? `${displayName} ` : ''}must be text, but the value is ${describeValue(value)}`,
		TEXT_HINT,
	);
}

/**
 * Applies the declared types to a read value: text parameters (also inside collections and the rows of fixed
 * collections) must be text. `owner` is the fixed collection whose rows are being checked.
 */
function checkDeclared(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	declaration: INodeProperties | INodePropertyCollection | undefined,
	owner?: string,
): unknown {
	if (!declaration) return value;
	if (!('type' in declaration)) {
		// One group of a fixed collection: an object of its values, or a list of them.
		return checkRows(
			context,
			itemIndex,
			value,
			declaration.values,
			owner ?? declaration.displayName,
		);
	}
	const property = declaration;
	switch (property.type) {
		case 'string':
			return asText(context, itemIndex, value, property.displayName, owner);
		case 'options':
			if (value !== null && typeof value === 'object')
				throw invalidInput(
					context,
					itemIndex,
					owner ?? property.displayName,
					`${owner ? `${property.displayName} ` : ''}must be one of the choices, but the value is ${describeValue(value)}`,
				);
			return value;
		case 'collection':
			return checkRows(
				context,
				itemIndex,
				value,
				(property.options ?? []) as INodeProperties[],
				owner,
			);
		case 'fixedCollection': {
			if (!isPlainObject(value)) return value;
			for (const group of (property.options ?? []) as INodePropertyCollection[]) {
				if (value[group.name] !== undefined)
					value[group.name] = checkRows(
						context,
						itemIndex,
						value[group.name],
						group.values,
						property.displayName,
					);
			}
			return value;
		}
		default:
			return value;
	}
}

function checkRows(
	context: IExecuteFunctions,
	itemIndex: number,
	value: unknown,
	fields: INodeProperties[],
	owner?: string,
): unknown {
	if (Array.isArray(value))
		return value.map((row) => checkRows(context, itemIndex, row, fields, owner));
	if (!isPlainObject(value)) return value;
	for (const field of fields) {
		if (value[field.name] !== undefined)
			value[field.name] = checkDeclared(context, itemIndex, value[field.name], field, owner);
	}
	return value;
}

export interface ReadOptions {
	/**
	 * The parameter takes a list as well as text (recipients, phones, IDs): skip the text check of its own
	 * value; the operation's parser checks every entry.
	 */
	list?: boolean;
	/** As getNodeParameter's extractValue: a resource locator's value. */
	extractValue?: boolean;
}

/** Shared default (read per item: no object per call). */
const NO_OPTIONS: ReadOptions = {};

/** A planned value read from the item's JSON, or UNSURE (then n8n evaluates the whole parameter). */
function readPlanned(plan: Plan, json: IDataObject): unknown {
	switch (plan.kind) {
		case 'constant':
			return copyOf(plan.value);
		case 'field':
			return readField(json, plan.path);
		case 'template': {
			let text = '';
			for (const part of plan.parts) {
				if (typeof part === 'string') {
					text += part;
					continue;
				}
				const value = readField(json, part);
				const written = value === UNSURE ? UNSURE : inText(value);
				if (written === UNSURE) return UNSURE;
				text += written;
			}
			return text;
		}
		case 'members': {
			const object: Record<string, unknown> = {};
			for (const [key, member] of plan.plans) {
				const value = readPlanned(member, json);
				if (value === UNSURE) return UNSURE;
				object[key] = value;
			}
			return object;
		}
		default:
			return UNSURE;
	}
}

class ParameterReader {
	private readonly plans = new Map<string, Plan>();
	private items: INodeExecutionData[] | undefined;
	private properties: INodeProperties[] = [];
	private readonly declarations = new Map<string, ReturnType<typeof declarationAt>>();
	private nodeParameters: INodeParameters | undefined;

	constructor(private readonly context: IExecuteFunctions) {}

	/** The node's saved parameters, taken once: n8n's getNode() deep-copies the whole node on every call. */
	private get parameters(): INodeParameters {
		return (this.nodeParameters ??= this.context.getNode().parameters);
	}

	declare(properties: INodeProperties[]) {
		this.properties = properties;
		this.declarations.clear();
	}

	/** `getNodeParameter` without the declared-type check. */
	resolve(name: string, itemIndex: number, fallback?: unknown): unknown {
		let plan = this.plans.get(name);
		if (!plan) {
			const raw = rawParameter(this.parameters, name);
			// Absent: n8n answers with the fallback (and throws without one); not cached, fallbacks differ.
			if (raw === undefined) {
				return fallback === undefined
					? this.context.getNodeParameter(name, itemIndex)
					: copyOf(fallback);
			}
			plan = planFor(raw);
			this.plans.set(name, plan);
		}
		if (plan.kind === 'constant') return copyOf(plan.value);
		if (plan.kind === 'evaluate') return this.context.getNodeParameter(name, itemIndex, fallback);
		this.items ??= this.context.getInputData();
		const json = this.items[itemIndex]?.json;
		if (json === undefined) return this.context.getNodeParameter(name, itemIndex, fallback);
		const value = readPlanned(plan, json);
		return value === UNSURE ? this.context.getNodeParameter(name, itemIndex, fallback) : value;
	}

	private declarationOf(name: string) {
		if (!this.declarations.has(name))
			this.declarations.set(name, declarationAt(this.properties, name));
		return this.declarations.get(name);
	}

	read(name: string, itemIndex: number, fallback?: unknown, options = NO_OPTIONS): unknown {
		if (options.extractValue) return this.extract(name, itemIndex, fallback);
		const declaration = this.declarationOf(name) as INodeProperties | undefined;
		// n8n converts and checks a parameter that declares validateType itself; none of ours does today.
		const value = declaration?.validateType
			? this.context.getNodeParameter(name, itemIndex, fallback)
			: this.resolve(name, itemIndex, fallback);
		if (options.list && value !== null && typeof value === 'object') return value;
		return checkDeclared(this.context, itemIndex, value, declaration);
	}

	/**
	 * `getNodeParameter(…, { extractValue: true })`. A resource locator whose modes extract nothing gives its
	 * `value` (or the parameter itself when it is not a locator, as in older workflows); that value is an ID or a
	 * name, so an object or a list is refused. Other parameters without an extractValue rule are read as usual.
	 */
	private extract(name: string, itemIndex: number, fallback: unknown): unknown {
		const declaration = this.declarationOf(name) as INodeProperties | undefined;
		if (
			declaration &&
			declaration.type !== 'resourceLocator' &&
			declaration.type !== 'filter' &&
			!declaration.extractValue
		)
			return this.read(name, itemIndex, fallback);
		const raw = rawParameter(this.parameters, name);
		const plain =
			declaration?.type === 'resourceLocator' &&
			!(declaration.modes ?? []).some((mode) => mode.extractValue);
		if (!plain || raw === undefined)
			return this.context.getNodeParameter(name, itemIndex, fallback, { extractValue: true });
		const value =
			isPlainObject(raw) && 'mode' in raw && 'value' in raw && !containsExpression(raw.mode)
				? this.resolve(`${name}.value`, itemIndex)
				: this.resolve(name, itemIndex, fallback);
		if (value !== null && typeof value === 'object')
			throw invalidInput(
				this.context,
				itemIndex,
				declaration.displayName,
				`must be text, but the value is ${describeValue(value)}`,
				TEXT_HINT,
			);
		return value;
	}
}

function rawParameter(parameters: IDataObject, name: string): unknown {
	let value: unknown = parameters;
	for (const key of name.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

const readers = new WeakMap<IExecuteFunctions, ParameterReader>();

/** The reader of one execution (n8n makes a new context per node run). */
function readerOf(context: IExecuteFunctions): ParameterReader {
	let reader = readers.get(context);
	if (!reader) {
		reader = new ParameterReader(context);
		readers.set(context, reader);
	}
	return reader;
}

/** The router gives the operation's declared parameters, so values are checked by their declared types. */
export function declareParameters(context: IExecuteFunctions, properties: INodeProperties[]) {
	readerOf(context).declare(properties);
}

/**
 * Reads a parameter as `getNodeParameter(name, itemIndex, fallback)` would, the cheap way, then applies its
 * declared type: a text parameter (also inside a collection) gives text or fails the item naming it.
 */
export function readParameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: ReadOptions,
): unknown {
	return readerOf(context).read(name, itemIndex, fallback, options);
}

/** A text parameter as text: its declared display name in errors (the name if it has no declaration). */
export function readText(context: IExecuteFunctions, name: string, itemIndex: number): string {
	// A resource locator (Template) gives its value; anything else is read as it is (extract → read).
	const value = readParameter(context, name, itemIndex, '', { extractValue: true });
	return typeof value === 'string' ? value : asText(context, itemIndex, value, name);
}

/** Exposed for the equality test: the value `getNodeParameter` would give, without the declared-type check. */
export function resolveParameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
): unknown {
	return readerOf(context).resolve(name, itemIndex, fallback);
}
