// The HTTP baseline: the Koa echo app with compsim's middleware stack (bench/lib/koa-echo-app.ts) on a loopback port; prints its URL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoApp } from './lib/koa-echo-app.js';

const handle = echoApp().callback();
const server = createServer((req, res) => void handle(req, res)).listen(0, '127.0.0.1', () => {
  process.stdout.write(`koa echo listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
