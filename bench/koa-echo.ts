// The HTTP baseline: the bare Koa echo app (bench/lib/koa-echo-app.ts) on a loopback port; prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoApp } from './lib/koa-echo-app.js';

const server = createServer(echoApp().callback()).listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare koa listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
