/**
 * The secret of this trigger is the random part of its URL: n8n gives every webhook node a `webhookId` (a random
 * UUID v4, 122 random bits) and serves the node at `/webhook/<webhookId>/email-events`. n8n routes only that
 * exact path to the node; the node checks the path again itself, in constant time, so a request whose path does
 * not carry this node's id (another n8n routing rule, a node without an id) never emits anything.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_PATH = 'email-events';

/** The path segment right before `email-events` in a request URL (`/webhook/<id>/email-events?…`). */
export function secretOfRequestPath(url: string): string {
	const segments = url.split('?')[0].split('/');
	const last = segments.lastIndexOf(WEBHOOK_PATH);
	return last > 0 ? decodeSegment(segments[last - 1]) : '';
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return '';
	}
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Compares digests, so the time taken depends neither on how much of the secret a guess got right nor on its
 * length. An empty expected secret never matches.
 */
export function secretMatches(received: string, expected: string | undefined): boolean {
	if (!expected) return false;
	return timingSafeEqual(digest(received), digest(expected)) && received.length > 0;
}
