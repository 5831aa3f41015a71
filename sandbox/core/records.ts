/** A shallow copy of `record` without `keys` (the sandbox's lists leave out some stored fields). */
export function omit<T extends object, K extends keyof T>(record: T, ...keys: K[]): Omit<T, K> {
	const copy: Partial<T> = { ...record };
	for (const key of keys) delete copy[key];
	return copy as Omit<T, K>;
}
