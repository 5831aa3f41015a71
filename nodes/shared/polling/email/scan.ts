import type { ListedEvent } from './events';
import { HOUR_MS } from '../../values/serviceTime';

/** What the bounce and unsubscribe scans share: how a stream treats records, what a scan returns, its limits. */

/**
 * Between full reads, polls trust counts (bounces) and one-entry probes (unsubscribes); every 6 hours the lists are
 * read in full anyway, so a change those cannot see (a bounce the service dropped from the window while another
 * arrived, an unsubscribe back-dated while another was removed) waits 6 hours at most.
 */
export const FULL_READ_EVERY_MS = 6 * HOUR_MS;
/** Hard stop for one list in one poll (200,000 records). */
export const MAX_PAGES = 2000;

/**
 * How a stream treats records it has not handled yet: `new` emits them, `baseline` only remembers them (first
 * activation: "start from now"), `all` emits them too (first activation with "include the last 24 hours").
 */
export type ScanMode = 'new' | 'baseline' | 'all';

export interface Candidate extends ListedEvent {
	bucket: string;
}

export interface ScanResult {
	candidates: Candidate[];
	/** False when the scan stopped early (cap, page limit, time budget): more may be waiting. */
	complete: boolean;
}
