// The bytes of an answer's head: JSON answers written directly and answers left to Koa carry the same headers, in the same order.
import { expect } from 'chai';
import { request, type IncomingMessage } from 'node:http';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY, rawCall, startTestServer, type RawAnswer } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

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
    const res = await rawCall(a.s.url, 'GET', '/api/health');
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(JSON.parse(res.body.toString()).status).to.equal('ok');
  });

  it('sends a trade answer the same way, its UTF-8 length counted in bytes (200)', async () => {
    const res = await rawCall(a.s.url, 'POST', '/api/trade/execute', { authorization: `Bearer ${a.agents[0]!.apiKey}`, 'content-type': 'application/json' },
      JSON.stringify({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1', reason: 'héllo wörld' }));
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(res.body.length).to.be.greaterThan(res.body.toString().length);
    expect(JSON.parse(res.body.toString()).transaction.reason).to.equal('héllo wörld');
  });

  it('sends an error envelope the same way, with the status line Koa gives (404)', async () => {
    const res = await rawCall(a.s.url, 'GET', '/api/xyz');
    expect(res.status).to.equal('404 Not Found');
    expect(stable(res)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
    expect(JSON.parse(res.body.toString())).to.deep.equal({ success: false, error: 'Cannot GET /api/xyz' });
  });

  it('answers HEAD through Koa: the same headers, the length of the body it leaves out', async () => {
    const head = await rawCall(a.s.url, 'HEAD', '/api/xyz');
    expect(head.status).to.equal('404 Not Found');
    const length = Buffer.byteLength(JSON.stringify({ success: false, error: 'Cannot HEAD /api/xyz' }));
    expect(stable(head)).to.deep.equal([...CORS, JSON_TYPE, ['Content-Length', String(length)], ...KEEP_ALIVE]);
    expect(head.body.length).to.equal(0);
  });

  it('puts the CORS headers first on answers Koa writes (the OpenAPI document)', async () => {
    const res = await rawCall(a.s.url, 'GET', '/api/openapi.json');
    expect(res.status).to.equal('200 OK');
    expect(stable(res)).to.deep.equal([...CORS, ['Cache-Control', 'no-cache'], JSON_TYPE, ['Content-Length', String(res.body.length)], ...KEEP_ALIVE]);
  });

  it('adds a refusal\'s own headers after the CORS headers (429)', async () => {
    const key = a.agents[0]!.apiKey;
    await a.s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } });
    let res: RawAnswer | undefined;
    for (let i = 0; i < 40 && res?.status !== '429 Too Many Requests'; i++) res = await rawCall(a.s.url, 'GET', '/api/agent/balances', { authorization: `Bearer ${key}` });
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
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { delay: () => waiting });
    try {
      expect((await s.call('POST', '/api/sim/faults', { key: ADMIN_KEY, body: { kind: 'latency', path: '/api/health', ms: 1000 } })).status).to.equal(200);
      // The answer is held by the latency fault; the client gives up, the server sees the
      // connection close, then the answer is let go.
      const closedOnServer = new Promise<void>((resolve) => s.server.once('request', (req: IncomingMessage) => req.socket.once('close', () => resolve())));
      const req = request(`${s.url}/api/health`);
      req.on('error', () => {});
      req.end();
      await new Promise<void>((resolve) => s.server.once('request', () => resolve()));
      req.destroy();
      await closedOnServer;
      release();
      const res = await s.call('GET', '/api/competitions');
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
    } finally {
      release();
      await s.close();
    }
  });
});
