// Concurrency over HTTP: many parallel trades (Promise.all) never overdraw, and the final balances equal the starting ones plus the accepted trades.
import { expect } from 'chai';
import fc from 'fast-check';
import { createAgent } from '../helpers/actors.js';
import { ADMIN_KEY } from '../helpers/server.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

type Row = { tokenAddress: string; amount: number };
const byToken = (rows: Row[]) => new Map(rows.map((r) => [r.tokenAddress, r.amount]));

/** Starting amounts plus every accepted trade's movements, from the trades the API reports. */
function expectedFrom(start: Map<string, number>, trades: { fromToken: string; toToken: string; fromAmount: number; toAmount: number }[]) {
  const out = new Map(start);
  for (const t of trades) {
    out.set(t.fromToken, (out.get(t.fromToken) ?? 0) - t.fromAmount);
    if (t.toAmount > 0) out.set(t.toToken, (out.get(t.toToken) ?? 0) + t.toAmount);
  }
  return out;
}

function expectSameAmounts(actual: Map<string, number>, expected: Map<string, number>) {
  for (const [token, amount] of expected) expect(actual.get(token) ?? 0, token).to.be.closeTo(amount, 1e-9 * Math.max(1, Math.abs(amount)));
  for (const [token, amount] of actual) if (!expected.has(token)) expect(amount, token).to.equal(0);
}

describe('concurrent trades by one agent over HTTP (Promise.all)', function () {
  this.timeout(60_000);
  let a: Arena;
  afterEach(() => a.s.close());

  it('accepts exactly as many 300 USDC buys as 5000 USDC pays for; the rest are "Insufficient balance" (400); nothing goes negative', async () => {
    a = await startArena({ tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 }, ...usdcOnly(5000) }, 1);
    const results = await Promise.all(Array.from({ length: 40 }, () => a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '300' })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).to.have.length(16);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).to.equal(400);
      expect(r.body.error).to.equal('Insufficient balance');
    }
    const rows = byToken(await a.balances());
    expect(rows.get(TOK.SVM_USDC)).to.be.closeTo(200, 1e-9);
    expect(rows.get(TOK.SOL)).to.be.closeTo(32, 1e-9); // 16 × 300 USD / 150 USD, no slippage
    for (const v of rows.values()) expect(v).to.be.at.least(0);
    const listed = await a.s.call('GET', '/api/agent/trades', { key: a.agents[0]!.apiKey, query: { competitionId: a.competitionId } });
    expect(listed.body.trades.map((t: { id: string }) => t.id).sort()).to.deep.equal(ok.map((r) => r.body.transaction.id).sort());
  });

  it('mixed directions with upstream slippage: final balances = start + the accepted trades, none negative (seeded sequences)', async () => {
    a = await startArena({ tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 } }, 1, { slippage: 'upstream' });
    const key = a.agents[0]!.apiKey;
    const start = byToken(await a.balances());
    const tokens = [TOK.SVM_USDC, TOK.SOL, TOK.SVM_USDT, TOK.SVM_BURN];
    const orders = fc.sample(fc.record({ from: fc.constantFrom(TOK.SVM_USDC, TOK.SOL, TOK.SVM_USDT), to: fc.constantFrom(...tokens), amount: fc.constantFrom('1', '3', '250', '900', '2000') }), { seed: 4242, numRuns: 60 });
    const results = await Promise.all(orders.map((o) => a.trade({ fromToken: o.from, toToken: o.to, amount: o.amount })));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).to.be.oneOf([200, 400]);
    const accepted = results.filter((r) => r.status === 200).map((r) => r.body.transaction);
    expect(accepted.length).to.be.greaterThan(5);
    const rows = await a.balances();
    for (const r of rows) expect(r.amount, r.tokenAddress).to.be.at.least(0);
    expectSameAmounts(byToken(rows), expectedFrom(start, accepted));
    const listed = await a.s.call('GET', '/api/agent/trades', { key, query: { competitionId: a.competitionId } });
    expect(listed.body.trades).to.have.length(accepted.length);
    expectSameAmounts(byToken(rows), expectedFrom(start, listed.body.trades));
  });

  it('trades racing an admin end: each is accepted before the end or refused after it, and the final snapshot values the final balances', async () => {
    a = await startArena({ tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 100 } }, 3);
    const starts = await Promise.all([0, 1, 2].map((i) => a.balances(i)));
    const calls = [0, 1, 2].flatMap((i) => Array.from({ length: 8 }, () => a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150' }, i).then((r) => ({ i, r }))));
    const end = a.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: a.competitionId } });
    const [done, ended] = await Promise.all([Promise.all(calls), end]);
    expect(ended.status).to.equal(200);
    for (const { r } of done) {
      if (r.status !== 200) expect(r.body.error).to.match(/^Competition has ended/);
    }
    const board = await a.s.call('GET', `/api/competitions/${a.competitionId}/agents`, { query: { limit: '100' } });
    for (const i of [0, 1, 2]) {
      const accepted = done.filter((x) => x.i === i && x.r.status === 200).map((x) => x.r.body.transaction);
      const rows = await a.balances(i);
      expectSameAmounts(byToken(rows), expectedFrom(byToken(starts[i]!), accepted));
      const value = rows.reduce((s, r) => s + r.amount * (r.tokenAddress === TOK.SOL ? 150 : r.tokenAddress === TOK.WETH ? 3000 : 1), 0);
      const row = board.body.agents.find((x: { id: string }) => x.id === a.agents[i]!.agentId);
      expect(row.score).to.be.closeTo(value, 1e-6);
    }
    const late = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' });
    expect(late.status).to.equal(400);
  });

  it('parallel joins of one agent register it once; parallel key resets leave exactly one working key', async () => {
    a = await startArena({}, 1);
    const other = await createAgent(a.s, ADMIN_KEY, 'Joiner');
    const pending = await a.s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Later' } });
    const cid = pending.body.competition.id as string;
    const joins = await Promise.all(Array.from({ length: 10 }, () => a.s.call('POST', `/api/competitions/${cid}/agents/${other.agentId}`, { key: other.apiKey })));
    expect(joins.filter((r) => r.status === 200)).to.have.length(1);
    for (const r of joins.filter((x) => x.status !== 200)) expect(r.body.error).to.equal('Agent is already actively registered for this competition');
    const detail = await a.s.call('GET', `/api/competitions/${cid}`);
    expect(detail.body.competition.registeredParticipants).to.equal(1);
    const resets = await Promise.all(Array.from({ length: 6 }, () => a.s.call('POST', '/api/agent/reset-api-key', { key: other.apiKey })));
    // The first reset wins; the others arrive with a key that no longer exists.
    expect(resets.filter((r) => r.status === 200)).to.have.length(1);
    const fresh = resets.find((r) => r.status === 200)!.body.apiKey as string;
    expect((await a.s.call('GET', '/api/agent/profile', { key: fresh })).status).to.equal(200);
    expect((await a.s.call('GET', '/api/agent/profile', { key: other.apiKey })).status).to.equal(401);
  });
});
