// The request path shared by compsim serve, the msw handlers and the in-process target: the route table on @koa/router, then read body -> auth -> edge gate (rate limits) -> validation -> handler -> envelope -> journal.
import Router, { type RouterMiddleware } from '@koa/router';
import { ANONYMOUS, authenticate, parseBearer } from '../domain/access/auth.js';
import { requireActiveCompetition } from '../domain/competitions/route-competition.js';
import { needsActiveCompetition, routeAvailable } from '../domain/versions.js';
import type { Principal } from '../domain/model.js';
import { HttpError, toErrorResponse } from './envelope.js';
import type { HttpWorld, RouteDef } from './route.js';
import { validatorsOf } from './validate.js';

/** The principal of a sim API request made with the control key. */
const CONTROL_PRINCIPAL: Principal = Object.freeze({ kind: 'admin', adminId: 'control' });

/** The route table mounted on a @koa/router, one layer per route named by its id, and the routes by id. */
export interface RouteTable {
  router: Router;
  routes: ReadonlyMap<string, RouteDef>;
  /** The router's answers to {@link findRoute} so far, by `method path` (bots repeat the same few paths). */
  matches: Map<string, RouteMatch | null>;
}

/** Method-and-path answers a table remembers before it starts over. */
const MATCHES_KEPT = 10_000;

/** A route a request matched, with the path's parameters (decoded). */
export interface RouteMatch { def: RouteDef; params: Record<string, string> }

/**
 * Mounts `defs` on a @koa/router (`{param}` becomes `:param`; case-sensitive, one optional trailing
 * slash), each layer running `serve(def)`. Routes with fewer parameters are registered first, so a
 * literal route wins over a parameterised one of the same shape (the first layer that matches answers).
 */
export function routeTable(defs: readonly RouteDef[], serve: (def: RouteDef) => RouterMiddleware = () => () => undefined): RouteTable {
  const router = new Router({ sensitive: true });
  const routes = new Map<string, RouteDef>();
  const params = (def: RouteDef) => def.path.split('{').length - 1;
  for (const def of [...defs].sort((a, b) => params(a) - params(b))) {
    if (routes.has(def.id)) throw new Error(`duplicate route id ${def.id}`);
    routes.set(def.id, def);
    router.register(def.path.replace(/\{(\w+)\}/g, ':$1'), [def.method], serve(def), { name: def.id });
  }
  return { router, routes, matches: new Map() };
}

/**
 * The route `method` and `path` match in `table` (the layer @koa/router would run), or null. The
 * router tests every layer's pattern in turn; its answer for a method and path never changes, so
 * the table remembers it. The params are a fresh copy each time (validation may coerce them).
 */
export function findRoute(table: RouteTable, method: string, path: string): RouteMatch | null {
  const key = `${method} ${path}`;
  let match = table.matches.get(key);
  if (match === undefined) {
    const layer = table.router.match(path, method).pathAndMethod[0];
    match = layer === undefined ? null : { def: table.routes.get(layer.name!)!, params: layer.params(path, layer.captures(path)) };
    if (table.matches.size >= MATCHES_KEPT) table.matches.clear();
    table.matches.set(key, match);
  }
  return match === null ? null : { def: match.def, params: { ...match.params } };
}

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

/** A request before its body is read: `readBody` reads it, throwing the error a bad body answers with. */
export interface IncomingRequest extends Omit<PlainRequest, 'body'> {
  readBody(): unknown;
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

/**
 * Reads the body, dispatches and journals one request: the request path of `compsim serve`, the
 * msw handlers and the in-process target. A body refused by `readBody` is answered (and journaled)
 * without a principal or a route. Never throws.
 */
export async function serveRequest(world: HttpWorld, match: RouteMatch | null, req: IncomingRequest, onBug?: (err: unknown) => void): Promise<PlainResponse> {
  let res: PlainResponse;
  try {
    const body = await req.readBody();
    res = await dispatch(world, match, { method: req.method, path: req.path, headers: req.headers, query: req.query, body, ip: req.ip }, onBug);
  } catch (err) {
    const { status, body } = toErrorResponse(err, onBug);
    res = { status, body, headers: {}, principal: ANONYMOUS, routeId: null };
  }
  world.sim?.record({ method: req.method, path: req.path, status: res.status, principal: res.principal, routeId: res.routeId });
  return res;
}

/** Runs one request (body already read) against a world and the route it matched; never throws. `onBug` receives unexpected errors (500s). */
export async function dispatch(world: HttpWorld, match: RouteMatch | null, req: PlainRequest, onBug?: (err: unknown) => void): Promise<PlainResponse> {
  const headers = flatHeaders(req.headers);
  let principal: Principal = ANONYMOUS;
  let routeId: string | null = null;
  try {
    const method = req.method.toUpperCase();
    // Upstream's limiter runs after authentication and before routing (so unknown paths count too).
    const gate = () => (world.sim ? world.sim.gate({ method, path: req.path, principal, authorization: headers.authorization, ip: req.ip, headers }) : null);
    const version = world.deps.config.apiVersion;
    // A route the world's API version does not have answers like a path nobody serves.
    if (match && !routeAvailable(version, match.def.id)) match = null;
    if (!match) {
      if (under(KEY, req.path)) principal = await authenticate(world.deps, 'key', headers.authorization, under(LEGACY_AUTH, req.path));
      const refused = await gate();
      if (refused) return { status: refused.status ?? 429, body: refused.body, headers: refused.headers ?? {}, principal, routeId };
      throw new HttpError(404, `Cannot ${method} ${req.path}`);
    }
    const { def, params } = match;
    routeId = def.id;
    // The control key authenticates the sim API even while the world has no admin (after a reset with `admin: false`).
    principal = def.generation === 'sim' && world.sim?.isControlKey(parseBearer(headers.authorization))
      ? CONTROL_PRINCIPAL
      : await authenticate(world.deps, def.auth, headers.authorization, under(LEGACY_AUTH, req.path));
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
    return { status: res.status ?? 200, body: res.body, headers: res.headers ?? {}, principal, routeId };
  } catch (err) {
    const { status, body } = toErrorResponse(err, onBug);
    return { status, body, headers: {}, principal, routeId };
  }
}
