// The HTTP baseline's app: Koa with compsim's middleware stack (request log, @koa/cors, @koa/router, koa-bodyparser) and a handler that echoes the body.
import cors from '@koa/cors';
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { createLogger } from '../../src/http/adapters/logging.js';

/**
 * A Koa app built like compsim's (a request log at `logLevel`, `@koa/cors`, koa-bodyparser with
 * the same options, the routes mounted on `@koa/router`, all as ordinary middleware) answering
 * `POST /api/trade/execute` with `{ success: true, echo: <the body> }`, `GET /api/health` with
 * `{ status: 'ok', echo: <the query> }` and anything else with 404.
 */
export function echoApp(logLevel = 'silent'): Koa {
  const log = createLogger({ level: logLevel });
  const router = new Router({ sensitive: true });
  router.post('/api/trade/execute', (ctx) => {
    ctx.body = { success: true, echo: ctx.request.body as unknown };
  });
  router.get('/api/health', (ctx) => {
    ctx.body = { status: 'ok', echo: ctx.query };
  });
  const app = new Koa();
  app.use(async (ctx, next) => {
    const t0 = performance.now();
    await next();
    if (log.isLevelEnabled('info')) log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: performance.now() - t0 }, `${ctx.method} ${ctx.path} ${ctx.status}`);
  });
  app.use(cors());
  app.use(bodyParser({ jsonLimit: '1mb', formLimit: '1mb', enableTypes: ['json', 'form'], strict: true }));
  app.use(router.routes());
  return app;
}
