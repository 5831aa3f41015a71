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
	blacklist: {
		add: blacklist.add,
		remove: blacklist.remove,
		getAll: blacklist.getAll,
		check: blacklist.check,
	},
	campaign: {
		createForList: campaign.createForList,
		sendToNumbers: campaign.sendToNumbers,
		getAll: campaign.getAll,
		get: campaign.get,
		cancel: campaign.cancel,
		getCost: campaign.getCost,
		delete: campaign.delete,
	},
	senderId: { getAll: senderId.getAll },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOperation(this, resources);
}
