// One routed request with its body read: auth -> edge gate (rate limits) -> validation -> handler -> envelope; the door (adapters/door.ts) runs it for every transport.
import { ANONYMOUS, authenticate, parseBearer } from '../domain/access/auth.js';
import { requireActiveCompetition } from '../domain/competitions/route-competition.js';
import { needsActiveCompetition, routeAvailable } from '../domain/versions.js';
import type { Principal } from '../domain/model.js';
import { HttpError, toErrorResponse } from './envelope.js';
import { mountOf } from './route-table.js';
import type { HttpWorld, RouteDef } from './route.js';
import { validatorsOf } from './validate.js';

/** The principal of a sim API request made with the control key. */
const CONTROL_PRINCIPAL: Principal = Object.freeze({ kind: 'admin', adminId: 'control' });

/** A route a request matched, with the path's parameters (decoded). */
export interface RouteMatch { def: RouteDef; params: Record<string, string> }

/** A plain request. `body` is already parsed (or undefined). */
export interface PlainRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Client address (rate-limit key of anonymous callers). */
  ip?: string;
}

/** A plain response plus what logging wants to know. */
export interface PlainResponse {
  status: number;
  body: unknown;
  /** `body` serialised, when the handler had it already. */
  json?: string;
  headers: Record<string, string>;
  principal: Principal;
  routeId: string | null;
}

/**
 * Deepest nesting of objects and arrays a request body may have (the sim API's world documents get
 * twice as much). Deeper JSON parses, but could never be answered or dumped again: serialising and
 * freezing stored rows recurse, so a 10,000-deep `metadata` would turn every later read into a 500.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * True when `value` nests deeper than `max` levels. The recursion stops at `max + 1` levels, so a
 * hostile document cannot exhaust the stack here; a flat object (the usual body) allocates nothing.
 */
export function deeperThan(value: unknown, max: number): boolean {
  return value !== null && typeof value === 'object' && nestsDeeper(value, 1, max);
}

/** `v` (an object at `depth`) or one of its own enumerable values nests deeper than `max`. */
function nestsDeeper(v: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(v)) {
    for (const child of v as unknown[]) if (child !== null && typeof child === 'object' && nestsDeeper(child, depth + 1, max)) return true;
    return false;
  }
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const child = (v as Record<string, unknown>)[k];
    if (child !== null && typeof child === 'object' && nestsDeeper(child, depth + 1, max)) return true;
  }
  return false;
}

/** Headers with one string each (lower-cased names; several values joined by `, `): a request's, or an answer's as Node holds them. */
export function flatHeaders(h: Readonly<Record<string, string | number | readonly string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in h) {
    if (!Object.prototype.hasOwnProperty.call(h, k)) continue;
    const v = h[k];
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** Runs one request (body already read) against a world and the route it matched; never throws. `onBug` receives unexpected errors (500s). */
export async function dispatch(world: HttpWorld, match: RouteMatch | null, req: PlainRequest, onBug?: (err: unknown) => void): Promise<PlainResponse> {
  const headers = flatHeaders(req.headers);
  let principal: Principal = ANONYMOUS;
  let routeId: string | null = null;
  try {
    const method = req.method.toUpperCase();
    // The mount a path lies under decides the key guard of unserved paths and the era of authentication messages.
    const mount = mountOf(req.path);
    // Upstream's limiter runs after authentication and before routing (so unknown paths count too).
    const gate = () => (world.sim ? world.sim.gate({ method, path: req.path, principal, authorization: headers.authorization, ip: req.ip, headers }) : null);
    const version = world.deps.config.apiVersion;
    // A route the world's API version does not have answers like a path nobody serves.
    if (match && !routeAvailable(version, match.def.id)) match = null;
    if (!match) {
      if (mount?.keyGuard) principal = await authenticate(world.deps, 'key', headers.authorization, mount.legacy === true);
      const refused = await gate();
      if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
      throw new HttpError(404, `Cannot ${method} ${req.path}`);
    }
    const { def, params } = match;
    routeId = def.id;
    // The control key authenticates the sim API even while the world has no admin (after a reset with `admin: false`).
    principal = def.generation === 'sim' && world.sim?.isControlKey(parseBearer(headers.authorization))
      ? CONTROL_PRINCIPAL
      : await authenticate(world.deps, def.auth, headers.authorization, mount?.legacy === true);
    const refused = await gate();
    if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
    // The version's active-competition middleware runs before the route's own checks (team keys keep the team era's).
    if (needsActiveCompetition(version, def.id) && !(principal.kind === 'agent' && principal.generation === 'legacy')) await requireActiveCompetition(world.deps);
    const query = { ...(req.query ?? {}) };
    const body = req.body === undefined ? {} : req.body;
    const maxDepth = def.generation === 'sim' ? 2 * MAX_JSON_DEPTH : MAX_JSON_DEPTH;
    if (deeperThan(body, maxDepth) || deeperThan(query, maxDepth)) throw new HttpError(400, `Invalid JSON in request body: nested deeper than ${maxDepth} levels`);
    // Params, then query, then body; the first failure answers (validators may fill in defaults).
    const validators = validatorsOf(def);
    const msg = validators.params?.(params) || validators.query?.(query) || validators.body?.(body);
    if (msg) throw new HttpError(400, msg);
    const res = await def.handler({ world, principal, body, query, params, headers });
    return { status: res.status ?? 200, body: res.body, ...(res.json !== undefined ? { json: res.json } : {}), headers: res.headers ?? {}, principal, routeId };
  } catch (err) {
    const { status, body } = toErrorResponse(err, onBug);
    return { status, body, headers: {}, principal, routeId };
  }
}
