// Fault injection through /api/sim/faults, each kind observed through the real endpoints, then removed.
import { expect } from 'chai';
import { performance } from 'node:perf_hooks';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

const addFault = (s: TestServer, body: unknown) => s.call('POST', '/api/sim/faults', { key: ADMIN_KEY, body });
const removeFault = (s: TestServer, id: string) => s.call('DELETE', `/api/sim/faults/${id}`, { key: ADMIN_KEY });

describe('POST/GET/DELETE /api/sim/faults', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());
  beforeEach(() => s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} }));

  it('adds faults with sequential ids, lists them oldest first and removes them (200)', async () => {
    const a = await addFault(s, { kind: 'priceZero', token: TOK.SOL });
    expect(a.body).to.deep.equal({ success: true, id: 'fault-1', fault: { kind: 'priceZero', token: TOK.SOL, id: 'fault-1' } });
    await addFault(s, { kind: 'priceStale', token: TOK.WETH, specificChain: 'eth' });
    await addFault(s, { kind: 'rateLimit', path: '/api/trade', count: 3 });
    const list = await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY });
    expect(list.body).to.deep.equal({
      success: true,
      faults: [
        { kind: 'priceZero', token: TOK.SOL, id: 'fault-1' },
        { kind: 'priceStale', token: TOK.WETH, specificChain: 'eth', at: '2025-01-01T00:00:00.000Z', id: 'fault-2' },
        { kind: 'rateLimit', path: '/api/trade', remaining: 3, retryAfter: 60, id: 'fault-3' },
      ],
    });
    expect((await removeFault(s, 'fault-2')).body).to.deep.equal({ success: true });
    expect((await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY })).body.faults.map((f: { id: string }) => f.id)).to.deep.equal(['fault-1', 'fault-3']);
  });

  it('answers an unknown fault id with 404', async () => {
    expectError(await removeFault(s, 'fault-99'), 404, 'Fault not found: fault-99');
  });

  it('names an unknown kind and the missing fields of a kind (400)', async () => {
    expectError(await addFault(s, { kind: 'meteor' }), 400,
      'Invalid request: kind (must be equal to one of the allowed values: priceMissing, priceZero, priceStale, constraintFail, rateLimit, latency)');
    expectError(await addFault(s, {}), 400, 'Invalid request: kind (required)');
    expectError(await addFault(s, { kind: 'priceZero' }), 400, 'Invalid request: token (required)');
    expectError(await addFault(s, { kind: 'constraintFail', token: TOK.JUP }), 400, 'Invalid request: metric (required)');
    expectError(await addFault(s, { kind: 'constraintFail', token: TOK.JUP, metric: 'vibes' }), 400,
      'Invalid request: metric (must be equal to one of the allowed values: pairAge, volume, liquidity, fdv, all)');
    expectError(await addFault(s, { kind: 'latency' }), 400, 'Invalid request: path (required); ms (required)');
    expectError(await addFault(s, { kind: 'rateLimit', path: 'api/trade' }), 400, 'Invalid request: path (must match pattern "^/")');
  });

  it('drops every fault on reset, and snapshots carry them (200)', async () => {
    const snap = (await s.call('POST', '/api/sim/snapshots', { key: ADMIN_KEY })).body.id as string;
    await addFault(s, { kind: 'priceMissing', token: TOK.SOL });
    const withFault = (await s.call('POST', '/api/sim/snapshots', { key: ADMIN_KEY })).body.id as string;
    await s.call('POST', `/api/sim/snapshots/${snap}/restore`, { key: ADMIN_KEY });
    expect((await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY })).body.faults).to.deep.equal([]);
    await s.call('POST', `/api/sim/snapshots/${withFault}/restore`, { key: ADMIN_KEY });
    expect((await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY })).body.faults).to.have.length(1);
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
    expect((await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY })).body.faults).to.deep.equal([]);
  });
});

