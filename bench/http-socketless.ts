// Benchmark 1b: the served request path without sockets, compsim's Koa app against the Koa echo with the same stack, on in-memory sockets in one process.
import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { createServer } from '../src/http/adapters/server.js';
import { createLogger } from '../src/http/adapters/logging.js';
import { buildArena, SOL, USDC } from './lib/arena.js';
import { echoApp } from './lib/koa-echo-app.js';
import { benchMain } from './lib/proc.js';
import { median, num, type BenchRow } from './lib/report.js';

/** A socket that keeps what the answer writes and never reads. */
class MemorySocket extends Duplex {
  out = '';
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.out += chunk.toString('latin1');
    done();
  }
}

/**
 * One POST through `app` as Node's HTTP server would hand it over (a parsed request on a socket,
 * its body pushed after the handler started); resolves with the bytes written, head included.
 */
function post(app: RequestListener, path: string, key: string, body: string): Promise<string> {
  const socket = new MemorySocket();
  const req = new IncomingMessage(socket as never);
  req.method = 'POST';
  req.url = path;
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.headers = { host: '127.0.0.1', authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  const res = new ServerResponse(req);
  res.assignSocket(socket as never);
  const finished = new Promise<void>((resolve) => res.once('finish', () => resolve()));
  (app as (req: IncomingMessage, res: ServerResponse) => unknown)(req, res);
  req.push(Buffer.from(body));
  // What the HTTP parser sets when the message is complete (otherwise the end reads as an abort).
  req.complete = true;
  req.push(null);
  return finished.then(() => socket.out);
}

interface Target { label: string; app: RequestListener; keys: string[]; bodies: string[]; next: number }

/** `n` trades one after another through `t`; µs per request. Throws on any answer but 200. */
async function window(t: Target, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const k = t.next++;
    const out = await post(t.app, '/api/trade/execute', t.keys[k % t.keys.length]!, t.bodies[Math.floor(k / t.keys.length) % 2]!);
    if (!out.startsWith('HTTP/1.1 200')) throw new Error(`${t.label}: ${out.slice(0, 300)}`);
  }
  return ((performance.now() - t0) * 1000) / n;
}

/** Row 1b: medians of alternating windows of `n` requests each. */
export async function socketless(n = 20_000, rounds = 7): Promise<BenchRow[]> {
  const arena = await buildArena(50);
  const trades = (competitionId: string) => [
    JSON.stringify({ competitionId, fromToken: USDC, toToken: SOL, amount: '15', reason: 'bench' }),
    JSON.stringify({ competitionId, fromToken: SOL, toToken: USDC, amount: '0.1', reason: 'bench' }),
  ];
  const compsim: Target = {
    label: 'compsim', app: createServer(arena.world, { logger: createLogger({ level: 'silent' }), simApi: false }).callback() as RequestListener,
    keys: arena.agents.map((a) => a.key), bodies: trades(arena.competitionId), next: 0,
  };
  const koa: Target = { label: 'koa', app: echoApp().callback() as RequestListener, keys: ['k'], bodies: trades(arena.competitionId), next: 0 };
  for (const t of [koa, compsim]) await window(t, Math.min(n, 5000)); // warm-up
  const us = { koa: [] as number[], compsim: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    us.koa.push(await window(koa, n));
    us.compsim.push(await window(compsim, n));
  }
  const c = median(us.compsim);
  const k = median(us.koa);
  return [{
    id: '1b', name: 'the served request path without sockets: POST /api/trade/execute through compsim\'s Koa app vs the Koa echo with the same stack, in-memory sockets, one process',
    value: `${num(c, 1)} µs vs ${num(k, 1)} µs per request (${(k / c).toFixed(2)} x Koa)`, target: '', pass: null,
    notes: `what row 1 measures minus the kernel, the socket and the load generator: the JavaScript of a request from the parsed head to the written answer; `
      + `median of ${rounds} alternating windows of ${num(n)} sequential requests (compsim ${us.compsim.map((x) => x.toFixed(1)).join(', ')}; Koa ${us.koa.map((x) => x.toFixed(1)).join(', ')} µs); 50 agents; ${num(compsim.next)} trades stored`,
  }];
}

await benchMain(import.meta, async (args) => socketless(Number(args[0] ?? 20_000), Number(args[1] ?? 7)));
