// The HTTP baseline: a bare Koa app with one middleware-free echo route (reads the JSON body, answers it back); prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

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
const server = createServer(app.callback()).listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare koa listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
