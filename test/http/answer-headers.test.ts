// The bytes of an answer's head: JSON answers written directly and answers left to Koa carry the same headers, in the same order.
import { expect } from 'chai';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '../../src/server.js';
import { createWorld } from '../../src/world.js';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

interface RawAnswer { status: string; headers: [string, string][]; body: Buffer }

/** One request over a socket, with the answer's header lines as sent (names as spelled, in order). */
function raw(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const lines: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: `${res.statusCode} ${res.statusMessage}`, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The header lines but `Date` (which changes with the wall clock). */
const stable = (a: RawAnswer) => a.headers.filter(([name]) => name !== 'Date');

const CORS: [string, string][] = [['Vary', 'Origin'], ['Access-Control-Allow-Origin', '*']];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json; charset=utf-8'];
const KEEP_ALIVE: [string, string][] = [['Connection', 'keep-alive'], ['Keep-Alive', 'timeout=5']];

describe('answer heads', () => {
  let a: Arena;
  before(async () => { a = await startArena(usdcOnly(100_000), 1, { rateLimits: 'upstream' }); });
  after(() => a.s.close());

  it('sends a JSON answer with the CORS headers, its type and its exact length (200)', async () => {
    const res = await raw(a.s.url, 'GET', '/api/health');
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(JSON.parse(res.body.toString()).status).to.equal('ok');
  });

  it('sends a trade answer the same way, its UTF-8 length counted in bytes (200)', async () => {
    const res = await raw(a.s.url, 'POST', '/api/trade/execute', { authorization: `Bearer ${a.agents[0]!.apiKey}`, 'content-type': 'application/json' },
      JSON.stringify({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1', reason: 'héllo wörld' }));
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(res.body.length).to.be.greaterThan(res.body.toString().length);
    expect(JSON.parse(res.body.toString()).transaction.reason).to.equal('héllo wörld');
  });

  it('sends an error envelope the same way, with the status line Koa gives (404)', async () => {
    const res = await raw(a.s.url, 'GET', '/api/xyz');
    expect(res.status).to.equal('404 Not Found');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(JSON.parse(res.body.toString())).to.deep.equal({ success: false, error: 'Cannot GET /api/xyz' });
  });

  it('answers HEAD through Koa: the same headers, the length of the body it leaves out', async () => {
    const head = await raw(a.s.url, 'HEAD', '/api/xyz');
    expect(head.status).to.equal('404 Not Found');
    const length = Buffer.byteLength(JSON.stringify({ success: false, error: 'Cannot HEAD /api/xyz' }));
    expect(stable(head)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(length)], ...KEEP_ALIVE]);
    expect(head.body.length).to.equal(0);
  });

  it('puts the CORS headers first on answers Koa writes (the OpenAPI document)', async () => {
    const res = await raw(a.s.url, 'GET', '/api/openapi.json');
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, ['Cache-Control', 'no-cache'], JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
  });

  it('adds a refusal\'s own headers after the CORS headers (429)', async () => {
    const key = a.agents[0]!.apiKey;
    await a.s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } });
    let res: RawAnswer | undefined;
    for (let i = 0; i < 40 && res?.status !== '429 Too Many Requests'; i++) res = await raw(a.s.url, 'GET', '/api/agent/balances', { authorization: `Bearer ${key}` });
    expect(res!.status).to.equal('429 Too Many Requests');
    const reset = String(a.s.world.deps.clock.now() + 60_000);
    expect(stable(res!)).to.deep.equal([...CORS, ['Retry-After', '60'], ['X-RateLimit-Reset', reset], JSON_TYPE, ['Content-Length', String(res!.body.length)], ...KEEP_ALIVE]);
    expectError({ status: 429, body: JSON.parse(res!.body.toString()) }, 429, 'Rate limit exceeded. Try again in 60 seconds.');
  });
});

describe('an answer to a client that has gone', () => {
  it('keeps serving when a client closed its connection while its answer waited', async () => {
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => { release = resolve; });
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    const server = createServer(world, { delay: () => waiting }).listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const fault = await fetch(`${url}/api/sim/faults`, {
        method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'latency', path: '/api/health', ms: 1000 }),
      });
      expect(fault.status).to.equal(200);
      // The answer is held by the latency fault; the client gives up, the server sees the
      // connection close, then the answer is let go.
      const closedOnServer = new Promise<void>((resolve) => server.once('request', (req: IncomingMessage) => req.socket.once('close', () => resolve())));
      const req = request(`${url}/api/health`);
      req.on('error', () => {});
      req.end();
      await new Promise<void>((resolve) => server.once('request', () => resolve()));
      req.destroy();
      await closedOnServer;
      release();
      const res = await fetch(`${url}/api/competitions`);
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { success: boolean }).success).to.equal(true);
    } finally {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
