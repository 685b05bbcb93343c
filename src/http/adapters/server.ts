// createServer(world): a Koa app (the request log, CORS, the web pages, the route table on @koa/router, unknown routes); never listens by itself.
import cors from '@koa/cors';
import { IncomingMessage, ServerResponse, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { ANONYMOUS } from '../../domain/access/auth.js';
import type { Principal } from '../../domain/model.js';
import { BODY_LIMIT, INVALID_JSON_MESSAGE, LOAD_BODY_LIMIT, LOAD_PATH, tooLargeError } from '../body-text.js';
import { routeTable, serveRequest, type RouteMatch } from '../dispatch.js';
import { HttpError, toErrorResponse } from '../envelope.js';
import { createResponseChecker, type ResponseViolation } from '../response-check.js';
import type { HttpWorld, RouteDef } from '../route.js';
import { splitWorldPath, type WorldsControl } from '../worlds.js';
import { ROUTES } from '../resources/index.js';
import type { Logger } from 'pino';
import { webPages } from './web.js';

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Request log (one line per request); silent when absent. */
  logger?: Logger;
  /** Route table override (tests); default: every compsim route. */
  routes?: readonly RouteDef[];
  /** Serve `/api/sim/*` (default true; `compsim serve` turns it on only with `--sim-api`). */
  simApi?: boolean;
  /** Waits `ms` of wall time for latency faults (default: a timer); tests inject their own. */
  delay?: (ms: number) => Promise<void>;
  /**
   * Test mode: validate every answer against its route's documented response schema (the OpenAPI
   * document's) and report each mismatch here (route id, status, Ajv's error). Off when absent.
   */
  onResponseViolation?: (violation: ResponseViolation) => void;
  /** Serve `/api/openapi.json`, the docs at `/api/docs` and the dashboard at `/` (default true). */
  web?: boolean;
  /**
   * The server's other worlds: a request under `/worlds/{id}` goes to that world with the prefix
   * taken off (every route, the web pages included); an unknown id is a JSON 404. Without it,
   * `/worlds/...` paths are unknown routes.
   */
  worlds?: Pick<WorldsControl, 'acquire' | 'release'>;
}

const wallDelay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function principalLabel(p: Principal): string {
  if (p.kind === 'agent') return `agent:${p.agentId}`;
  if (p.kind === 'admin') return `admin:${p.adminId}`;
  return 'anonymous';
}

/** The envelope error of a koa-bodyparser failure: malformed -> 400, over the limit -> 413. */
function bodyError(err: unknown, load: boolean): unknown {
  const e = err as { status?: number; type?: string };
  if (e.status === 413 || e.type === 'entity.too.large') return tooLargeError(load);
  if (e.status === 400 || e.type === 'entity.parse.failed') return new HttpError(400, INVALID_JSON_MESSAGE);
  if (e.status === 415) return new HttpError(415, 'Unsupported request body encoding');
  // A corrupt gzip, deflate or brotli body fails inside zlib, without a status: still the request's fault.
  if (e.status === undefined) return new HttpError(400, 'Invalid request body encoding');
  return err;
}

/** The request's path; the raw target when it has none (`CONNECT host:443`, `OPTIONS *`), which Koa reads as a null path. */
function pathOf(ctx: Koa.Context): string {
  return ctx.path ?? ctx.url;
}

/** What the request log and the test-mode check read of an API answer, and the world a request goes to. */
interface AnswerState { principal?: Principal; routeId?: string | null; world?: HttpWorld; basePath?: string }

/** `/worlds/{id}/...`: the rest of the path, in that world (counted as in use until answered); an unknown or damaged world's error otherwise. */
function selectWorld(worlds: Pick<WorldsControl, 'acquire' | 'release'>, onBug: (err: unknown) => void): Koa.Middleware {
  return (ctx, next) => {
    const split = splitWorldPath(pathOf(ctx));
    if (!split) return next();
    let target: HttpWorld;
    try {
      target = worlds.acquire(split.id);
    } catch (err) {
      ({ status: ctx.status, body: ctx.body } = toErrorResponse(err, onBug));
      return undefined;
    }
    Object.assign(ctx.state as AnswerState, { world: target, basePath: `/worlds/${split.id}` });
    ctx.path = split.rest;
    return next().finally(() => worlds.release(split.id));
  };
}

/** What the unknown-route 404 of a `/api/sim/*` path adds on a server without the sim API. */
export const SIM_API_OFF = 'the simulation control API is off: start compsim serve with --sim-api';

