// Request validation: Ajv validators compiled once per route part, turned into upstream-style 400 messages.
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from './ajv.js';
import { validationSchema, type JSONSchema, type RouteDef } from './route.js';

// Compiled validators are kept per route (see validatorsOf), so the two Ajv instances live as long.
const bodyAjv = createAjv('body');
const paramAjv = createAjv('params');

/** Validator of one request part: returns the 400 message, or null when valid (may apply defaults). */
export type PartValidator = (value: unknown) => string | null;

/** The received value's kind, as zod names it (`string`, `number`, `array`, `null`, ...). */
function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function reason(e: ErrorObject): string {
  // A schema node may give upstream's own text per keyword: `'x-reasons': {maximum: 'too big: ...'}`
  // (`{received}` stands for the kind of value received).
  const own = (e.parentSchema as { 'x-reasons'?: Record<string, string> } | undefined)?.['x-reasons']?.[e.keyword];
  if (own !== undefined) return own.replace('{received}', kindOf(e.data));
  if (e.keyword === 'required') return 'required';
  if (e.keyword === 'format' && e.params.format === 'uuid') return 'invalid UUID';
  if (e.keyword === 'format' && e.params.format === 'date-time') return 'invalid datetime';
  if (e.keyword === 'enum') return `${e.message ?? 'invalid value'}: ${(e.params.allowedValues as unknown[]).join(', ')}`;
  const m = e.message ?? 'invalid';
  return m.charAt(0).toLowerCase() + m.slice(1);
}

function where(e: ErrorObject, part: string): string {
  const segs = e.instancePath.split('/').filter((s) => s !== '').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') segs.push(String(e.params.missingProperty));
  if (e.keyword === 'additionalProperties') segs.push(String(e.params.additionalProperty));
  return segs.length > 0 ? segs.join('.') : part;
}

/** Turns Ajv errors into `Invalid request: <path> (<reason>)[; ...]` (or the route's own format). */
export function formatErrors(errors: ErrorObject[], part: string, invalid?: RouteDef['invalid']): string {
  // The first message per path is the useful one; anyOf/oneOf add noise.
  const seen = new Map<string, string>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const w = where(e, part);
    if (!seen.has(w)) seen.set(w, reason(e));
  }
  const entries = seen.size > 0 ? [...seen] : [[part, 'invalid'] as [string, string]];
  if (invalid) return invalid(entries[0]![0], entries[0]![1]);
  return `Invalid request: ${entries.map(([w, r]) => `${w} (${r})`).join('; ')}`;
}

/**
 * The first parameter that coercion turned into a non-finite number: "1e400" or 400 nines pass as
 * an integer and become Infinity, which no handler can use and JSON cannot carry back.
 */
function nonFinite(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'number' && !Number.isFinite(x)) return k;
  return null;
}

function compile(ajv: Ajv, schema: JSONSchema | undefined, part: string, invalid?: RouteDef['invalid']): PartValidator | undefined {
  if (!schema) return undefined;
  const fn: ValidateFunction = ajv.compile(validationSchema(schema));
  return (value) => {
    if (!fn(value)) return formatErrors(fn.errors ?? [], part, invalid);
    const key = ajv === paramAjv ? nonFinite(value) : null;
    if (key === null) return null;
    return invalid ? invalid(key, 'must be a finite number') : `Invalid request: ${key} (must be a finite number)`;
  };
}

/** Compiled validators of one route. */
export interface RouteValidators { params?: PartValidator; query?: PartValidator; body?: PartValidator }

const compiled = new WeakMap<RouteDef, RouteValidators>();

/**
 * A route's validators, compiled on its first request and kept with the route (Ajv compilation is
 * the expensive part: compiling every route up front took about a quarter of `compsim serve`'s
 * start-up, most for routes a run never calls).
 */
export function validatorsOf(route: RouteDef): RouteValidators {
  let v = compiled.get(route);
  if (v === undefined) compiled.set(route, (v = compileValidators(route)));
  return v;
}

/** Compiles a route's schemas (body without coercion; params and query with coercion); handler-checked properties get their loose schema. */
export function compileValidators(route: RouteDef): RouteValidators {
  const s = route.schemas ?? {};
  const out: RouteValidators = {};
  const params = compile(paramAjv, s.params, 'params', route.invalid);
  const query = compile(paramAjv, s.query, 'query', route.invalid);
  const body = compile(bodyAjv, s.body, 'body', route.invalid);
  if (params) out.params = params;
  if (query) out.query = query;
  if (body) out.body = body;
  return out;
}
