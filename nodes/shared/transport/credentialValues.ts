import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { trimSlash } from './http';

/**
 * The credential's values as the service reads them. People paste keys and secrets with a space before or a line
 * break after; the service would refuse them as wrong keys, so the spaces around each value are dropped (a key, id
 * or secret never holds a space of its own).
 */
export function pastedValue(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

/** The API key, the client id and the secret as sent. */
export function signInValues(credentials: ICredentialDataDecryptedObject): {
	apiKey: string;
	clientId: string;
	clientSecret: string;
} {
	return {
		apiKey: pastedValue(credentials.apiKey),
		clientId: pastedValue(credentials.clientId),
		clientSecret: pastedValue(credentials.clientSecret),
	};
}

/**
 * Why the Base URL cannot be requested, or undefined. Without this check a Base URL without a scheme
 * (`api.sendpulse.com`) or with another one (`ftp:`) fails inside n8n's request helper as a network failure, which
 * reads as if a request had left.
 */
export function baseUrlProblem(value: unknown): string | undefined {
	const text = trimSlash(pastedValue(value));
	if (!text) return 'is empty';
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `${JSON.stringify(text)} is not a web address: write it with https:// (https://api.sendpulse.com)`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return `${JSON.stringify(text)} starts with ${url.protocol} but must start with https:// (or http:// for a local sandbox or proxy)`;
	if (!url.hostname)
		return `${JSON.stringify(text)} names no host: write it as https://api.sendpulse.com`;
	return undefined;
}

/** The Base URL as requests start with it: spaces and trailing slashes dropped. Check baseUrlProblem first. */
export function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return trimSlash(pastedValue(credentials.baseUrl));
}
