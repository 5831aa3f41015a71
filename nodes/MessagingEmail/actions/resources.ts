import * as bounce from './bounce';
import * as email from './email';
import * as resubscribe from './resubscribe';
import * as senderAddress from './senderAddress';
import * as sendingDomain from './sendingDomain';
import * as sendingIp from './sendingIp';
import * as unsubscribe from './unsubscribe';

/**
 * Every resource of the node by its `resource` value, each with its operations and their fields: the router runs
 * them, the node shows their fields. A new resource is added here and in the node's Resource options (a literal list,
 * which n8n's lint reads); test/foundation/descriptions.test.ts checks that the two agree.
 */
export const resources = {
	bounce,
	email,
	resubscribe,
	senderAddress,
	sendingDomain,
	sendingIp,
	unsubscribe,
};
