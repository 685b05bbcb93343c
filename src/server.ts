// createServer(world): a Koa app (one middleware: CORS, the web pages, body parsing, dispatch, latency faults, the request journal and log); never listens by itself.
import cors from '@koa/cors';
import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Logger } from 'pino';
import { dispatch } from './http/dispatch.js';
import { toErrorResponse, HttpError } from './http/envelope.js';
import type { HttpWorld, RouteDef } from './http/route.js';
import { compileRoutes, type RouteTable } from './http/router.js';
import { ROUTES } from './http/routes/index.js';
import type { Principal } from './domain/model.js';
import { createResponseChecker, type ResponseViolation } from './http/response-check.js';
import { sharedJsonBytes } from './http/json-text.js';
import { BODY_LIMIT, BODY_LIMIT_BYTES, INVALID_JSON_MESSAGE, LOAD_BODY_LIMIT, LOAD_PATH, tooLargeError } from './http/body-text.js';
import { ANONYMOUS } from './domain/auth.js';
import { readPlainBody } from './json-body.js';
import { webAnswer } from './web.js';

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
}

export { BODY_LIMIT, LOAD_BODY_LIMIT } from './http/body-text.js';

let defaultTable: RouteTable | undefined;
let noSimTable: RouteTable | undefined;

const wallDelay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));


/** The `vary` module @koa/cors itself uses (for its error path, reproduced below). */
const varyAppend = (createRequire(createRequire(import.meta.url).resolve('@koa/cors'))('vary') as { append(header: string, field: string): string }).append;

/** What @koa/cors does to an error thrown below it: the headers it set travel on `err.headers` (Vary merged). */
function corsHeadersOnError(err: unknown): unknown {
  if (err === null || typeof err !== 'object') return err;
  const e = err as { headers?: Record<string, string> };
  const headers = e.headers || {};
  const v = headers.vary || headers.Vary || '';
  delete headers.Vary;
  e.headers = { ...headers, 'Access-Control-Allow-Origin': '*', vary: varyAppend(v, 'Origin') };
  return err;
}

function principalLabel(p: Principal): string {
  if (p.kind === 'agent') return `agent:${p.agentId}`;
  if (p.kind === 'admin') return `admin:${p.adminId}`;
  return 'anonymous';
}

/**
 * Puts `Vary: Origin` and `Access-Control-Allow-Origin: *` before the headers set so far (nothing
 * below the CORS step sets either), keeping the others' order and spelling.
 */
function corsHeadersFirst(res: ServerResponse): void {
  // getRawHeaderNames (Node >= 15.13) is missing from the typings in use.
  const names = (res as ServerResponse & { getRawHeaderNames(): string[] }).getRawHeaderNames();
  const set = names.map((name) => [name, res.getHeader(name)!] as const);
  for (const [name] of set) res.removeHeader(name);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Allow-Origin', '*');
  for (const [name, value] of set) res.setHeader(name, value);
}

/** Statuses Koa answers without a body. */
const EMPTY_STATUS = new Set([204, 205, 304]);
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Writes a JSON answer with the bytes and headers Koa's own response would have (status line,
 * `Vary`, `Access-Control-Allow-Origin`, the route's headers, `Content-Type`, `Content-Length`), in
 * one `writeHead` and one `end` instead of Koa's body setter and respond step, which cost about as
 * much again as the answer's text. Returns false, writing nothing, for what it leaves to Koa: HEAD
 * requests, bodiless statuses, anything but an object or array body, a route header naming
 * `Content-Type`, `Content-Length` or a CORS header, and a connection the client already closed
 * (Koa then writes nothing either).
 */