/** An unknown route's 404 under `/api/sim` says how to turn the sim API on, after its `Cannot METHOD path`. */
function addSimApiHint(ctx: Koa.Context): void {
  const path = pathOf(ctx);
  const body = ctx.body as { error?: unknown } | undefined;
  if (ctx.status !== 404 || !(path === '/api/sim' || path.startsWith('/api/sim/')) || typeof body?.error !== 'string' || !body.error.startsWith('Cannot ')) return;
  ctx.body = { ...body, error: `${body.error} (${SIM_API_OFF})` };
}

/** Builds the Koa app serving `world`. */
export function createServer(world: HttpWorld, options: ServerOptions = {}): Koa {
  const simApi = options.simApi ?? true;
  const defs = options.routes ?? (simApi ? ROUTES : ROUTES.filter((r) => r.generation !== 'sim'));
  const delay = options.delay ?? wallDelay;
  const log = options.logger;
  const app = new Koa();
  app.silent = true; // errors are answered by the envelope; 500s are logged below
  const onBug = (err: unknown) => log?.error({ err }, 'unhandled error (500)');
  const onViolation = options.onResponseViolation;
  const checker = onViolation ? createResponseChecker(options.routes ?? ROUTES) : undefined;

  const parseBody = bodyParser({ jsonLimit: BODY_LIMIT, formLimit: BODY_LIMIT, enableTypes: ['json', 'form'], strict: true });
  // Only a world document may be big.
  const parseLoad = bodyParser({ jsonLimit: LOAD_BODY_LIMIT, enableTypes: ['json'], strict: true });
  const readBody = async (ctx: Koa.Context): Promise<unknown> => {
    const load = simApi && ctx.path === LOAD_PATH;
    try {
      await (load ? parseLoad : parseBody)(ctx, async () => {});
    } catch (err) {
      throw bodyError(err, load);
    }
    return ctx.request.body;
  };
  /** Answers an API request through the shared request path (`match`: the route @koa/router matched, null for none). */
  const answer = async (ctx: Koa.Context, match: RouteMatch | null): Promise<void> => {
    const target = (ctx.state as AnswerState).world ?? world;
    const res = await serveRequest(target, match, {
      method: ctx.method, path: pathOf(ctx), headers: ctx.headers, query: ctx.query, ip: ctx.ip, readBody: () => readBody(ctx),
    }, onBug);
    Object.assign(ctx.state as AnswerState, { principal: res.principal, routeId: res.routeId });
    // Latency faults wait here, in the Koa layer only: domain and http code never touch timers.
    const latency = target.sim?.latencyMs(pathOf(ctx)) ?? 0;
    if (latency > 0) await delay(latency);
    ctx.status = res.status;
    ctx.set(res.headers);
    ctx.body = res.body;
  };
  const { router } = routeTable(defs, (def) => (ctx) => answer(ctx, { def, params: ctx.params }));

  // The request log and, in test mode, routed answers against their route's schemas and unrouted errors against the envelope.
  app.use(async (ctx, next) => {
    const t0 = performance.now();
    const path = pathOf(ctx); // as requested, before a world's base path is taken off
    await next();
    const state = ctx.state as AnswerState;
    const routeId = state.routeId ?? null;
    if (checker && (routeId || ctx.status >= 400)) {
      const v = checker.check({ routeId, method: ctx.method, path: pathOf(ctx), status: ctx.status, body: ctx.body });
      if (v) onViolation!(v);
    }
    if (log?.isLevelEnabled('info')) {
      log.info({ method: ctx.method, path, status: ctx.status, ms: Math.round((performance.now() - t0) * 10) / 10, principal: principalLabel(state.principal ?? ANONYMOUS) },
        `${ctx.method} ${path} ${ctx.status}`);
    }
  });
  app.use(cors());
  if (options.worlds) app.use(selectWorld(options.worlds, onBug));
  if (options.web ?? true) {
    // A world's document follows that world's API version.
    const apiVersion = (ctx: Koa.Context) => ((ctx.state as AnswerState).world ?? world).deps.config.apiVersion;
    app.use(webPages({ simApi, version: world.deps.config.version, apiVersion, ...(options.routes ? { routes: options.routes } : {}) }));
  }
  app.use(router.routes());
  app.use(async (ctx) => {
    await answer(ctx, null);
    if (!simApi) addSimApiHint(ctx);
  });
  return app;
}

/**
 * Answers what never reaches Koa with the JSON error envelope: what Node's HTTP parser refuses
 * before any middleware runs (headers or URL over 16 KB: 431; a malformed request: 400), and
 * `CONNECT` requests, which Node hands to a `connect` listener instead of the request listener:
 * they go through the request listener like any other method (so an unknown route's 404).
 */
export function answerOutsideKoa(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ success: false, error: status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Bad request' });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as Socket);
    res.on('finish', () => {
      res.detachSocket(socket as Socket);
      socket.end();
    });
    server.emit('request', req, res);
  });
}
