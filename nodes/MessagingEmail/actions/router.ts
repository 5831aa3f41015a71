import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runOperation, type OperationTable } from '../../shared/router';
import * as bounce from './bounce';
import * as email from './email';
import * as resubscribe from './resubscribe';
import * as senderAddress from './senderAddress';
import * as sendingDomain from './sendingDomain';
import * as sendingIp from './sendingIp';
import * as unsubscribe from './unsubscribe';

/** resource → operation → its file, as each resource's index.ts lists them. */
const resources: OperationTable = {
	bounce: bounce.operations,
	email: email.operations,
	resubscribe: resubscribe.operations,
	senderAddress: senderAddress.operations,
	sendingDomain: sendingDomain.operations,
	sendingIp: sendingIp.operations,
	unsubscribe: unsubscribe.operations,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOperation(this, resources);
}
