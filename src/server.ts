// createServer(world): a Koa app (logging + request journal, CORS, body parsing, dispatch, latency faults); never listens by itself.
import cors from '@koa/cors';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import type { Logger } from 'pino';
import { dispatch } from './http/dispatch.js';
import { toErrorResponse, HttpError } from './http/envelope.js';
import type { HttpWorld, RouteDef } from './http/route.js';
import { compileRoutes, type RouteTable } from './http/router.js';
import { ROUTES } from './http/routes/index.js';
import type { Principal } from './domain/model.js';

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
}

/** Maximum accepted request body. */
export const BODY_LIMIT = '1mb';

/** Maximum body of `POST /api/sim/load` (a whole world document). */
export const LOAD_BODY_LIMIT = '200mb';

const LOAD_PATH = '/api/sim/load';

let defaultTable: RouteTable | undefined;
let noSimTable: RouteTable | undefined;

const wallDelay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function principalLabel(p: Principal): string {
  if (p.kind === 'agent') return `agent:${p.agentId}`;
  if (p.kind === 'admin') return `admin:${p.adminId}`;
  return 'anonymous';
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

  app.use(async (ctx, next) => {
    const t0 = performance.now();
    await next();
    const state = ctx.state as { principal?: Principal; routeId?: string | null };
    const principal = state.principal ?? { kind: 'anonymous' };
    world.sim?.record({ method: ctx.method, path: ctx.path, status: ctx.status, principal, routeId: state.routeId ?? null });
    log?.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - t0) * 10) / 10, principal: principalLabel(principal) },
      `${ctx.method} ${ctx.path} ${ctx.status}`);
  });
  app.use(cors());
  // Body-parser failures (malformed JSON -> 400, over 1 MB -> 413) become envelope errors.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const e = err as { status?: number; type?: string };
      const mapped = e.status === 413 || e.type === 'entity.too.large'
        ? new HttpError(413, `Request body too large (limit ${simApi && ctx.path === LOAD_PATH ? '200' : '1'} MB)`)
        : e.status === 400 || e.type === 'entity.parse.failed'
          ? new HttpError(400, 'Invalid JSON in request body')
          : e.status === 415 ? new HttpError(415, 'Unsupported request body encoding') : err;
      const { status, body } = toErrorResponse(mapped, onBug);
      ctx.status = status;
      ctx.body = body;
    }
  });
  const parseBody = bodyParser({ jsonLimit: BODY_LIMIT, formLimit: BODY_LIMIT, enableTypes: ['json', 'form'], strict: true });
  // Only a world document may be big.
  const parseLoad = bodyParser({ jsonLimit: LOAD_BODY_LIMIT, enableTypes: ['json'], strict: true });
  app.use((ctx, next) => (simApi && ctx.path === LOAD_PATH ? parseLoad(ctx, next) : parseBody(ctx, next)));
  app.use(async (ctx) => {
    const res = await dispatch(world, table, {
      method: ctx.method, path: ctx.path, headers: ctx.headers, query: ctx.query as Record<string, unknown>,
      body: (ctx.request as { body?: unknown }).body, ip: ctx.ip,
    }, onBug);
    Object.assign(ctx.state as object, { principal: res.principal, routeId: res.routeId });
    // Latency faults wait here, in the Koa layer only: domain and http code never touch timers.
    const latency = world.sim?.latencyMs(ctx.path) ?? 0;
    if (latency > 0) await delay(latency);
    ctx.status = res.status;
    for (const [k, v] of Object.entries(res.headers)) ctx.set(k, v);
    ctx.body = res.body;
  });
  return app;
}
