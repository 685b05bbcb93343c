// The HTTP baseline's app: bare Koa with one middleware-free echo route (reads the JSON body, answers it back).
import Koa from 'koa';

/** A Koa app answering `POST /api/trade/execute` with `{ success: true, echo: <the body> }` and anything else with 404. */
export function echoApp(): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'POST' || ctx.path !== '/api/trade/execute') {
      ctx.status = 404;
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    ctx.body = { success: true, echo: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown };
  });
  return app;
}
