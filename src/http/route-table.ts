// The route table on @koa/router: one router per path group (its first two segments), each layer named by its route id, plus the mounts' key guards and eras.
import Router, { type RouterMiddleware } from '@koa/router';
import type { RouteDef } from './route.js';
import { MOUNTS, type Mount } from './resources/index.js';

/** The route table mounted on @koa/router. */
export interface RouteTable {
  /** The routes by id. */
  readonly routes: ReadonlyMap<string, RouteDef>;
  /**
   * `router.routes()` of the router holding every route `path` could match, or undefined when no
   * route could (the request goes on to the unknown-route answer).
   */
  routerFor(path: string): RouterMiddleware | undefined;
}

/**
 * The group of a path: its first two segments (`/api/trade` for `/api/trade/execute`, `/health`
 * for `/health/`). Every route's first two segments are literal, so a path can only match routes
 * of its own group.
 */
export function pathGroup(path: string): string {
  const second = path.indexOf('/', 1);
  if (second < 0) return path;
  const third = path.indexOf('/', second + 1);
  const group = third < 0 ? path : path.slice(0, third);
  return group.endsWith('/') ? group.slice(0, -1) : group;
}

/** A route path as @koa/router and msw spell it: `{param}` becomes `:param`. */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * `defs` in the order they are to be matched: fewer parameters first (stable otherwise), so a
 * literal route wins over a parameterised one of the same shape when the first match answers.
 */
export function inMatchOrder(defs: readonly RouteDef[]): RouteDef[] {
  const params = (def: RouteDef) => def.path.split('{').length - 1;
  return [...defs].sort((a, b) => params(a) - params(b));
}

/**
 * Mounts `defs` on @koa/router (`{param}` becomes `:param`; case-sensitive, one optional trailing
 * slash), one router per {@link pathGroup} (upstream mounts one router per prefix too; a request
 * is matched against its group's routes only, not against all of them), each layer running
 * `serve(def)`. Routes with fewer parameters are registered first, so a literal route wins over a
 * parameterised one of the same shape (the first layer that matches answers).
 */
export function routeTable(defs: readonly RouteDef[], serve: (def: RouteDef) => RouterMiddleware): RouteTable {
  const routers = new Map<string, Router>();
  const routes = new Map<string, RouteDef>();
  for (const def of inMatchOrder(defs)) {
    if (routes.has(def.id)) throw new Error(`duplicate route id ${def.id}`);
    const group = pathGroup(def.path);
    if (group.includes('{')) throw new Error(`route ${def.id}: the first two segments of ${def.path} must be literal`);
    routes.set(def.id, def);
    let router = routers.get(group);
    if (router === undefined) routers.set(group, (router = new Router({ sensitive: true })));
    router.register(routerPath(def.path), [def.method], serve(def), { name: def.id });
  }
  const middleware = new Map([...routers].map(([group, router]) => [group, router.routes()]));
  return { routes, routerFor: (path) => middleware.get(pathGroup(path)) };
}

/** The mounts with the segment-matching prefix of each precomputed, longest first (the first that holds a path applies). */
const BY_LENGTH = [...MOUNTS].sort((a, b) => b.path.length - a.path.length).map((m) => ({ mount: m, below: `${m.path}/` }));

/** The mount `path` lies under (segment-matched; the longest wins), if any. */
export function mountOf(path: string): Mount | undefined {
  for (const { mount, below } of BY_LENGTH) if (path === mount.path || path.startsWith(below)) return mount;
  return undefined;
}
