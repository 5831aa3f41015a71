import type { Scenario } from '../lib/types';
import { rateLimited } from './s1-rate-limited';
import { unlimited } from './s2-unlimited';
import { bulkList } from './s3-bulk-list';
import { tokenCost } from './s4-token-cost';
import { trigger } from './s5-trigger';
import { attachment } from './s6-attachment';
import { overhead } from './s7-overhead';
import { queueMode } from './s8-queue';
import { webhookEvents } from './s9-webhook';
import { smsEvents } from './s10-sms-events';
import { webhookScale } from './s11-webhook-scale';
import { webhookScaleN8n } from './s12-webhook-scale-n8n';
import { smsBigCampaign } from './s13-sms-big-campaign';
import { bouncesPerDay } from './s14-bounces-per-day';
import { bulk1M } from './s15-bulk-1m';

export const scenarios: Scenario[] = [
	rateLimited,
	unlimited,
	bulkList,
	tokenCost,
	trigger,
	attachment,
	overhead,
	queueMode,
	webhookEvents,
	smsEvents,
	webhookScale,
	webhookScaleN8n,
	smsBigCampaign,
	bouncesPerDay,
	bulk1M,
];
