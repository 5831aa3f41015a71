import type { IDataObject } from 'n8n-workflow';

/** A JSON object (not null, not a list): what an answer, a stored state or a posted body must be before it is read. */
export const isRecord = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list whose every entry is a JSON object, or undefined: one odd entry makes the whole answer unreadable. */
export const recordList = (value: unknown): IDataObject[] | undefined =>
	Array.isArray(value) && value.every(isRecord) ? value : undefined;
