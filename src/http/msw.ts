// msw request handlers backed by a world: a bot's own tests call fetch('https://any.host/api/...') with no socket.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { ANONYMOUS } from '../domain/auth.js';
import { dispatch, type PlainRequest } from './dispatch.js';
import { LOAD_PATH, readBodyText } from './body-text.js';
import { toErrorResponse } from './envelope.js';
import type { HttpWorld, RouteDef } from './route.js';
import { compileRoutes, type RouteTable } from './router.js';
import { ROUTES } from './routes/index.js';

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
}

let defaultTable: RouteTable | undefined;

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Reads a body the way the Koa server does (see {@link readBodyText}). */
async function bodyOf(request: Request, path: string, loadAllowed: boolean): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  return readBodyText(await request.text(), request.headers.get('content-type') ?? undefined, loadAllowed && path === LOAD_PATH);
}

/**
 * msw handlers serving `world` through the same route table and dispatch as the Koa server, so
 * answers are identical to `compsim serve`. Use with msw's `setupServer(...handlers(world))`.
 */
export function handlers(world: HttpWorld, options: MswOptions = {}): HttpHandler[] {
  const table = options.routes ? compileRoutes(options.routes) : (defaultTable ??= compileRoutes(ROUTES));
  const loadAllowed = (options.routes ?? ROUTES).some((r) => r.generation === 'sim');
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const resolve = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    let plain: PlainRequest;
    try {
      plain = { method: request.method, path: url.pathname, headers, query: queryOf(url), body: await bodyOf(request, url.pathname, loadAllowed) };
    } catch (err) {
      // Refused before routing, and journaled as the server journals it.
      const { status, body } = toErrorResponse(err, options.onBug);
      world.sim?.record({ method: request.method, path: url.pathname, status, principal: ANONYMOUS, routeId: null });
      return HttpResponse.json(body, { status });
    }
    const res = await dispatch(world, table, plain, options.onBug);
    world.sim?.record({ method: plain.method, path: plain.path, status: res.status, principal: res.principal, routeId: res.routeId });
    return HttpResponse.json(res.body as Record<string, unknown>, { status: res.status, headers: res.headers });
  };
  return [http.all(`${base}/api/*`, resolve)];
}
