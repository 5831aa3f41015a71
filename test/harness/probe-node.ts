import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { clientForExecution } from '../../nodes/shared/items/clientFactory';
import { runPerItem } from '../../nodes/shared/items/engine';

/**
 * A test-only node that sends one request per item through the package's real transport, with the method,
 * path, query and body given as parameters. The foundation's tests use it to exercise the transport itself
 * (token exchange, retries, error mapping, pagination) independently of any one operation.
 */
export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['output'],
		version: 1,
		description: 'Test-only',
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'messagingServiceApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/' },
			{ displayName: 'Query', name: 'query', type: 'json', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{
				displayName: 'Idempotent',
				name: 'idempotent',
				type: 'options',
				options: [
					{ name: 'Default', value: 'default' },
					{ name: 'Yes', value: 'yes' },
					{ name: 'No', value: 'no' },
				],
				default: 'default',
			},
			{
				displayName: 'Result False Is Answer',
				name: 'resultFalseIsAnswer',
				type: 'boolean',
				default: false,
			},
			{ displayName: 'Unwrap Single', name: 'unwrapSingle', type: 'boolean', default: false },
			{ displayName: 'Paginate', name: 'paginate', type: 'json', default: '' },
			{ displayName: 'Request Options', name: 'requestOptions', type: 'json', default: {} },
		],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const client = clientForExecution(this);
		const param = (name: string, itemIndex: number, fallback: unknown) => {
			const value = this.getNodeParameter(name, itemIndex, fallback);
			return value === ''
				? undefined
				: typeof value === 'string' && /^[[{]/.test(value)
					? JSON.parse(value)
					: value;
		};
		const idempotence = { default: undefined, yes: true, no: false };
		return [
			await runPerItem(this, client, {
				prepare: (itemIndex) => ({
					method: param('method', itemIndex, 'GET') as 'GET',
					path: param('path', itemIndex, '/') as string,
					query: param('query', itemIndex, undefined) as IDataObject | undefined,
					body: param('body', itemIndex, undefined) as IDataObject | undefined,
					idempotent:
						idempotence[param('idempotent', itemIndex, 'default') as keyof typeof idempotence],
					resultFalseIsAnswer: param('resultFalseIsAnswer', itemIndex, false) as boolean,
					unwrapSingle: param('unwrapSingle', itemIndex, false) as boolean,
					paginate: param('paginate', itemIndex, undefined) as
						{ returnAll: boolean; limit?: number; pageSize?: number } | undefined,
					itemIndex,
				}),
				send: async ({ paginate, ...request }) => {
					if (paginate) return (await client.paginate(request, paginate)) as IDataObject[];
					const body = await client.request(request);
					return { response: body as IDataObject };
				},
			}),
		];
	}
}