describe('price faults seen through GET /api/price', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, prices: { kind: 'randomWalk', volatility: 0.01 } }); });
  after(() => s.close());
  beforeEach(() => s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} }));
  const price = (token: string, specificChain?: string) =>
    s.call('GET', '/api/price', { key: ADMIN_KEY, query: { token, ...(specificChain ? { specificChain } : {}) } }).then((r) => r.body);

  it('priceMissing: the token has no price at all until the fault is removed', async () => {
    const id = (await addFault(s, { kind: 'priceMissing', token: TOK.SOL })).body.id;
    expect(await price(TOK.SOL)).to.include({ success: false, price: null });
    await removeFault(s, id);
    expect(await price(TOK.SOL)).to.include({ success: true, symbol: 'SOL' });
  });

  it('priceMissing on one EVM chain only: discovery moves on to the next chain', async () => {
    const weth = '0x4200000000000000000000000000000000000006';
    expect((await price(weth)).specificChain).to.equal('base');
    await addFault(s, { kind: 'priceMissing', token: weth, specificChain: 'base' });
    expect(await price(weth)).to.include({ success: true, specificChain: 'optimism' });
  });

  it('priceZero: the token prices at 0', async () => {
    await addFault(s, { kind: 'priceZero', token: TOK.UNI });
    expect(await price(TOK.UNI)).to.include({ success: true, price: 0, specificChain: 'eth' });
  });

  it('priceStale: the price stays at its value when the fault was added, and moves again once removed', async () => {
    const p0 = (await price(TOK.SOL)).price as number;
    const id = (await addFault(s, { kind: 'priceStale', token: TOK.SOL })).body.id;
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 30 * 60_000 } });
    expect((await price(TOK.SOL)).price).to.equal(p0);
    await removeFault(s, id);
    expect((await price(TOK.SOL)).price).to.not.equal(p0);
  });

  it('priceStale with an explicit instant freezes the price at that instant', async () => {
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 10 * 60_000 } });
    await addFault(s, { kind: 'priceStale', token: TOK.SOL, at: '2025-01-01T00:00:00Z' });
    const frozen = (await price(TOK.SOL)).price;
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
    expect((await price(TOK.SOL)).price).to.equal(frozen);
  });
});

describe('constraintFail seen through POST /api/trade/execute', () => {
  let a: Arena;
  before(async () => { a = await startArena(usdcOnly(10_000)); });
  after(() => a.s.close());
  const buyJup = () => a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.JUP, amount: '10' });

  for (const [metric, message] of [
    ['pairAge', 'Token pair is too young (0.00 hours old, minimum: 168 hours)'],
    ['volume', 'Token has insufficient 24h volume ($0, minimum: $100,000)'],
    ['liquidity', 'Token has insufficient liquidity ($0, minimum: $100,000)'],
    ['fdv', 'Token has insufficient FDV ($0, minimum: $1,000,000)'],
    ['all', 'Cannot get token pair creation time, minimum age is: 168 hours'],
  ] as const) {
    it(`${metric}: the trade fails the constraint while the fault exists (400), then passes (200)`, async () => {
      expect((await buyJup()).status).to.equal(200);
      const id = (await addFault(a.s, { kind: 'constraintFail', token: TOK.JUP, metric })).body.id;
      expectError(await buyJup(), 400, message);
      await removeFault(a.s, id);
      expect((await buyJup()).status).to.equal(200);
    });
  }
});

describe('path faults: rateLimit and latency', () => {
  const delays: number[] = [];
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { delay: async (ms) => { delays.push(ms); } });
  });
  after(() => s.close());
  beforeEach(async () => {
    delays.length = 0;
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
  });
  const health = () => s.call('GET', '/api/health');

  it('rateLimit with a count: the next N requests under the path get the 429 with Retry-After, then 200', async () => {
    await addFault(s, { kind: 'rateLimit', path: '/api/health', count: 2, retryAfter: 5 });
    for (let i = 0; i < 2; i++) {
      const res = await health();
      expectError(res, 429, 'Rate limit exceeded. Try again in 5 seconds.');
      expect(res.headers.get('retry-after')).to.equal('5');
    }
    expect((await health()).status).to.equal(200);
    expect((await s.call('GET', '/api/sim/faults', { key: ADMIN_KEY })).body.faults[0]).to.include({ remaining: 0 });
  });

  it('rateLimit without a count: every request under the path until the fault is removed; /api/sim stays reachable', async () => {
    const id = (await addFault(s, { kind: 'rateLimit', path: '/api' })).body.id;
    for (let i = 0; i < 3; i++) expectError(await health(), 429, 'Rate limit exceeded. Try again in 60 seconds.');
    expect((await removeFault(s, id)).status).to.equal(200);
    expect((await health()).status).to.equal(200);
  });

  it('latency: answers under the path wait the fault ms (summed over faults); others do not', async () => {
    await addFault(s, { kind: 'latency', path: '/api/health', ms: 150 });
    await addFault(s, { kind: 'latency', path: '/api/health/detailed', ms: 50 });
    await health();
    await s.call('GET', '/api/health/detailed');
    await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY });
    expect(delays).to.deep.equal([150, 200]);
  });

  it('latency: with the default timer the answer really comes at least ms later', async () => {
    const real = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      await addFault(real, { kind: 'latency', path: '/api/health', ms: 150 });
      const t0 = performance.now();
      expect((await real.call('GET', '/api/health')).status).to.equal(200);
      expect(performance.now() - t0).to.be.at.least(150);
    } finally {
      await real.close();
    }
  });
});
