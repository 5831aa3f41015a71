import { startSandbox as startCore, type Sandbox, type SandboxOptions } from './core/server';
import { emailArea } from './email';
import { outboxArea } from './outbox';
import { smsArea } from './sms';

export type { Sandbox, SandboxOptions } from './core/server';

/**
 * The whole simulated service: core (auth, rate limit, clock, control API) plus the email and SMS areas, and the
 * outbox of what they accepted.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await startCore({ areas: [emailArea, smsArea, outboxArea], ...options });
}
