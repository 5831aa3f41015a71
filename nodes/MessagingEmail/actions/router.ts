import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { clientForExecution } from '../../shared/client-factory';
import type { MessagingClient } from '../../shared/transport/client';
import * as bounce from './bounce';
import * as email from './email';
import * as resubscribe from './resubscribe';
import * as sender from './sender';
import * as sendingDomain from './sendingDomain';
import * as unsubscribe from './unsubscribe';

type Operation = { execute: (this: IExecuteFunctions, client: MessagingClient) => Promise<INodeExecutionData[]> };

const resources: Record<string, Record<string, Operation>> = {
	email: { send: email.send, get: email.get, getAll: email.getAll, getCount: email.getCount, getManyById: email.getManyById },
	bounce: { getAll: bounce.getAll, getCount: bounce.getCount },
	unsubscribe: { add: unsubscribe.add, remove: unsubscribe.remove, getAll: unsubscribe.getAll, check: unsubscribe.check },
	resubscribe: { sendRequest: resubscribe.sendRequest },
	sender: { getManyIps: sender.getManyIps, getManyAddresses: sender.getManyAddresses, addAddress: sender.addAddress },
	sendingDomain: { getAll: sendingDomain.getAll, add: sendingDomain.add },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}
	return [await handler.execute.call(this, clientForExecution(this))];
}
