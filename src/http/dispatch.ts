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

/** True when `value` nests deeper than `max` levels (iterative, so a hostile document cannot exhaust the stack here). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

const under = (prefixes: readonly string[], path: string) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));

function underKeyPrefix(path: string): boolean {
  return under(KEY_PREFIXES, path);
}

function flatHeaders(h: PlainRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
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
    const gate = async () => world.sim?.gate({ method, path: req.path, principal, authorization: headers.authorization, ip: req.ip, headers }) ?? null;
    if (!hit) {
      if (underKeyPrefix(req.path)) principal = await authenticate(world.deps, 'key', headers.authorization, under(LEGACY_AUTH_PREFIXES, req.path));
      const refused = await gate();
      if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
      throw new HttpError(404, `Cannot ${method} ${req.path}`);
    }
    const { route, params } = hit;
    routeId = route.def.id;
    principal = await authenticate(world.deps, route.def.auth, headers.authorization, under(LEGACY_AUTH_PREFIXES, req.path));
    const refused = await gate();
    if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
    const query = { ...(req.query ?? {}) };
    const body = req.body === undefined ? {} : req.body;
    const maxDepth = route.def.generation === 'sim' ? 2 * MAX_JSON_DEPTH : MAX_JSON_DEPTH;
    if (deeperThan(body, maxDepth) || deeperThan(query, maxDepth)) throw new HttpError(400, `Invalid JSON in request body: nested deeper than ${maxDepth} levels`);
    for (const [part, value] of [['params', params], ['query', query], ['body', body]] as const) {
      const msg = route.validators[part]?.(value);
      if (msg) throw new HttpError(400, msg);
    }
    const res = await route.def.handler({ world, principal, body, query, params, headers });
    return { status: res.status ?? 200, body: res.body, headers: res.headers ?? {}, principal, routeId };
  } catch (err) {
    const { status, body } = toErrorResponse(err, onBug);
    return { status, body, headers: {}, principal, routeId };
  }
}
