// GET /api/competitions/{competitionId}/trades and /agents/{agentId}/trades (newest first, paged, key required), also after real executes.
import { expect } from 'chai';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';
import { MINUTE, MISSING, insertTrade, type Actor } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const START = '2025-03-01T00:00:00Z';
const NO_KEY = '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY';

describe('GET /api/competitions/{competitionId}/trades and /agents/{agentId}/trades', () => {
  let s: TestServer;
  let a: Actor;
  let b: Actor;
  let cid: string;
  let tradeIds: string[];
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    a = await createAgent(s, ADMIN_KEY, 'Trader A', { agentDescription: 'momentum', agentImageUrl: 'https://img.example/a.png' });
    b = await createAgent(s, ADMIN_KEY, 'Trader B');
    const started = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Busy', agentIds: [a.agentId, b.agentId] } });
    cid = started.body.competition.id;
    const other = await createCompetition(s, ADMIN_KEY, { name: 'Elsewhere' });
    tradeIds = [];
    // Five trades a minute apart: A, B, A, B, A; plus one of A elsewhere.
    for (let i = 0; i < 5; i += 1) {
      tradeIds.push((await insertTrade(s, { agentId: i % 2 === 0 ? a.agentId : b.agentId, competitionId: cid, tradeAmountUsd: 10 * (i + 1) })).id);
      await s.world.advance(MINUTE);
    }
    await insertTrade(s, { agentId: a.agentId, competitionId: other.id });
  });
  after(() => s.close());
  const all = (query: Record<string, string> = {}, key: string | null = a.apiKey, id = cid) =>
    s.call('GET', `/api/competitions/${id}/trades`, { query, ...(key ? { key } : {}) });
  const mine = (agentId: string, query: Record<string, string> = {}, key: string | null = b.apiKey, id = cid) =>
    s.call('GET', `/api/competitions/${id}/agents/${agentId}/trades`, { query, ...(key ? { key } : {}) });

  it('lists every trade of the competition newest first with its agent (200)', async () => {
    const res = await all();
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.total).to.equal(5);
    expect(res.body.pagination).to.deep.equal({ total: 5, limit: 50, offset: 0, hasMore: false });
    expect(res.body.competition).to.include({ id: cid, name: 'Busy', status: 'active' });
    expect(res.body.trades.map((t: any) => t.id)).to.deep.equal([...tradeIds].reverse());
    expect(res.body.trades[0]).to.deep.equal({
      id: tradeIds[4], competitionId: cid, agentId: a.agentId, fromToken: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      toToken: 'So11111111111111111111111111111111111111112', fromAmount: 100, toAmount: 0.5, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL',
      fromSpecificChain: 'svm', toSpecificChain: 'svm', tradeAmountUsd: 50, timestamp: '2025-03-01T00:04:00.000Z', reason: 'test', txHash: null,
      tradeType: 'simulated', agent: { id: a.agentId, name: 'Trader A', imageUrl: 'https://img.example/a.png', description: 'momentum' },
    });
  });

  it('pages with limit and offset (limit 1 and 100, offset past the end)', async () => {
    const page = await all({ limit: '2', offset: '1' });
    expect(page.body.trades.map((t: any) => t.id)).to.deep.equal([tradeIds[3], tradeIds[2]]);
    expect(page.body.pagination).to.deep.equal({ total: 5, limit: 2, offset: 1, hasMore: true });
    expect((await all({ limit: '1' })).body.trades).to.have.length(1);
    expect((await all({ limit: '100' })).body.pagination).to.deep.equal({ total: 5, limit: 100, offset: 0, hasMore: false });
    const past = await all({ offset: '9' });
    expect(past.body.trades).to.deep.equal([]);
    expect(past.body.total).to.equal(5);
  });

  it("lists one agent's trades as full rows, newest first, for any key holder (200)", async () => {
    const res = await mine(a.agentId);
    expect(res.status).to.equal(200);
    expect(res.body.total).to.equal(3);
    expect(res.body.pagination).to.deep.equal({ total: 3, limit: 50, offset: 0, hasMore: false });
    expect(res.body.trades.map((t: any) => t.id)).to.deep.equal([tradeIds[4], tradeIds[2], tradeIds[0]]);
    expect(res.body.trades[0]).to.include({ agentId: a.agentId, competitionId: cid, price: 0.005, success: true, error: null, tradeType: 'simulated' });
    expect(res.body).to.not.have.property('competition');
    const admin = await mine(b.agentId, { limit: '1' }, ADMIN_KEY);
    expect(admin.body.trades.map((t: any) => t.id)).to.deep.equal([tradeIds[3]]);
    expect(admin.body.pagination.hasMore).to.equal(true);
    // Registered or not, an agent with no trades here gets an empty list.
    const outsider = await createAgent(s, ADMIN_KEY, 'Idle');
    expect((await mine(outsider.agentId)).body).to.deep.include({ trades: [], total: 0 });
  });

  it('rejects bad limits and offsets naming the parameter (400)', async () => {
    expectError(await all({ limit: '0' }), 400, 'Invalid request: limit (must be >= 1)');
    expectError(await all({ limit: '101' }), 400, 'Invalid request: limit (must be <= 100)');
    expectError(await mine(a.agentId, { offset: '-1' }), 400, 'Invalid request: offset (must be >= 0)');
    expectError(await mine(a.agentId, { limit: '101' }), 400, 'Invalid request: limit (must be <= 100)');
  });

  it('rejects malformed ids (400), unknown competitions and agents (404) and missing keys (401)', async () => {
    expectError(await all({}, a.apiKey, 'bad'), 400, 'Invalid UUID');
    expectError(await mine('bad'), 400, 'Invalid UUID');
    expectError(await mine(a.agentId, {}, b.apiKey, 'bad'), 400, 'Invalid UUID');
    expectError(await all({}, a.apiKey, MISSING), 404, 'Competition not found');
    expectError(await mine(a.agentId, {}, b.apiKey, MISSING), 404, 'Competition not found');
    expectError(await mine(MISSING), 404, 'Agent not found');
    expectError(await all({}, null), 401, NO_KEY);
    expectError(await mine(a.agentId, {}, null), 401, NO_KEY);
  });
});

