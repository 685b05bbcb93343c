// msw request handlers backed by a world, one per route forwarding to the door: a bot's own tests call fetch('https://any.host/api/...') with no socket.
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { HttpWorld, RouteDef } from '../route.js';
import { ROUTES } from '../resources/index.js';
import { inMatchOrder, routerPath } from '../route-table.js';
import type { WorldsControl } from '../worlds.js';
import { createDoor, type Door, type DoorRequest } from './door.js';

/** Options of {@link handlers}. */
export interface MswOptions {
  /**
   * Origin (or path prefix) to intercept, e.g. `https://api.example` (default `*`: any origin).
   * Requests are matched on `<baseUrl>/api/*`.
   */
  baseUrl?: string;
  /** Route table override (default: every compsim route). */
  routes?: readonly RouteDef[];
  /** Receives unexpected errors (the 500s, which are always bugs). */
  onBug?: (err: unknown) => void;
  /** Also answer `<baseUrl>/worlds/{id}/api/*` in that world (e.g. a `WorldHost`); an unknown id is the JSON 404. */
  worlds?: Pick<WorldsControl, 'acquire' | 'release'>;
  /**
   * Answer a path under `<baseUrl>/api` that no route serves as `compsim serve` does (its 401 for
   * a keyed prefix, else the JSON 404; default true). False leaves such a request unhandled, so
   * msw's `onUnhandledRequest` reports a mistyped path.
   */
  unknownRoutes?: boolean;
}

/** The door's request for a fetch `Request`: its path, query, headers and body bytes. */
async function doorRequest(request: Request): Promise<DoorRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((v, k) => (headers[k] = v));
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
  return { method: request.method, path: url.pathname, query: url.search.slice(1), headers, ...(body !== undefined ? { body } : {}) };
}

/** A resolver forwarding the request to the door in `world`; the answer is the door's, headers and text as `compsim serve` sends them. */
function forward(door: Door, world: HttpWorld) {
  return async ({ request }: { request: Request }) => {
    const res = await door.serve(world, await doorRequest(request));
    return new HttpResponse(res.text === '' ? null : res.text, { status: res.status, headers: res.headers });
  };
}

/**
 * msw handlers serving `world` through the door `compsim serve` uses, so answers are identical:
 * one `http[method](path)` handler per route (literal paths before parameterised ones, as the
 * route table orders them), then, unless `unknownRoutes: false`, one for every other path under
 * `/api`. Override one route in a test with `server.use(http.post(...))`; use with msw's
 * `setupServer(...handlers(world))`.
 */
export function handlers(world: HttpWorld, options: MswOptions = {}): HttpHandler[] {
  const defs = options.routes ?? ROUTES;
  const door = createDoor({ routes: defs, ...(options.onBug ? { onBug: options.onBug } : {}), ...(options.worlds ? { worlds: options.worlds } : {}) });
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const resolve = forward(door, world);
  const routes = inMatchOrder(defs)
    .map((def) => http[def.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](`${base}${routerPath(def.path)}`, resolve));
  return [
    ...routes,
    ...(options.unknownRoutes === false ? [] : [http.all(`${base}/api/*`, resolve)]),
    ...(options.worlds ? [http.all(`${base}/worlds/*`, resolve)] : []),
  ];
}
