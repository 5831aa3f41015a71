import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { clientForExecution } from '../../shared/client-factory';
import type { MessagingClient } from '../../shared/transport/client';
import * as blacklist from './blacklist';
import * as campaign from './campaign';
import * as phoneNumber from './phoneNumber';
import * as senderId from './senderId';

type Operation = { execute: (this: IExecuteFunctions, client: MessagingClient) => Promise<INodeExecutionData[]> };

const resources: Record<string, Record<string, Operation>> = {
	phoneNumber: {
		add: phoneNumber.add,
		addWithVariables: phoneNumber.addWithVariables,
		updateVariables: phoneNumber.updateVariables,
		updateContactVariables: phoneNumber.updateContactVariables,
		remove: phoneNumber.remove,
		get: phoneNumber.get,
	},
	blacklist: { add: blacklist.add, remove: blacklist.remove, getMany: blacklist.getMany, check: blacklist.check },
	campaign: {
		createForList: campaign.createForList,
		sendToNumbers: campaign.sendToNumbers,
		getMany: campaign.getMany,
		get: campaign.get,
		cancel: campaign.cancel,
		getCost: campaign.getCost,
		delete: campaign.delete,
	},
	senderId: { getMany: senderId.getMany },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	return [await handler.execute.call(this, clientForExecution(this))];
}
