import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runOperation, type OperationTable } from '../../shared/router';
import * as blacklist from './blacklist';
import * as campaign from './campaign';
import * as phoneNumber from './phoneNumber';
import * as senderId from './senderId';

/** resource → operation → its file, as each resource's index.ts lists them. */
const resources: OperationTable = {
	blacklist: blacklist.operations,
	campaign: campaign.operations,
	phoneNumber: phoneNumber.operations,
	senderId: senderId.operations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOperation(this, resources);
}
