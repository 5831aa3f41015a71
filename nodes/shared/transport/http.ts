import type { IDataObject } from 'n8n-workflow';

/** Plain HTTP helpers every part of the transport uses; they know nothing of the service or the credential. */

/** What one HTTP exchange gave back, whichever of n8n's helpers made it (status errors are not thrown). */
export interface RawAnswer {
	statusCode: number;
	headers?: IDataObject;
	body: unknown;
}

export function trimSlash(url: unknown): string {
	return String(url ?? '').replace(/\/+$/, '');
}

export function contentTypeOf(headers: IDataObject | undefined): string {
	const value = headers?.['content-type'] ?? headers?.['Content-Type'];
	return typeof value === 'string' && value ? value : 'no content type';
}
