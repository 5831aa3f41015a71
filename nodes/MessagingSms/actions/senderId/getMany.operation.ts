import { updateDisplayOptions, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { returnAllAndLimit } from '../../../shared/fields';
import { runPerItem } from '../../../shared/items';
import type { MessagingClient } from '../../../shared/transport/client';
import { dataList, senderId } from '../../helpers/records';

export const description = updateDisplayOptions({ show: { resource: ['senderId'], operation: ['getMany'] } }, returnAllAndLimit({}));

export async function execute(this: IExecuteFunctions, client: MessagingClient): Promise<INodeExecutionData[]> {
	return await runPerItem(this, client, {
		prepare: (itemIndex) => ({
			returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
			limit: this.getNodeParameter('limit', itemIndex, 50) as number,
		}),
		send: async ({ returnAll, limit }, itemIndex) => {
			const records = dataList(await client.request({ method: 'GET', path: '/sms/senders', itemIndex })).map(senderId);
			return returnAll ? records : records.slice(0, limit);
		},
	});
}