describe('competition reads after trades through POST /api/trade/execute', () => {
  it('lists executed trades, counts them in the detail stats and ranks by the next snapshot', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START, slippage: 'none' });
    try {
      const a = await createAgent(s, ADMIN_KEY, 'Buyer');
      const b = await createAgent(s, ADMIN_KEY, 'Holder');
      const started = await s.call('POST', '/api/admin/competition/start', {
        key: ADMIN_KEY, body: { name: 'Live Cup', agentIds: [a.agentId, b.agentId], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] },
      });
      const cid = started.body.competition.id;
      const usdc = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
      const sol = 'So11111111111111111111111111111111111111112';
      const trade = await s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { competitionId: cid, fromToken: usdc, toToken: sol, amount: '150', reason: 'buy' } });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      const listed = await s.call('GET', `/api/competitions/${cid}/trades`, { key: b.apiKey });
      expect(listed.body.trades.map((t: any) => [t.agentId, t.fromAmount, t.toAmount, t.tradeAmountUsd, t.reason])).to.deep.equal([[a.agentId, 150, 1, 150, 'buy']]);
      const own = await s.call('GET', `/api/competitions/${cid}/agents/${a.agentId}/trades`, { key: a.apiKey });
      expect(own.body.trades.map((t: any) => t.id)).to.deep.equal([trade.body.transaction.id]);
      const detail = await s.call('GET', `/api/competitions/${cid}`);
      expect(detail.body.competition.stats).to.deep.equal({ totalTrades: 1, totalAgents: 2, totalVolume: 150, totalVotes: 0, uniqueTokens: 2, totalPositions: 0 });
      // SOL doubles: the ranking moves only with the next snapshot (A: 850 USDC + 1 SOL at 300 = 1150).
      s.world.deps.prices.overrides.set({ address: sol, specificChain: 'svm', price: 300 });
      const before = await s.call('GET', `/api/competitions/${cid}/agents`);
      expect(before.body.agents.map((x: any) => [x.name, x.score])).to.deep.equal([['Buyer', 1000], ['Holder', 1000]]);
      await s.world.advance(5 * MINUTE);
      const after = await s.call('GET', `/api/competitions/${cid}/agents`);
      expect(after.body.agents.map((x: any) => [x.name, x.rank, x.score, x.pnl, x.pnlPercent])).to.deep.equal([['Buyer', 1, 1150, 150, 15], ['Holder', 2, 1000, 0, 0]]);
    } finally {
      await s.close();
    }
  });
});
