// RouteDef and handler types: every endpoint is one data value read by Koa mounting, dispatch and (later) OpenAPI/msw.
import type { Deps } from '../domain/deps.js';
import type { Principal } from '../domain/model.js';
import type { SimControl } from './world-port.js';
import type { WorldsControl } from './worlds.js';

export type { Principal, SimControl, WorldsControl };

/** A JSON Schema object (Ajv dialect). */
export type JSONSchema = Record<string, unknown>;

/**
 * Keyword of a request property whose rules the handler checks rather than request validation, so
 * that the answer is upstream's own message in upstream's order. The property's schema states the
 * whole contract (what the OpenAPI document shows and the handler enforces); the keyword's value is
 * the looser schema request validation applies instead (`{}`: anything). See {@link handlerChecked}.
 */
export const HANDLER_CHECKED = 'x-handler-checked';

/** The empty schema `{}`: no keyword, so any value passes. */
export type EmptySchema = Record<never, never>;

/**
 * `contract`, documented as it is, but checked by the handler: request validation applies only
 * `loose` to it, and does not require it even when the object lists it in `required`.
 */
export function handlerChecked<const C extends JSONSchema, const L extends JSONSchema = EmptySchema>(contract: C, loose?: L): C & { readonly [HANDLER_CHECKED]: L } {
  return { ...contract, [HANDLER_CHECKED]: loose ?? {} } as C & { readonly [HANDLER_CHECKED]: L };
}

/** Maps every schema object inside `schema` (itself included), depth first. */
function mapSchemas(schema: unknown, f: (s: JSONSchema) => JSONSchema): unknown {
  if (Array.isArray(schema)) return schema.map((x) => mapSchemas(x, f));
  if (!schema || typeof schema !== 'object') return schema;
  const out: JSONSchema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === HANDLER_CHECKED || k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? v : mapSchemas(v, f);
  return f(out);
}

/**
 * The schema request validation applies: each handler-checked schema (a property, or the whole
 * part) replaced by its loose one, and a handler-checked property no longer required.
 */
export function validationSchema(schema: JSONSchema): JSONSchema {
  const marked = (p: unknown) => !!p && typeof p === 'object' && HANDLER_CHECKED in p;
  const unrequired = mapSchemas(schema, (s) => {
    const props = s.properties as Record<string, JSONSchema> | undefined;
    if (!props || !Array.isArray(s.required)) return s;
    return { ...s, required: (s.required as string[]).filter((k) => !marked(props[k])) };
  });
  // A loose schema may itself hold handler-checked properties (a whole body loose, its fields too).
  return mapSchemas(unrequired, (s) => (marked(s) ? validationSchema(s[HANDLER_CHECKED] as JSONSchema) : s)) as JSONSchema;
}

/** The whole contract: `schema` without the handler-checked keyword (what the handler enforces, and the document shows). */
export function contractSchema(schema: JSONSchema): JSONSchema {
  return mapSchemas(schema, (s) => {
    if (!(HANDLER_CHECKED in s)) return s;
    const { [HANDLER_CHECKED]: _loose, ...rest } = s;
    return rest;
  }) as JSONSchema;
}

/** What handlers may use of a world (the real World satisfies it). */
export interface HttpWorld {
  deps: Deps;
  /** Virtual instant the world was created (health uptime). */
  createdAt: number;
  /** Simulation control (`/api/sim/*`, rate limits, faults, journal); absent = none of these. */
  sim?: SimControl;
  /** The other worlds of the server holding this one (`/api/sim/worlds`); absent = a world on its own. */
  worlds?: WorldsControl;
}

/**
 * A validated request as a handler sees it; no framework objects. `Body` and `Query` are what the
 * route's schemas let through (see `route()` in `typed-route.ts`, which derives them); `unknown`
 * where a route declares no schema for the part.
 */
export interface HandlerRequest<Body = unknown, Query = unknown> {
  world: HttpWorld;
  principal: Principal;
  body: Body;
  query: Query;
  params: Record<string, string>;
  headers: Record<string, string>;
}

/** A handler's answer; status defaults to 200. */
export interface HandlerResult {
  status?: number;
  body: unknown;
  /** `JSON.stringify(body)` when the handler holds it already (a page the world's caches keep): sent as it is. */
  json?: string;
  headers?: Record<string, string>;
}

/** One endpoint. */
export interface RouteDef {
  /** `resource.action`, e.g. 'admin.agents.create'. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI-style path: '/api/admin/agents/{agentId}'. */
  path: string;
  /** `key` = agent/team key, admin key also accepted. */
  auth: 'public' | 'optional' | 'key' | 'admin';
  /**
   * A `key` route whose handler needs the caller's own agent (or team): an admin key passes the key
   * check, as upstream's middleware lets it, and the handler then answers 401. The document lists
   * only the agent key for it.
   */
  agentOnly?: true;
  /**
   * `server`: the handler checks the key against the server holding the worlds (its server key or an
   * admin key of the default world) instead of the edge (`auth` is then `public`).
   */
  keys?: 'server';
  generation: 'current' | 'legacy' | 'shared' | 'sim';
  tag: string;
  summary: string;
  schemas?: { params?: JSONSchema; query?: JSONSchema; body?: JSONSchema; responses?: Record<number, JSONSchema> };
  /** 400 message format; default `Invalid request: ${where} (${reason})`. */
  invalid?: (where: string, reason: string) => string;
  /**
   * The route's work. A method, so that a handler typed for its own schemas (see `route()`) is a
   * RouteDef's handler: dispatch calls it only with a request its schemas validated.
   */
  handler(req: HandlerRequest): Promise<HandlerResult>;
}
