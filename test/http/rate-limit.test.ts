// Upstream's rate limits on virtual time: per-agent buckets, 429 with Retry-After, admin and /api/sim exempt, off by default.
import { expect } from 'chai';
import { bucketsFor, limiterKey, MAX_WINDOWS, RateLimiter } from '../../src/http/rate-limit.js';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

const LIMITED = 'Rate limit exceeded. Try again in 60 seconds.';

describe('RateLimiter', () => {
  it('picks global, hourly and at most one endpoint bucket, as upstream', () => {
    expect(bucketsFor('/api/trade/execute')).to.deep.equal(['global', 'hourly', 'trade']);
    expect(bucketsFor('/api/price')).to.deep.equal(['global', 'hourly', 'price']);
    expect(bucketsFor('/api/agents')).to.deep.equal(['global', 'hourly', 'account']);
    expect(bucketsFor('/api/competitions')).to.deep.equal(['global', 'hourly']);
    expect(bucketsFor('/api/account/balances')).to.deep.equal(['global', 'hourly', 'account']);
    expect(bucketsFor('/health')).to.deep.equal([]);
  });

  it('keys by agent id, else the key prefix, else the client ip', () => {
    expect(limiterKey({ principal: { kind: 'agent', agentId: 'a1', ownerId: 'u1', generation: 'current' } })).to.equal('a1');
    expect(limiterKey({ principal: { kind: 'anonymous' }, authorization: 'Bearer abc_def' })).to.equal('abc');
    expect(limiterKey({ principal: { kind: 'anonymous' }, authorization: 'Bearer a_b_c', ip: '::1' })).to.equal('ip:::1');
    expect(limiterKey({ principal: { kind: 'anonymous' }, ip: '::1', headers: { 'x-forwarded-for': '8.8.8.8, 10.0.0.1' } })).to.equal('ip:8.8.8.8');
    expect(limiterKey({ principal: { kind: 'anonymous' }, ip: '::1', headers: { 'x-forwarded-for': '10.0.0.1' } })).to.equal('ip:::1');
  });

  it('opens a window at the first request, refuses past the points, and resets when the window has passed', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 30; i++) expect(rl.consume('k', '/api/agent/balances', 1000 + i)).to.equal(null);
    expect(rl.consume('k', '/api/agent/balances', 21_000)).to.deep.equal({ msBeforeNext: 40_000, resetAt: 61_000 });
    expect(rl.consume('k', '/api/agent/balances', 61_000)).to.equal(null);
    expect(rl.consume('other', '/api/agent/balances', 21_000)).to.equal(null);
  });

  it('drops a window once it has passed, and keeps at most MAX_WINDOWS, dropping the oldest', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 100; i++) rl.consume(`k${i}`, '/api/trade/execute', 0);
    expect(rl.kept).to.equal(300);
    rl.consume('late', '/api/competitions', 60_000); // the minute windows have passed, the hourly ones not yet
    expect(rl.kept).to.equal(102);
    rl.consume('later', '/api/competitions', 3_600_000); // late's hourly window is still open
    expect(rl.kept).to.equal(3);
    for (let i = 0; i < MAX_WINDOWS; i++) rl.consume(`d${i}`, '/api/competitions', 3_600_000 + i);
    expect(rl.kept).to.equal(MAX_WINDOWS);
    const ids = (rl.capture() as [string][]).map((e) => e[0]);
    expect(ids.filter((id) => id.startsWith('global:')).slice(0, 1)).to.deep.equal([`global:d${MAX_WINDOWS / 2}`]);
    expect(ids).to.include(`hourly:d${MAX_WINDOWS - 1}`).and.not.include('hourly:late');
  });

  it('captures and applies its windows (snapshots replay the same refusals)', () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 30; i++) rl.consume('k', '/api/agent', 0);
    const copy = new RateLimiter();
    copy.apply(JSON.parse(JSON.stringify(rl.capture())));
    expect(copy.consume('k', '/api/agent', 1)).to.deep.equal(rl.consume('k', '/api/agent', 1));
    expect(() => copy.apply({})).to.throw(/rateLimits/);
  });
});

describe('rate limits over HTTP (rateLimits: upstream)', () => {
  let a: Arena;
  before(async () => { a = await startArena(usdcOnly(100_000), 2, { rateLimits: 'upstream' }); });
  after(() => a.s.close());
  beforeEach(() => a.s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } }));
  const buy = (i = 0) => a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' }, i);

  it('refuses the 101st trade of a virtual minute with 429 and Retry-After, and allows it a minute later', async () => {
    for (let i = 0; i < 100; i++) expect((await buy()).status).to.equal(200);
    const refused = await buy();
    expectError(refused, 429, LIMITED);
    expect(refused.headers.get('retry-after')).to.equal('60');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).to.equal(a.s.world.deps.clock.now() + 60_000);
    expect((await buy(1)).status, 'another agent has its own buckets').to.equal(200);
    await a.s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 20_000 } });
    expectError(await buy(), 429, 'Rate limit exceeded. Try again in 40 seconds.');
    await a.s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 40_000 } });
    expect((await buy()).status).to.equal(200);
  });

  it('limits /api/agent to 30 a minute (also counting failed requests)', async () => {
    const key = a.agents[0]!.apiKey;
    const query = { competitionId: a.competitionId };
    for (let i = 0; i < 30; i++) expect((await a.s.call('GET', '/api/agent/balances', { key, query })).status).to.equal(200);
    expectError(await a.s.call('GET', '/api/agent/balances', { key, query }), 429, LIMITED);
    expectError(await a.s.call('GET', '/api/agent/no-such-route', { key }), 429, LIMITED);
  });

  it('exempts admin keys and the /api/sim paths', async () => {
    for (let i = 0; i < 310; i++) {
      const res = await a.s.call('GET', '/api/price', { key: ADMIN_KEY, query: { token: TOK.SOL } });
      if (res.status !== 200) expect.fail(`request ${i + 1}: ${res.status}`);
    }
    for (let i = 0; i < 35; i++) expect((await a.s.call('GET', '/api/sim/clock', { key: ADMIN_KEY })).status).to.equal(200);
  });

  it('keys anonymous callers by their key prefix on public routes', async () => {
    for (let i = 0; i < 30; i++) await a.s.call('GET', '/api/agents', { headers: { authorization: 'Bearer feedfeed_beef' } });
    expectError(await a.s.call('GET', '/api/agents', { headers: { authorization: 'Bearer feedfeed_beef' } }), 429, LIMITED);
    expect((await a.s.call('GET', '/api/health', { headers: { authorization: 'Bearer other_key' } })).status).to.equal(200);
  });
});

describe('rate limits are off by default', () => {
  it('lets 101 trades through in one virtual minute, and a reset can turn limits on', async () => {
    const a = await startArena(usdcOnly(100_000), 1);
    try {
      for (let i = 0; i < 101; i++) {
        const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' });
        if (res.status !== 200) expect.fail(`trade ${i + 1}: ${res.status}`);
      }
      await a.s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { rateLimits: 'upstream' } } });
      for (let i = 0; i < 30; i++) await a.s.call('GET', '/api/agents');
      expectError(await a.s.call('GET', '/api/agents'), 429, LIMITED);
    } finally {
      await a.s.close();
    }
  });
});
