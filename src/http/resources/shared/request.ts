// Request-schema building blocks shared by every resource: typed JSON Schema helpers, ids, wallets, chains, paging, and the 400 message families.
import { SPECIFIC_CHAINS } from '../../../ports/prices.js';
import { handlerChecked, type JSONSchema, type RouteDef } from '../../route.js';

export const uuid: JSONSchema = { type: 'string', format: 'uuid' };
/** An instant: an RFC 3339 `date-time` (the format every OpenAPI tool knows), e.g. `2025-06-01T00:00:00Z`. */
export const isoTime: JSONSchema = { type: 'string', format: 'date-time', description: 'An instant (RFC 3339), e.g. 2025-06-01T00:00:00Z' };
export const wallet: JSONSchema = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' };
export const nonEmpty: JSONSchema = { type: 'string', minLength: 1 };
export const str: JSONSchema = { type: 'string' };
export const bool: JSONSchema = { type: 'boolean' };
export const strList: JSONSchema = { type: 'array', items: { type: 'string' } };
export const specificChain: JSONSchema = { type: 'string', enum: [...SPECIFIC_CHAINS] };

/**
 * An email address as the server checks it: Ajv's `email` format, whose domain must have a dot.
 * JSON Schema's `email` allows `a@b`, so the document states the rule as a pattern (Ajv's own).
 */
export const EMAIL_PATTERN = "^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$";
export const email: JSONSchema = {
  type: 'string', pattern: EMAIL_PATTERN, description: 'An email address whose domain has a dot (name@example.com)',
  'x-reasons': { pattern: 'must match format "email"' },
};

/**
 * `x-at-least-one`: the object must hold at least one of the listed properties. Stated this way
 * rather than as a top-level `anyOf` of `required` lists, which client generators cannot turn into
 * a model; the handler checks it (with upstream's message), and the document's own checks know it.
 */
export const AT_LEAST_ONE = 'x-at-least-one';

/** An object schema; unknown keys are allowed (upstream strips them rather than rejecting). */
export function obj(properties: Record<string, JSONSchema>, required: string[] = []): JSONSchema {
  return { type: 'object', properties, required };
}

/** Path params that are all uuids. */
export function uuidParams(...names: string[]): JSONSchema {
  return obj(Object.fromEntries(names.map((n) => [n, uuid])), names);
}

/**
 * A sort list as `parseSort` reads it: comma-separated fields, `-` for descending; empty parts are
 * skipped and only the first three fields count (anything may follow them).
 */
export function sortListPattern(fields: readonly string[]): string {
  const one = `-?(${fields.join('|')})`;
  return `^(,*|,*${one}(,+${one})?,*|,*${one},+${one},+${one}(,.*)?)$`;
}

/** A sort list as `parseListSort` reads it: one to three fields, `-` for descending, no empty part. */
export function strictSortListPattern(fields: readonly string[]): string {
  const one = `-?(${fields.join('|')})`;
  return `^(${one}(,${one}){0,2})?$`;
}

/**
 * `?sort=` over `fields`: the document states the allowed lists as a pattern; the domain checks it
 * and names a bad field in upstream's words. `strict`: the `parseListSort` reading (no empty part).
 */
export function sortParam(fields: readonly string[], dflt = '', strict = false): JSONSchema {
  return handlerChecked({
    type: 'string', default: dflt, pattern: strict ? strictSortListPattern(fields) : sortListPattern(fields),
    description: `Up to 3 comma-separated fields, \`-\` for descending: ${fields.join(', ')}`,
  }, { type: 'string', default: dflt });
}

/** limit/offset/sort query with defaults; `sortFields` are the fields `parseSort` accepts. */
export function pagingQuery(defaultLimit: number, sortFields: readonly string[], defaultSort = '', extra: Record<string, JSONSchema> = {}): JSONSchema {
  return obj({
    limit: { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit },
    offset: { type: 'integer', minimum: 0, default: 0 },
    sort: sortParam(sortFields, defaultSort),
    ...extra,
  });
}

export const reasonBody = obj({ reason: nonEmpty }, ['reason']);

/** `?limit=` with its default: 1..100. */
export const limit = (dflt: number): JSONSchema => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt });
/** `?offset=`: 0 or more. */
export const offset: JSONSchema = { type: 'integer', minimum: 0, default: 0 };
/** Global leaderboard: upstream's `Invalid request format`, naming the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid request format: ${where} (${reason})`;
