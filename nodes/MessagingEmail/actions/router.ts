import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runOperation, type OperationTable } from '../../shared/router';
import * as bounce from './bounce';
import * as email from './email';
import * as resubscribe from './resubscribe';
import * as sender from './sender';
import * as sendingDomain from './sendingDomain';
import * as unsubscribe from './unsubscribe';

const resources: OperationTable = {
	email: {
		send: email.send,
		get: email.get,
		getAll: email.getAll,
		getCount: email.getCount,
		getManyById: email.getManyById,
	},
	bounce: { getAll: bounce.getAll, getCount: bounce.getCount },
	unsubscribe: {
		add: unsubscribe.add,
		remove: unsubscribe.remove,
		getAll: unsubscribe.getAll,
		check: unsubscribe.check,
	},
	resubscribe: { sendRequest: resubscribe.sendRequest },
	sender: {
		getManyIps: sender.getManyIps,
		getManyAddresses: sender.getManyAddresses,
		addAddress: sender.addAddress,
	},
	sendingDomain: { getAll: sendingDomain.getAll, add: sendingDomain.add },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runOperation(this, resources);
}
