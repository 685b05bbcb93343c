// msw request handlers backed by a world: a bot's own tests call fetch('https://any.host/api/...') with no socket.
import { http, HttpResponse, type HttpHandler } from 'msw';
import { dispatch, type PlainRequest } from './dispatch.js';
import { HttpError, toErrorResponse } from './envelope.js';
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

/** Same limit as the HTTP server. */
const BODY_LIMIT_BYTES = 1024 * 1024;

let defaultTable: RouteTable | undefined;

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Reads a JSON (or empty) body the way the Koa server does: bad JSON -> 400, over 1 MB -> 413. */
async function bodyOf(request: Request): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const text = await request.text();
  if (Buffer.byteLength(text, 'utf8') > BODY_LIMIT_BYTES) throw new HttpError(413, 'Request body too large (limit 1 MB)');
  if (text.trim() === '') return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (type !== '' && !type.includes('json')) {
    if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'Invalid JSON in request body');
  }
}

/**
 * msw handlers serving `world` through the same route table and dispatch as the Koa server, so
 * answers are identical to `compsim serve`. Use with msw's `setupServer(...handlers(world))`.
 */
export function handlers(world: HttpWorld, options: MswOptions = {}): HttpHandler[] {
  const table = options.routes ? compileRoutes(options.routes) : (defaultTable ??= compileRoutes(ROUTES));
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  const resolve = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    let plain: PlainRequest;
    try {
      plain = { method: request.method, path: url.pathname, headers, query: queryOf(url), body: await bodyOf(request) };
    } catch (err) {
      const { status, body } = toErrorResponse(err, options.onBug);
      return HttpResponse.json(body, { status });
    }
    const res = await dispatch(world, table, plain, options.onBug);
    world.sim?.record({ method: plain.method, path: plain.path, status: res.status, principal: res.principal, routeId: res.routeId });
    return HttpResponse.json(res.body as Record<string, unknown>, { status: res.status, headers: res.headers });
  };
  return [http.all(`${base}/api/*`, resolve)];
}
