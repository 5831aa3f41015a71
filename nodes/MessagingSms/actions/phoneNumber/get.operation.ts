import {
	updateDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { runPerItem } from '../../../shared/items/engine';
import { isRecord } from '../../../shared/values/objects';
import { apiPath, type MessagingClient } from '../../../shared/transport/client';
import { addressBookIdField, phoneField, readId } from '../../helpers/fields';
import { readPhone } from '../../helpers/phones';
import { withIsoTwins } from '../../../shared/records/values';
import { readAccountTimeZone } from '../../../shared/values/account';

const properties: INodeProperties[] = [addressBookIdField, phoneField()];

export const description = updateDisplayOptions(
	{ show: { resource: ['phoneNumber'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	client: MessagingClient,
): Promise<INodeExecutionData[]> {
	const accountZone = await readAccountTimeZone(this);
	return await runPerItem(this, client, {
		prepare: (itemIndex) => {
			const addressBookId = readId(this, itemIndex, 'addressBookId', 'Mailing List');
			const phone = readPhone(this, itemIndex);
			return { addressBookId, phone };
		},
		send: async ({ addressBookId, phone }, itemIndex) => {
			// `[{ result: true, data: <contact> }]`: an answer without the contact is an error, not an empty contact.
			const data = await client.requestValue(
				{
					method: 'GET',
					path: apiPath`/sms/numbers/info/${addressBookId}/${phone}`,
					unwrapSingle: true,
					itemIndex,
				},
				'contact',
				(body) => (isRecord(body) && isRecord(body.data) ? body.data : undefined),
			);
			// The time the phone was added gets its ISO twin (the output vocabulary, docs/architecture.md).
			return withIsoTwins(
				{ phone, addressBookId: String(addressBookId), ...data },
				['added'],
				accountZone,
			);
		},
	});
}
