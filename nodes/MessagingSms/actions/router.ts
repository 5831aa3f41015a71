import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runOperation, type OperationTable } from '../../shared/router';
import * as blacklist from './blacklist';
import * as campaign from './campaign';
import * as phoneNumber from './phoneNumber';
import * as senderId from './senderId';

const resources: OperationTable = {
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
	return await runOperation(this, resources);
}
