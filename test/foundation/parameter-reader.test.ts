/**
 * The shared parameter reader (nodes/shared/items/parameters.ts) gives exactly what n8n's getNodeParameter gives, on
 * both of n8n's expression engines (the isolate, n8n 2.x's default, and the legacy in-process one), for a table
 * of expression shapes over items with missing fields, numbers, arrays, objects, nested paths and odd keys.
 * It also proves the cheap path is really taken for the shapes it claims (no call into n8n's evaluation).
 */
import {
	Expression,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { resolveParameter } from '../../nodes/shared/items/parameters';
import { CredentialStore } from '../harness/credentials';
import {
	disposeExpressionEngine,
	runNode,
	type ExpressionEngine,
	type InputItem,
} from '../harness/run-node';

/** [expression, read without n8n's evaluation for every item below?] */
const SHAPES: Array<[string | IDataObject, boolean]> = [
	['={{ $json.a }}', true],
	['={{$json.a}}', true],
	['={{      $json.a    }}', true],
	['={{\n  $json.a\n}}', true],
	['={{ $json["a"] }}', true],
	["={{ $json['a'] }}", true],
	['={{ $json[ "a" ] }}', true],
	['={{ $input.item.json.a }}', true],
	['={{ $input.item.json["a"] }}', true],
	['={{ $json.n }}', true],
	['={{ $json.f }}', true],
	['={{ $json.z }}', true],
	['={{ $json.neg }}', true],
	['={{ $json.big }}', true],
	['={{ $json.t }}', true],
	['={{ $json.fa }}', true],
	['={{ $json.nul }}', true],
	['={{ $json.empty }}', true],
	['={{ $json.sp }}', true],
	['={{ $json.uni }}', true],
	['={{ $json.multi }}', true],
	['={{ $json.arr }}', true],
	['={{ $json.nums }}', true],
	['={{ $json.obj }}', true],
	['={{ $json.nested }}', false],
	['={{ $json.nested.a }}', false],
	['={{ $json.nested.a.b }}', false],
	['={{ $json.nested.a.b.c }}', false],
	['={{ $json.nested["a"]["b"] }}', false],
	['={{ $json.nested.a["b"].c }}', false],
	['={{ $json.missing }}', true],
	['={{ $json.missing.deeper }}', false],
	['={{ $json.missing.toUpperCase() }}', false],
	['={{ $json["first name"] }}', true],
	['={{ $json["a-b"] }}', true],
	['={{ $json.arr[0] }}', false],
	['={{ $json.arr[1] }}', false],
	['={{ $json.list[0].email }}', false],
	['={{ $json }}', true],
	['={{ $input.item.json }}', true],
	['=Hello {{ $json.a }}!', true],
	['=Hi {{ $json.n }} and {{ $json.t }}, {{ $json.fa }}', true],
	['={{ $json.a }}{{ $json.n }}', true],
	['= {{ $json.a }}', true],
	['={{ $json.a }} ', true],
	['=x{{ $json.missing }}y', true],
	['=x{{ $json.nul }}y', true],
	['=Big {{ $json.big }} / {{ $json.f }} / {{ $json.neg }}', true],
	['=line one\nline two {{ $json.uni }}', true],
	['=x{{ $json.obj }}y', false],
	['=x{{ $json.arr }}y', false],
	['=plain text', true],
	['=', true],
	['=a\\{{ $json.a }}', false],
	['={{ $json.a.toUpperCase() }}', false],
	['={{ $json.a + 1 }}', false],
	['={{ $json.arr.length }}', false],
	['={{ $json.a ?? "d" }}', false],
	['={{ 5 }}', false],
	['={{ "x" }}', false],
	['={{ $json.a.length }}', false],
	['={{ $json.a }} and {{ $json.a.length }}', false],
	['={{ $("Input").item.json.a }}', false],
	['plain', true],
	['', true],
	['x {{ $json.a }}', true],
	[{ key: 'value', list: [1, 'two', { three: 3 }] }, true],
	[{ key: '={{ $json.a }}', other: 'fixed' }, false],
	// An Options collection with a mapped entry inside a fixed collection (Send Once per Key → Key).
	[
		{ sendOnce: { settings: { key: '={{ $json.a }}-confirmation', scope: 'node' } }, dryRun: true },
		false,
	],
	[{ outer: { inner: '={{ $json.n }}' }, code: '={{ $json.n + 1 }}' }, false],
];

/** Items over which every shape is read; some make the cheap path step aside (e.g. a string where an object was). */
const ITEMS: IDataObject[] = [
	{
		a: 'text',
		n: 5,
		f: 1.5,
		z: 0,
		neg: -3,
		big: 1e21,
		t: true,
		fa: false,
		nul: null,
		empty: '',
		sp: '  padded  ',
		uni: 'ünï 😀',
		multi: 'l1\nl2',
		arr: ['a', 'b'],
		nums: [1, 2],
		obj: { x: 1, y: 'two', z: [true, null] },
		nested: { a: { b: { c: 'deep' } } },
		'first name': 'Ann',
		'a-b': 'dash',
		list: [{ email: 'x@y.z' }],
	},
	{},
	{ a: 42, nested: 'a string, not an object', arr: [], obj: {}, list: [] },
	{ a: null, nested: { a: null }, arr: [null], obj: { u: [1, { v: 2 }] }, n: -0 },
	{ a: '', nested: { a: { b: [] } }, arr: [['x'], []], list: [{}], t: 'true' },
];

type Outcome = { value?: string; error?: string };
const outcome = (read: () => unknown): Outcome => {
	try {
		const value = read();
		return {
			value: `${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}:${JSON.stringify(value)}`,
		};
	} catch (error) {
		return { error: (error as Error).message };
	}
};

interface Observation {
	shape: number;
	item: number;
	n8n: Outcome;
	reader: Outcome;
	evaluated: boolean;
}

let observations: Observation[] = [];
let engineInUse = '';

class ReaderProbe implements INodeType {
	description = {
		displayName: 'Reader Probe',
		name: 'readerProbe',
		group: ['transform'],
		version: 1,
		description: 'Test-only',
		defaults: { name: 'Reader Probe' },
		inputs: ['main'],
		outputs: ['main'],
		properties: SHAPES.map((_, index) => ({
			displayName: `Shape ${index}`,
			name: `p${index}`,
			type: 'json',
			default: '',
		})),
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		engineInUse = Expression.getActiveImplementation();
		let evaluations = 0;
		// The reader on a context that counts its calls into n8n's evaluation.
		const counted = Object.create(this) as IExecuteFunctions;
		counted.getNodeParameter = ((...args: Parameters<IExecuteFunctions['getNodeParameter']>) => {
			evaluations++;
			return this.getNodeParameter(...args);
		}) as IExecuteFunctions['getNodeParameter'];
		for (let item = 0; item < items.length; item++) {
			for (let shape = 0; shape < SHAPES.length; shape++) {
				const n8n = outcome(() => this.getNodeParameter(`p${shape}`, item));
				const before = evaluations;
				const reader = outcome(() => resolveParameter(counted, `p${shape}`, item));
				observations.push({ shape, item, n8n, reader, evaluated: evaluations > before });
			}
		}
		return [items];
	}
}

async function observe(engine: ExpressionEngine): Promise<Observation[]> {
	observations = [];
	const parameters = Object.fromEntries(
		SHAPES.map(([value], index) => [`p${index}`, value]),
	) as INodeParameters;
	const items: InputItem[] = ITEMS.map((json) => ({ json }));
	const result = await runNode({
		node: new ReaderProbe(),
		parameters,
		items,
		credentials: new CredentialStore({}),
		engine,
	});
	if (result.error) throw result.error;
	return observations;
}

afterAll(async () => await disposeExpressionEngine());

describe.each<ExpressionEngine>(['vm', 'legacy'])('parameter reader on the %s engine', (engine) => {
	let seen: Observation[];
	beforeAll(async () => {
		seen = await observe(engine);
	});

	it('reads every shape for every item, evaluated by that engine', () => {
		expect(engineInUse).toBe(engine);
		expect(seen).toHaveLength(SHAPES.length * ITEMS.length);
	});

	it('covers values of every kind (the table is not trivial; n8n answers a broken path with undefined)', () => {
		const kinds = new Set(seen.map(({ n8n }) => (n8n.error ? 'error' : n8n.value!.split(':')[0])));
		expect([...kinds].sort()).toEqual(
			['array', 'boolean', 'null', 'number', 'object', 'string', 'undefined'].sort(),
		);
		const missing = seen.find(
			({ shape, item }) => SHAPES[shape][0] === '={{ $json.missing }}' && item === 0,
		);
		expect(missing?.n8n).toEqual({ value: 'undefined:undefined' });
	});

	it('gives what getNodeParameter gives, value and type, or the same error', () => {
		const differences = seen
			.filter(({ n8n, reader }) => JSON.stringify(n8n) !== JSON.stringify(reader))
			.map(({ shape, item, n8n, reader }) => ({ shape: SHAPES[shape][0], item, n8n, reader }));
		expect(differences).toEqual([]);
	});

	it('takes the cheap path for the shapes it claims, for every item', () => {
		const evaluatedCheap = seen
			.filter(({ shape, evaluated }) => SHAPES[shape][1] && evaluated)
			.map(({ shape, item }) => ({ shape: SHAPES[shape][0], item }));
		expect(evaluatedCheap).toEqual([]);
	});

	it('takes the cheap path for field references wherever the item has the path', () => {
		// Shapes marked false are cheap on the items that hold their path and evaluated where it breaks off.
		const cheapOnFirstItem = seen.filter(
			({ shape, item, evaluated }) =>
				item === 0 &&
				!evaluated &&
				!SHAPES[shape][1] &&
				String(SHAPES[shape][0]).includes('$json.nested'),
		);
		expect(cheapOnFirstItem.length).toBe(6);
	});
});
