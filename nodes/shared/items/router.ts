import {
	NodeOperationError,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { clientForExecution } from './clientFactory';
import { declareParameters, readParameter } from './parameters';
import type { MessagingClient } from '../transport/client';

/** What every `<operation>.operation.ts` exports besides its description. */
export type Operation = {
	execute: (this: IExecuteFunctions, client: MessagingClient) => Promise<INodeExecutionData[]>;
	/** The operation's parameters; the shared reader checks values by their declared types. */
	description?: INodeProperties[];
};

export type OperationTable = Record<string, Record<string, Operation>>;

/** Runs the selected resource → operation with one paced client for the whole execution. */
export async function runOperation(
	context: IExecuteFunctions,
	resources: OperationTable,
): Promise<INodeExecutionData[][]> {
	const resource = readParameter(context, 'resource', 0) as string;
	const operation = readParameter(context, 'operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler)
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	declareParameters(context, handler.description ?? []);
	return [await handler.execute.call(context, clientForExecution(context))];
}