function sendJson(ctx: Koa.Context, status: number, body: unknown, headers: Record<string, string>): boolean {
  if (ctx.method === 'HEAD' || EMPTY_STATUS.has(status) || body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return false;
  if (!ctx.writable) return false;
  const list: string[] = ['Vary', 'Origin', 'Access-Control-Allow-Origin', '*'];
  for (const k in headers) {
    const lower = k.toLowerCase();
    if (lower === 'content-type' || lower === 'content-length' || lower === 'vary' || lower === 'access-control-allow-origin') return false;
    list.push(k, headers[k]!);
  }
  // A body holding a shared list goes out as bytes built from the list's kept text.
  const text: string | Buffer | undefined = sharedJsonBytes(body) ?? JSON.stringify(body);
  if (text === undefined) return false;
  list.push('Content-Type', JSON_TYPE, 'Content-Length', String(typeof text === 'string' ? Buffer.byteLength(text) : text.length));
  ctx.respond = false;
  ctx.res.writeHead(status, list);
  ctx.res.end(text);
  return true;
}

/** Builds the Koa app serving `world`. */
export function createServer(world: HttpWorld, options: ServerOptions = {}): Koa {
  const simApi = options.simApi ?? true;
  const table = options.routes ? compileRoutes(options.routes)
    : simApi ? (defaultTable ??= compileRoutes(ROUTES)) : (noSimTable ??= compileRoutes(ROUTES.filter((r) => r.generation !== 'sim')));
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
  /** Sets `ctx.request.body` as koa-bodyparser does: plain JSON and bodiless requests directly, everything else through it. */
  const readBody = async (ctx: Koa.Context): Promise<void> => {
    const isLoad = simApi && ctx.path === LOAD_PATH;
    const plain = isLoad ? null : readPlainBody(ctx.req, BODY_LIMIT_BYTES);
    if (plain !== null) {
      (ctx.request as { body?: unknown }).body = await plain;
      return;
    }
    let parsed = false;
    try {
      await (isLoad ? parseLoad : parseBody)(ctx, async () => {
        parsed = true;
      });
    } catch (err) {
      // A parser failure without a status (a corrupt gzip, deflate or brotli body fails inside
      // zlib) is still the request's fault: 400, never a 500.
      if (parsed || (err as { status?: number }).status !== undefined) throw err;
      throw new HttpError(400, 'Invalid request body encoding');
    }
  };
  // Body parsing, dispatch and the answer; parser failures (malformed JSON -> 400, over 1 MB -> 413)
  // become envelope errors.
  const answerApi = async (ctx: Koa.Context): Promise<void> => {
    try {
      await readBody(ctx);
      const res = await dispatch(world, table, {
        method: ctx.method, path: ctx.path, headers: ctx.headers, query: ctx.query as Record<string, unknown>,
        body: (ctx.request as { body?: unknown }).body, ip: ctx.ip,
      }, onBug);
      const state = ctx.state as { principal?: Principal; routeId?: string | null; body?: unknown };
      state.principal = res.principal;
      state.routeId = res.routeId;
      // Latency faults wait here, in the Koa layer only: domain and http code never touch timers.
      const latency = world.sim?.latencyMs(ctx.path) ?? 0;
      if (latency > 0) await delay(latency);
      ctx.status = res.status;
      if (sendJson(ctx, res.status, res.body, res.headers)) {
        state.body = res.body;
        return;
      }
      for (const k in res.headers) ctx.set(k, res.headers[k]!);
      ctx.body = res.body;
    } catch (err) {
      const e = err as { status?: number; type?: string };
      const mapped = err instanceof HttpError ? err : e.status === 413 || e.type === 'entity.too.large'
        ? tooLargeError(simApi && ctx.path === LOAD_PATH)
        : e.status === 400 || e.type === 'entity.parse.failed'
          ? new HttpError(400, INVALID_JSON_MESSAGE)
          : e.status === 415 ? new HttpError(415, 'Unsupported request body encoding') : err;
      const { status, body } = toErrorResponse(mapped, onBug);
      ctx.status = status;
      if (sendJson(ctx, status, body, {})) (ctx.state as { body?: unknown }).body = body;
      else ctx.body = body;
    }
  };
  const web = options.web ?? true ? webAnswer({ simApi, version: world.deps.config.version, ...(options.routes ? { routes: options.routes } : {}) }) : null;
  /** The OpenAPI document, the docs and the dashboard, else the API. */
  const answer = (ctx: Koa.Context): Promise<void> | undefined => (web?.(ctx) ? undefined : answerApi(ctx));

  // Default @koa/cors, whose non-preflight work is done inline below: Vary: Origin, then
  // Access-Control-Allow-Origin: * on every answer (its headers kept on errors that pass it).
  const preflight = cors();
  // One middleware (each Koa layer costs a dispatch step and a promise per request): CORS, the
  // answer, then the request's journal entry and log line.
  app.use(async (ctx) => {
    const t0 = performance.now();
    if (ctx.method === 'OPTIONS') {
      await preflight(ctx, async () => answer(ctx));
    } else {
      try {
        await answer(ctx);
      } catch (err) {
        throw corsHeadersOnError(err);
      }
      // A JSON answer written directly (sendJson) already carries both CORS headers; any other gets
      // them now, first, as ctx.vary('Origin') and ctx.set() ahead of the answer would have put them.
      if (!ctx.res.headersSent) corsHeadersFirst(ctx.res);
    }
    const state = ctx.state as { principal?: Principal; routeId?: string | null; body?: unknown };
    const principal = state.principal ?? ANONYMOUS;
    const routeId = state.routeId ?? null;
    const path = ctx.path;
    // Test mode: routed answers against their route's schemas, unrouted errors against the envelope.
    if (checker && (routeId || ctx.status >= 400)) {
      const v = checker.check({ routeId, method: ctx.method, path, status: ctx.status, body: 'body' in state ? state.body : ctx.body });
      if (v) onViolation!(v);
    }
    world.sim?.record({ method: ctx.method, path, status: ctx.status, principal, routeId });
    if (log?.isLevelEnabled('info')) {
      log.info({ method: ctx.method, path, status: ctx.status, ms: Math.round((performance.now() - t0) * 10) / 10, principal: principalLabel(principal) },
        `${ctx.method} ${path} ${ctx.status}`);
    }
  });
  return app;
}

/**
 * Answers what Node's HTTP parser refuses before any middleware runs (headers or URL over 16 KB:
 * 431; a malformed request: 400) with the JSON error envelope instead of an empty body.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ success: false, error: status === 431 ? 'Request header fields too large' : status === 408 ? 'Request timeout' : 'Bad request' });
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
