import { ServiceError } from './errors';

/**
 * Declarative request validation. Every route states the shape it accepts; anything else (unknown keys,
 * wrong types, missing required fields) is answered with a 4xx and a message, never a silent 200.
 * Query values arrive as strings, so query schemas coerce integers and booleans.
 */
export type Schema =
	| { type: 'string'; pattern?: RegExp; maxLength?: number; minLength?: number; enum?: string[] }
	| { type: 'integer'; min?: number; max?: number; enum?: number[] }
	| { type: 'number' }
	| { type: 'boolean' }
	| { type: 'any' }
	| { type: 'array'; items: Schema; maxItems?: number; minItems?: number }
	| { type: 'map'; values: Schema }
	| { type: 'oneOf'; options: Schema[] }
	| ObjectSchema;

export interface ObjectSchema {
	type: 'object';
	properties: Record<string, Schema>;
	required?: string[];
	/** Unknown keys are rejected unless this is true. */
	additionalProperties?: boolean;
}

export interface ValidationOptions {
	/** Query strings: accept "12" for integers and "true"/"1" for booleans. */
	coerce?: boolean;
	/** HTTP status for validation failures (the service uses 400 on most routes, 422 on some). */
	status?: number;
}

export function validate(
	schema: Schema,
	value: unknown,
	path: string,
	options: ValidationOptions = {},
): unknown {
	const status = options.status ?? 400;
	const invalid = () => new ServiceError(status, `Argument ${path} is invalid`, status);
	switch (schema.type) {
		case 'any':
			return value;
		case 'string': {
			let text = value;
			if (options.coerce && typeof value === 'number') text = String(value);
			if (typeof text !== 'string') throw invalid();
			if (schema.minLength !== undefined && text.length < schema.minLength) throw invalid();
			if (schema.maxLength !== undefined && text.length > schema.maxLength) throw invalid();
			if (schema.pattern && !schema.pattern.test(text)) throw invalid();
			if (schema.enum && !schema.enum.includes(text)) throw invalid();
			return text;
		}
		case 'integer':
		case 'number': {
			let num = value;
			if (options.coerce && typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
				num = Number(value);
			if (typeof num !== 'number' || !Number.isFinite(num)) throw invalid();
			if (schema.type === 'integer') {
				if (!Number.isInteger(num)) throw invalid();
				if (schema.min !== undefined && num < schema.min) throw invalid();
				if (schema.max !== undefined && num > schema.max) throw invalid();
				if (schema.enum && !schema.enum.includes(num)) throw invalid();
			}
			return num;
		}
		case 'boolean': {
			if (typeof value === 'boolean') return value;
			if (options.coerce && ['true', '1', 1].includes(value as string)) return true;
			if (options.coerce && ['false', '0', 0].includes(value as string)) return false;
			throw invalid();
		}
		case 'array': {
			if (!Array.isArray(value)) throw invalid();
			if (schema.minItems !== undefined && value.length < schema.minItems) throw invalid();
			if (schema.maxItems !== undefined && value.length > schema.maxItems) {
				throw new ServiceError(
					status,
					`Argument ${path} has more than ${schema.maxItems} items`,
					status,
				);
			}
			return value.map((item, index) => validate(schema.items, item, `${path}[${index}]`, options));
		}
		case 'map': {
			if (!isPlainObject(value)) throw invalid();
			return Object.fromEntries(
				Object.entries(value).map(([key, item]) => [
					key,
					validate(schema.values, item, `${path}.${key}`, options),
				]),
			);
		}
		case 'oneOf': {
			for (const option of schema.options) {
				try {
					return validate(option, value, path, options);
				} catch {
					// try the next accepted form
				}
			}
			throw invalid();
		}
		case 'object': {
			if (!isPlainObject(value)) throw invalid();
			const result: Record<string, unknown> = {};
			for (const key of schema.required ?? []) {
				if (value[key] === undefined || value[key] === null || value[key] === '') {
					throw new ServiceError(status, `Argument ${join(path, key)} missing`, status);
				}
			}
			for (const [key, item] of Object.entries(value)) {
				const propertySchema = schema.properties[key];
				if (!propertySchema) {
					if (schema.additionalProperties) {
						result[key] = item;
						continue;
					}
					throw new ServiceError(status, `Unknown argument ${join(path, key)}`, status);
				}
				if (item === undefined) continue;
				result[key] = validate(propertySchema, item, join(path, key), options);
			}
			return result;
		}
	}
}

function join(path: string, key: string) {
	return path ? `${path}.${key}` : key;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shorthands that keep route schemas readable. */
export const s = {
	string: (extra: Omit<Extract<Schema, { type: 'string' }>, 'type'> = {}): Schema => ({
		type: 'string',
		...extra,
	}),
	integer: (extra: Omit<Extract<Schema, { type: 'integer' }>, 'type'> = {}): Schema => ({
		type: 'integer',
		...extra,
	}),
	number: (): Schema => ({ type: 'number' }),
	boolean: (): Schema => ({ type: 'boolean' }),
	any: (): Schema => ({ type: 'any' }),
	array: (items: Schema, extra: { maxItems?: number; minItems?: number } = {}): Schema => ({
		type: 'array',
		items,
		...extra,
	}),
	map: (values: Schema): Schema => ({ type: 'map', values }),
	oneOf: (...options: Schema[]): Schema => ({ type: 'oneOf', options }),
	object: (
		properties: Record<string, Schema>,
		required: string[] = [],
		additionalProperties = false,
	): ObjectSchema => ({
		type: 'object',
		properties,
		required,
		additionalProperties,
	}),
};
