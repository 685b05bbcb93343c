// Request-schema building blocks shared by every resource: typed JSON Schema helpers, ids, wallets, chains, paging, and the 400 message families.
import { SPECIFIC_CHAINS } from '../../../ports/prices.js';
import { handlerChecked, type EmptySchema, type JSONSchema, type RouteDef } from '../../route.js';

export const uuid = { type: 'string', format: 'uuid' } as const;
/** An instant: an RFC 3339 `date-time` (the format every OpenAPI tool knows), e.g. `2025-06-01T00:00:00Z`. */
export const isoTime = { type: 'string', format: 'date-time', description: 'An instant (RFC 3339), e.g. 2025-06-01T00:00:00Z' } as const;
export const wallet = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const;
export const nonEmpty = { type: 'string', minLength: 1 } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const strList = { type: 'array', items: { type: 'string' } } as const;
export const specificChain = { type: 'string', enum: [...SPECIFIC_CHAINS] } as const;

/**
 * An email address as the server checks it: Ajv's `email` format, whose domain must have a dot.
 * JSON Schema's `email` allows `a@b`, so the document states the rule as a pattern (Ajv's own).
 */
export const EMAIL_PATTERN = "^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$";
export const email = {
  type: 'string', pattern: EMAIL_PATTERN, description: 'An email address whose domain has a dot (name@example.com)',
  'x-reasons': { pattern: 'must match format "email"' },
} as const;

/**
 * `x-at-least-one`: the object must hold at least one of the listed properties. Stated this way
 * rather than as a top-level `anyOf` of `required` lists, which client generators cannot turn into
 * a model; the handler checks it (with upstream's message), and the document's own checks know it.
 */
export const AT_LEAST_ONE = 'x-at-least-one';

/** An object schema; unknown keys are allowed (upstream strips them rather than rejecting). */
export function obj<const P extends Record<string, JSONSchema>, const R extends readonly (keyof P & string)[] = []>(
  properties: P, required?: R,
): { readonly type: 'object'; readonly properties: P; readonly required: R } {
  return { type: 'object', properties, required: required ?? ([] as unknown as R) };
}

/** Path params that are all uuids. */
export function uuidParams<const N extends readonly string[]>(...names: N): { readonly type: 'object'; readonly properties: Record<N[number], typeof uuid>; readonly required: N } {
  return { type: 'object', properties: Object.fromEntries(names.map((n) => [n, uuid])) as Record<N[number], typeof uuid>, required: names };
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
export function sortParam(fields: readonly string[], dflt = '', strict = false) {
  return handlerChecked({
    type: 'string', default: dflt, pattern: strict ? strictSortListPattern(fields) : sortListPattern(fields),
    description: `Up to 3 comma-separated fields, \`-\` for descending: ${fields.join(', ')}`,
  }, { type: 'string', default: dflt });
}

/** limit/offset/sort query with defaults; `sortFields` are the fields `parseSort` accepts. */
export function pagingQuery<const E extends Record<string, JSONSchema> = EmptySchema>(defaultLimit: number, sortFields: readonly string[], defaultSort = '', extra?: E) {
  return obj({
    limit: { type: 'integer', minimum: 1, maximum: 100, default: defaultLimit },
    offset: { type: 'integer', minimum: 0, default: 0 },
    sort: sortParam(sortFields, defaultSort),
    ...(extra ?? ({} as E)),
  });
}

export const reasonBody = obj({ reason: nonEmpty }, ['reason']);

/** `?limit=` with its default: 1..100. */
export const limit = (dflt: number) => ({ type: 'integer', minimum: 1, maximum: 100, default: dflt }) as const;
/** `?offset=`: 0 or more. */
export const offset = { type: 'integer', minimum: 0, default: 0 } as const;
/** Global leaderboard: upstream's `Invalid request format`, naming the parameter. */
export const invalidFormat: NonNullable<RouteDef['invalid']> = (where, reason) => `Invalid request format: ${where} (${reason})`;
