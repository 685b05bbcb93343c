// msw request handlers backed by a world: a bot's own tests call fetch('https://any.host/api/...') with no socket.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { findRoute, routeTable, serveRequest, type RouteTable } from '../dispatch.js';
import { LOAD_PATH, readBodyText } from '../body-text.js';
import { toErrorResponse } from '../envelope.js';
import type { HttpWorld, RouteDef } from '../route.js';
import { ROUTES } from '../resources/index.js';
import { splitWorldPath, type WorldsControl } from '../worlds.js';

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
  const table = options.routes ? routeTable(options.routes) : (defaultTable ??= routeTable(ROUTES));
  const loadAllowed = (options.routes ?? ROUTES).some((r) => r.generation === 'sim');
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const resolve = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    let path = url.pathname;
    let target = world;
    const split = options.worlds ? splitWorldPath(path) : null;
    if (split) {
      try {
        target = options.worlds!.acquire(split.id); // counts the world as in use until release
      } catch (err) {
        const e = toErrorResponse(err, options.onBug);
        return HttpResponse.json(e.body, { status: e.status });
      }
      path = split.rest;
    }
    let res;
    try {
      res = await serveRequest(target, findRoute(table, request.method, path), {
        method: request.method, path, headers, query: queryOf(url), readBody: () => bodyOf(request, path, loadAllowed),
      }, options.onBug);
    } finally {
      if (split) options.worlds!.release(split.id);
    }
    return HttpResponse.json(res.body as Record<string, unknown>, { status: res.status, headers: res.headers });
  };
  return [http.all(`${base}/api/*`, resolve), ...(options.worlds ? [http.all(`${base}/worlds/*`, resolve)] : [])];
}
