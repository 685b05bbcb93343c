// Framework-free request runner: route match -> auth -> edge gate (rate limits) -> validation -> handler -> envelope (shared by Koa and msw).
import { authenticate } from '../domain/auth.js';
import type { Principal } from '../domain/model.js';
import { HttpError, toErrorResponse } from './envelope.js';
import type { HttpWorld } from './route.js';
import { matchRoute, type RouteTable } from './router.js';

/** A plain request. `body` is already parsed JSON (or undefined). */
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
  headers: Record<string, string>;
  principal: Principal;
  routeId: string | null;
}

/** Prefixes upstream guards with the agent-key middleware (segment-matched): a 401 comes before a 404. */
const KEY_PREFIXES = ['/api/agent', '/api/trade', '/api/price', '/api/nfl', '/api/account', '/api/competition'];
/** Legacy-only prefixes: authentication failures there use the team generation's messages. */
const LEGACY_AUTH_PREFIXES = ['/api/account', '/api/competition', '/api/public', '/api/admin/teams', '/api/admin/reports'];

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
    for (const child of v) if (child !== null && typeof child === 'object' && nestsDeeper(child, depth + 1, max)) return true;
    return false;
  }
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const child = (v as Record<string, unknown>)[k];
    if (child !== null && typeof child === 'object' && nestsDeeper(child, depth + 1, max)) return true;
  }
  return false;
}

/** Path prefixes with the segment-matching forms precomputed (no string is built per request). */
interface Prefixes { exact: readonly string[]; slashed: readonly string[] }

const prefixes = (list: readonly string[]): Prefixes => ({ exact: list, slashed: list.map((p) => `${p}/`) });
const KEY = prefixes(KEY_PREFIXES);
const LEGACY_AUTH = prefixes(LEGACY_AUTH_PREFIXES);

/** True when `path` is one of the prefixes or lies below one (segment-matched). */
function under(p: Prefixes, path: string): boolean {
  for (let i = 0; i < p.exact.length; i++) if (path === p.exact[i] || path.startsWith(p.slashed[i]!)) return true;
  return false;
}

function flatHeaders(h: PlainRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in h) {
    if (!Object.prototype.hasOwnProperty.call(h, k)) continue;
    const v = h[k];
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Runs one request against a world; never throws. `onBug` receives unexpected errors (500s). */
export async function dispatch(world: HttpWorld, table: RouteTable, req: PlainRequest, onBug?: (err: unknown) => void): Promise<PlainResponse> {
  const headers = flatHeaders(req.headers);
  let principal: Principal = { kind: 'anonymous' };
  let routeId: string | null = null;
  try {
    const method = req.method.toUpperCase();
    const hit = matchRoute(table, method, req.path);
    // Upstream's limiter runs after authentication and before routing (so unknown paths count too).
    const gate = () => (world.sim ? world.sim.gate({ method, path: req.path, principal, authorization: headers.authorization, ip: req.ip, headers }) : null);
    if (!hit) {
      if (under(KEY, req.path)) principal = await authenticate(world.deps, 'key', headers.authorization, under(LEGACY_AUTH, req.path));
      const refused = await gate();
      if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
      throw new HttpError(404, `Cannot ${method} ${req.path}`);
    }
    const { route, params } = hit;
    routeId = route.def.id;
    principal = await authenticate(world.deps, route.def.auth, headers.authorization, under(LEGACY_AUTH, req.path));
    const refused = await gate();
    if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
    const query = { ...(req.query ?? {}) };
    const body = req.body === undefined ? {} : req.body;
    const maxDepth = route.def.generation === 'sim' ? 2 * MAX_JSON_DEPTH : MAX_JSON_DEPTH;
    if (deeperThan(body, maxDepth) || deeperThan(query, maxDepth)) throw new HttpError(400, `Invalid JSON in request body: nested deeper than ${maxDepth} levels`);
    // Params, then query, then body; the first failure answers (validators may fill in defaults).
    const validators = route.validators;
    const msg = validators.params?.(params) || validators.query?.(query) || validators.body?.(body);
    if (msg) throw new HttpError(400, msg);
    const res = await route.def.handler({ world, principal, body, query, params, headers });
    return { status: res.status ?? 200, body: res.body, headers: res.headers ?? {}, principal, routeId };
  } catch (err) {
    const { status, body } = toErrorResponse(err, onBug);
    return { status, body, headers: {}, principal, routeId };
  }
}
