// createServer(world): a Koa app (the request log, CORS, then the door: world selection, the web pages, koa-bodyparser, the route table on @koa/router); never listens by itself.
import cors from '@koa/cors';
import { IncomingMessage, ServerResponse, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { ANONYMOUS } from '../../domain/access/auth.js';
import type { Principal } from '../../domain/model.js';
import { createResponseChecker, type ResponseViolation } from '../response-check.js';
import type { HttpWorld, RouteDef } from '../route.js';
import type { WorldsControl } from '../worlds.js';
import { ROUTES } from '../resources/index.js';
import type { Logger } from 'pino';
import { createDoor, pathOf, type DoorState } from './door.js';
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

/** What the unknown-route 404 of a `/api/sim/*` path adds on a server without the sim API. */
export const SIM_API_OFF = 'the simulation control API is off: start compsim serve with --sim-api';

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

  const web = options.web ?? true;
  const door = createDoor({
    routes: defs, onBug, delay, ...(options.worlds ? { worlds: options.worlds } : {}),
    // Without the sim API, its paths' 404 says how to turn it on.
    ...(simApi ? {} : { unservedHint: (path: string) => (path === '/api/sim' || path.startsWith('/api/sim/') ? SIM_API_OFF : undefined) }),
    // A world's document follows that world's API version.
    ...(web ? { pages: webPages({ simApi, version: world.deps.config.version, apiVersion: (ctx) => (ctx.state as DoorState).world.deps.config.apiVersion, ...(options.routes ? { routes: options.routes } : {}) }) } : {}),
  });

  // The request log and, in test mode, routed answers against their route's schemas and unrouted errors against the envelope.
  if (checker || log) {
    app.use(async (ctx, next) => {
      // Timed only when the line is written (a silent log costs nothing per request).
      const logged = log?.isLevelEnabled('info') === true;
      const t0 = logged ? performance.now() : 0;
      const path = pathOf(ctx); // as requested, before a world's base path is taken off
      await next();
      const state = ctx.state as Partial<DoorState>;
      const routeId = state.routeId ?? null;
      if (checker && (routeId || ctx.status >= 400)) {
        const v = checker.check({ routeId, method: ctx.method, path: pathOf(ctx), status: ctx.status, body: 'answer' in state ? state.answer : ctx.body });
        if (v) onViolation!(v);
      }
      if (logged) {
        log!.info({ method: ctx.method, path, status: ctx.status, ms: Math.round((performance.now() - t0) * 10) / 10, principal: principalLabel(state.principal ?? ANONYMOUS) },
          `${ctx.method} ${path} ${ctx.status}`);
      }
    });
  }
  app.use(cors());
  for (const stage of door.middleware(world)) app.use(stage);
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
