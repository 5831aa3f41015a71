import type { IDataObject } from 'n8n-workflow';

import { recordList } from '../values/objects';

/**
 * The one reader of GET /smtp/unsubscribe's answer, for Unsubscribe → Get Many and the polling trigger: a bare
 * array of `{email, date, unsubscribe_by_link, unsubscribe_by_user, spam_complaint}` (the API reference;
 * docs/service-notes.md, Email: no wrapper is known). Undefined when the answer is anything else, or a list with an
 * entry that is not a record, so the caller reports an unreadable answer instead of "no unsubscribes".
 */
export function unsubscribeList(body: unknown): IDataObject[] | undefined {
	return recordList(body);
}
