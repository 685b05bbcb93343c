// Request-schema building blocks shared by every resource: typed JSON Schema helpers, ids, wallets, chains, paging, and the 400 message families.
import { SPECIFIC_CHAINS } from '../../../ports/prices.js';
import type { JSONSchema, RouteDef } from '../../route.js';

export const uuid: JSONSchema = { type: 'string', format: 'uuid' };
/** An instant: an RFC 3339 `date-time` (the format every OpenAPI tool knows), e.g. `2025-06-01T00:00:00Z`. */
export const isoTime: JSONSchema = { type: 'string', format: 'date-time', description: 'An instant (RFC 3339), e.g. 2025-06-01T00:00:00Z' };
export const wallet: JSONSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
export const nonEmpty: JSONSchema = { type: 'string', minLength: 1 };
export const str: JSONSchema = { type: 'string' };
export const bool: JSONSchema = { type: 'boolean' };
export const strList: JSONSchema = { type: 'array', items: { type: 'string' } };
export const specificChain: JSONSchema = { type: 'string', enum: [...SPECIFIC_CHAINS] };

/** An object schema; unknown keys are allowed (upstream strips them rather than rejecting). */
export function obj(properties: Record<string, JSONSchema>, required: string[] = []): JSONSchema {
  return { type: 'object', properties, required };
}

/** Path params that are all uuids. */
export function uuidParams(...names: string[]): JSONSchema {
  return obj(Object.fromEntries(names.map((n) => [n, uuid])), names);
}

/** limit/offset/sort query with defaults. */
export function pagingQuery(defaultLimit: number, defaultSort = '', extra: Record<string, JSONSchema> = {}): JSONSchema {
  return obj({
    limit: { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit },
    offset: { type: 'integer', minimum: 0, default: 0 },
    sort: { type: 'string', default: defaultSort },
    ...extra,
  });
}

export const reasonBody = obj({ reason: nonEmpty }, ['reason']);

/** `?limit=` with its default: 1..100. */
export const limit = (dflt: number): JSONSchema => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt });
/** `?offset=`: 0 or more. */
export const offset: JSONSchema = { type: 'integer', minimum: 0, default: 0 };
const sort: JSONSchema = { type: 'string', default: '', description: 'Comma list of up to 3 fields, `-` for descending' };

/** Global leaderboard: upstream's `Invalid request format`, naming the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid request format: ${where} (${reason})`;
