import * as blacklist from './blacklist';
import * as campaign from './campaign';
import * as phoneNumber from './phoneNumber';
import * as senderId from './senderId';

/**
 * Every resource of the node by its `resource` value, each with its operations and their fields: the router runs
 * them, the node shows their fields. A new resource is added here and in the node's Resource options (a literal list,
 * which n8n's lint reads); test/foundation/descriptions.test.ts checks that the two agree.
 */
export const resources = { blacklist, campaign, phoneNumber, senderId };
