import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runOperation, type OperationTable } from '../../shared/items/router';
import { resources } from './resources';

/** resource → operation → its file, as each resource's index.ts lists them. */
const table: OperationTable = Object.fromEntries(
	Object.entries(resources).map(([resource, { operations }]) => [resource, operations]),
);

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOperation(this, table);
}
