// Perps engine: admin open/close, mark-to-market, liquidation, accounts, agent and competition reads, checked against hand-computed numbers.
import { expect } from 'chai';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const MINUTE = 60_000;
const MISSING = '00000000-0000-4000-8000-000000000000';
const BTCB = '0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c';
type Actor = Awaited<ReturnType<typeof createAgent>>;

/** A started perps competition (catalogue prices: BTC 60000, ETH 3000, SOL 150). */
interface PerpsCup { s: TestServer; cid: string; agents: Actor[]; t0: number }

async function perpsCup(extra: Record<string, unknown> = {}, n = 2): Promise<PerpsCup> {
  const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
  const agents: Actor[] = [];
  for (let i = 0; i < n; i++) agents.push(await createAgent(s, ADMIN_KEY, `Perp ${i}`, { agentWalletAddress: nextWallet() }));
  const res = await s.call('POST', '/api/admin/competition/start', {
    key: ADMIN_KEY, body: { name: 'Perps Cup', type: 'perpetual_futures', agentIds: agents.map((a) => a.agentId), ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { s, cid: res.body.competition.id, agents, t0: s.world.deps.clock.now() };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('perpetual futures', () => {
  let c: PerpsCup;
  const open = (body: Record<string, unknown>, cid = c.cid) => c.s.call('POST', `/api/admin/competitions/${cid}/perps/positions`, { key: ADMIN_KEY, body: { agentId: c.agents[0]!.agentId, ...body } });
  const close = (positionId: string, cid = c.cid) => c.s.call('POST', `/api/admin/competitions/${cid}/perps/positions/${positionId}/close`, { key: ADMIN_KEY });
  const price = async (token: string, p: number) => {
    const res = await c.s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices: [{ token, price: p }] } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const positions = (i = 0, query: Record<string, string> = { competitionId: c.cid }) => c.s.call('GET', '/api/agent/perps/positions', { key: c.agents[i]!.apiKey, query });
  const account = (i = 0, query: Record<string, string> = { competitionId: c.cid }) => c.s.call('GET', '/api/agent/perps/account', { key: c.agents[i]!.apiKey, query });

  afterEach(() => c.s.close());

  describe('a long position', () => {
    beforeEach(async () => { c = await perpsCup(); });

    it('opens at the mark: collateral = size / leverage, liquidation = entry x (1 - 1/L + 0.01) (200)', async () => {
      const res = await open({ asset: 'btc', side: 'long', sizeUsd: 10000, leverage: 5 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const p = res.body.position;
      expect(p).to.include({
        competitionId: c.cid, agentId: c.agents[0]!.agentId, marketId: 'BTC', marketSymbol: 'BTC', asset: 'BTC', isLong: true, side: 'long',
        leverage: 5, size: 10000, collateral: 2000, averagePrice: 60000, markPrice: 60000, liquidationPrice: 48600,
        unrealizedPnl: 0, pnlPercentage: 0, realizedPnl: 0, status: 'Open', openedAt: iso(c.t0), closedAt: null, timestamp: iso(c.t0),
      });
      expect(p.positionId).to.match(/^[0-9a-f]{16}$/);
    });

    it('marks to market from the feed; the sim price override takes the asset symbol (hand computation)', async () => {
      await open({ asset: 'BTC', side: 'long', sizeUsd: 10000, leverage: 5 });
      const set = await price('BTC', 63000);
      expect(set.overrides).to.deep.equal([{ token: BTCB, specificChain: 'bsc', price: 63000 }]);
      await c.s.world.advance(MINUTE);
      const res = await positions();
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ success: true, agentId: c.agents[0]!.agentId, competitionId: c.cid });
      // 1/6 BTC: size 1/6 x 63000 = 10500, PnL 3000 / 6 = 500, ROE 500 / 2000 = 25 %.
      expect(res.body.positions[0]).to.include({ size: 10500, markPrice: 63000, unrealizedPnl: 500, pnlPercentage: 25, timestamp: iso(c.t0 + MINUTE) });
      const acc = await account();
      expect(acc.body.account).to.deep.equal({
        id: `${c.cid}:${c.agents[0]!.agentId}`, agentId: c.agents[0]!.agentId, competitionId: c.cid, accountId: '',
        totalEquity: '10500', availableBalance: '8500', marginUsed: '2000', totalPnl: '500', totalVolume: '10000', openPositions: 1,
        timestamp: iso(c.t0 + MINUTE),
      });
    });

    it('closes at the mark and realises the PnL; the account counts both fills as volume', async () => {
      const id = (await open({ asset: 'BTC', side: 'long', sizeUsd: 10000, leverage: 5 })).body.position.id;
      await price('BTC', 63000);
      await c.s.world.advance(MINUTE);
      const res = await close(id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.position).to.include({
        status: 'Closed', markPrice: 63000, size: 10500, realizedPnl: 500, unrealizedPnl: 500, pnlPercentage: 25, closedAt: iso(c.t0 + MINUTE),
      });
      await price('BTC', 10);
      expect((await account()).body.account).to.include({
        totalEquity: '10500', availableBalance: '10500', marginUsed: '0', totalPnl: '500', totalVolume: '20500', openPositions: 0,
      });
      expectError(await close(id), 400, 'Position is not open (status: Closed)');
    });

    it('is liquidated at the first sync after the mark crosses its liquidation price, losing its collateral', async () => {
      // 10x: liquidation at 60000 x (1 - 0.1 + 0.01) = 54600.
      const id = (await open({ asset: 'BTC', side: 'long', sizeUsd: 10000, leverage: 10 })).body.position.id;
      await price('BTC', 55000);
      await c.s.world.advance(5 * MINUTE);
      const near = (await positions()).body.positions[0];
      expect(near.status).to.equal('Open');
      expect(near.unrealizedPnl).to.be.closeTo(-5000 / 6, 1e-9);
      expect(near.pnlPercentage).to.be.closeTo(-250 / 3, 1e-9);
      await price('BTC', 54000);
      expect((await positions()).body.positions[0].status, 'only a sync liquidates').to.equal('Open');
      await c.s.world.advance(5 * MINUTE);
      const gone = (await positions()).body.positions[0];
      expect(gone).to.include({
        id, status: 'Liquidated', markPrice: 54600, realizedPnl: -1000, unrealizedPnl: -1000, pnlPercentage: -100,
        closedAt: iso(c.t0 + 10 * MINUTE), timestamp: iso(c.t0 + 10 * MINUTE),
      });
      expect(gone.size).to.be.closeTo(9100, 1e-9);
      // Equity 10000 - 1000; volume 10000 + 1/6 x 54600.
      expect((await account()).body.account).to.include({ totalEquity: '9000', availableBalance: '9000', marginUsed: '0', totalPnl: '-1000', totalVolume: '19100', openPositions: 0 });
      const snaps = await c.s.call('GET', `/api/admin/competition/${c.cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: c.agents[0]!.agentId } });
      expect(snaps.body.snapshots.map((x: any) => [x.timestamp, x.totalValue])).to.deep.equal([
        [iso(c.t0 + 10 * MINUTE), 9000], [iso(c.t0 + 5 * MINUTE), 10000 - 5000 / 6], [iso(c.t0), 10000],
      ]);
    });

    it('is liquidated before an admin action too: closing a crossed position is refused (400)', async () => {
      const id = (await open({ asset: 'BTC', side: 'long', sizeUsd: 10000, leverage: 10 })).body.position.id;
      await price('BTC', 50000);
      expectError(await close(id), 400, 'Position is not open (status: Liquidated)');
      expect((await positions()).body.positions[0]).to.include({ status: 'Liquidated', closedAt: iso(c.t0) });
    });
  });

  describe('a short position and the account', () => {
    beforeEach(async () => { c = await perpsCup({ perpsInitialEquityUsd: 5000 }); });

    it('gains when the mark falls: 2 ETH short from 3000 at 10x (hand computation)', async () => {
      const p = (await open({ asset: 'ETH', side: 'short', sizeUsd: 6000, leverage: 10 })).body.position;
      expect(p).to.include({ isLong: false, side: 'short', collateral: 600, averagePrice: 3000 });
      expect(p.liquidationPrice).to.be.closeTo(3270, 1e-9);
      await price('ETH', 2850);
      const view = (await positions()).body.positions[0];
      expect(view).to.include({ size: 5700, unrealizedPnl: 300, pnlPercentage: 50 });
      expect((await account()).body.account).to.include({ totalEquity: '5300', availableBalance: '4700', marginUsed: '600', totalPnl: '300', totalVolume: '6000' });
    });

    it('starts every account at perpsInitialEquityUsd and refuses collateral beyond the available balance (400)', async () => {
      expect((await account(1)).body.account).to.include({ totalEquity: '5000', availableBalance: '5000', openPositions: 0 });
      expectError(await open({ asset: 'SOL', side: 'long', sizeUsd: 30000, leverage: 5 }), 400,
        'Insufficient available balance: collateral 6000 exceeds available 5000');
      expect((await open({ asset: 'SOL', side: 'long', sizeUsd: 25000, leverage: 5 })).status).to.equal(200);
      expectError(await open({ asset: 'SOL', side: 'short', sizeUsd: 5, leverage: 1 }), 400, 'Insufficient available balance: collateral 5 exceeds available 0');
    });

    it('lists the agent\'s positions newest first, open and closed, and the competition\'s competition-level views', async () => {
      const first = (await open({ asset: 'SOL', side: 'long', sizeUsd: 1500, leverage: 3 })).body.position.id;
      await c.s.world.advance(MINUTE);
      const second = (await open({ asset: 'ETH', side: 'short', sizeUsd: 3000, leverage: 2 })).body.position.id;
      await c.s.world.advance(MINUTE);
      await close(first);
      const other = (await open({ asset: 'BTC', side: 'long', sizeUsd: 600, leverage: 2, agentId: c.agents[1]!.agentId })).body.position.id;
      expect((await positions()).body.positions.map((p: any) => [p.id, p.status])).to.deep.equal([[second, 'Open'], [first, 'Closed']]);
      const byAgent = await c.s.call('GET', `/api/competitions/${c.cid}/agents/${c.agents[0]!.agentId}/perps/positions`, { key: c.agents[1]!.apiKey });
      expect(byAgent.body).to.include({ success: true, competitionId: c.cid, agentId: c.agents[0]!.agentId });
      expect(byAgent.body.positions.map((p: any) => p.id)).to.deep.equal([second, first]);
      const all = (q: Record<string, string>) => c.s.call('GET', `/api/competitions/${c.cid}/perps/all-positions`, { key: c.agents[0]!.apiKey, query: q });
      const openList = await all({});
      expect(openList.body.positions.map((p: any) => p.id)).to.deep.equal([other, second]);
      expect(openList.body.positions[0].agent).to.deep.equal({ id: c.agents[1]!.agentId, name: 'Perp 1', imageUrl: null, description: null });
      expect(openList.body.pagination).to.deep.equal({ total: 2, limit: 10, offset: 0, hasMore: false });
      expect((await all({ status: 'Closed' })).body.positions.map((p: any) => p.id)).to.deep.equal([first]);
      const page = await all({ status: 'all', limit: '2', offset: '1' });
      expect(page.body.pagination).to.deep.equal({ total: 3, limit: 2, offset: 1, hasMore: false });
      const summary = await c.s.call('GET', `/api/competitions/${c.cid}/perps/summary`, { key: c.agents[0]!.apiKey });
      // Volume: 1500 + 1500 (close at 150) + 3000 + 600; equity 5000 each, all marks unchanged.
      expect(summary.body).to.deep.include({ success: true, competitionId: c.cid, summary: { totalAgents: 2, totalPositions: 3, totalVolume: 6600, averageEquity: 5000 } });
      const detail = await c.s.call('GET', `/api/competitions/${c.cid}`);
      expect(detail.body.competition.stats).to.deep.include({ totalAgents: 2, totalPositions: 3, totalVolume: 6600, averageEquity: 5000, totalTrades: 0 });
      expect(detail.body.competition).to.include({ evaluationMetric: 'calmar_ratio', perpsInitialEquityUsd: 5000 });
      expect((await c.s.call('GET', `/api/agents/${c.agents[0]!.agentId}`)).body.agent.stats.totalPositions).to.equal(2);
    });

    it('takes an equity snapshot per agent at the start and every snapshot interval', async () => {
      await open({ asset: 'SOL', side: 'long', sizeUsd: 1500, leverage: 1 });
      await price('SOL', 160);
      await c.s.world.advance(5 * MINUTE);
      const snaps = await c.s.call('GET', `/api/admin/competition/${c.cid}/snapshots`, { key: ADMIN_KEY });
      expect(snaps.body.snapshots.map((x: any) => [x.agentId === c.agents[0]!.agentId ? 'A' : 'B', x.totalValue])).to.deep.equal([
        ['A', 5100], ['A', 5000], ['B', 5000], ['B', 5000],
      ]);
    });
  });

  describe('rejections', () => {
    beforeEach(async () => { c = await perpsCup(); });

    it('checks the admin open body and rules (400, 403, 404)', async () => {
      expectError(await open({ asset: 'DOGE', side: 'long', sizeUsd: 100, leverage: 2 }), 400, 'Unknown perps asset: DOGE');
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 51 }), 400, 'Invalid request: leverage (must be <= 50)');
      expectError(await open({ asset: 'BTC', side: 'up', sizeUsd: 100, leverage: 2 }), 400, 'Invalid request: side (must be equal to one of the allowed values: long, short)');
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 0, leverage: 2 }), 400, 'Invalid request: sizeUsd (must be > 0)');
      const outsider = await createAgent(c.s, ADMIN_KEY, 'Outsider', { agentWalletAddress: nextWallet() });
      expectError(await open({ agentId: outsider.agentId, asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 2 }), 403, 'Agent is not registered in this competition');
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 2 }, MISSING), 404, 'Competition not found');
      const pending = await createCompetition(c.s, ADMIN_KEY, { name: 'Later Perps', type: 'perpetual_futures' });
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 2 }, pending.id), 400, 'Competition is not active (status: pending)');
      const paper = await createCompetition(c.s, ADMIN_KEY, { name: 'Paper' });
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 2 }, paper.id), 400, 'This endpoint is only available for perpetual futures competitions');
      expectError(await close('nope'), 404, 'Position not found: nope');
      expectError(await open({ asset: 'BTC', side: 'long', sizeUsd: 100, leverage: 2 }, 'x'), 400, 'Invalid request: competitionId (invalid UUID)');
    });

    it('answers the agent reads with upstream\'s errors (400, 401, 403, 404) and requires competitionId', async () => {
      const paper = await c.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Paper', agentIds: [c.agents[1]!.agentId] } });
      const pid = paper.body.competition.id;
      expectError(await positions(1, { competitionId: pid }), 400,
        'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/trades for paper trading positions.');
      expectError(await account(1, { competitionId: pid }), 400,
        'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/balances for paper trading account.');
      expectError(await positions(0, { competitionId: MISSING }), 404, 'Competition not found');
      expectError(await positions(0, { competitionId: 'not-a-uuid' }), 404, 'Competition not found');
      const outsider = await createAgent(c.s, ADMIN_KEY, 'Outsider', { agentWalletAddress: nextWallet() });
      expectError(await c.s.call('GET', '/api/agent/perps/account', { key: outsider.apiKey, query: { competitionId: c.cid } }), 403, 'Agent is not registered in this competition');
      expectError(await c.s.call('GET', '/api/agent/perps/positions', { key: ADMIN_KEY, query: { competitionId: c.cid } }), 401, 'Authentication required');
      // The spec version requires it, even of an agent in a single competition.
      expectError(await positions(0, {}), 400, 'Missing required parameter: competitionId. Use GET /api/agent/perps/positions?competitionId=xxx');
      expectError(await account(1, {}), 400, 'Missing required parameter: competitionId. Use GET /api/agent/perps/account?competitionId=xxx');
      const paperBalances = await c.s.call('GET', '/api/agent/balances', { key: c.agents[0]!.apiKey, query: { competitionId: c.cid } });
      expectError(paperBalances, 400, 'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/account for account summary.');
    });

    it('answers the competition-level reads with upstream\'s errors', async () => {
      const paper = await createCompetition(c.s, ADMIN_KEY, { name: 'Paper' });
      const key = c.agents[0]!.apiKey;
      expectError(await c.s.call('GET', `/api/competitions/${paper.id}/agents/${c.agents[0]!.agentId}/perps/positions`, { key }), 400,
        'This endpoint is only available for perpetual futures competitions. Use GET /api/competitions/{id}/agents/{agentId}/trades for paper trading competitions.');
      expectError(await c.s.call('GET', `/api/competitions/${c.cid}/agents/${MISSING}/perps/positions`, { key }), 404, 'Agent not found');
      const outsider = await createAgent(c.s, ADMIN_KEY, 'Outsider');
      expectError(await c.s.call('GET', `/api/competitions/${c.cid}/agents/${outsider.agentId}/perps/positions`, { key }), 404, 'Agent is not participating in this competition');
      expectError(await c.s.call('GET', `/api/competitions/${MISSING}/perps/all-positions`, { key }), 404, 'Competition not found');
      expect((await c.s.call('GET', `/api/competitions/${paper.id}/perps/all-positions`, { key })).body.positions).to.deep.equal([]);
    });

    it('requires a wallet to join a perps competition (400)', async () => {
      const pending = await createCompetition(c.s, ADMIN_KEY, { name: 'Later Perps', type: 'perpetual_futures' });
      const bare = await createAgent(c.s, ADMIN_KEY, 'Bare');
      expectError(await c.s.call('POST', `/api/competitions/${pending.id}/agents/${bare.agentId}`, { key: bare.apiKey }), 400,
        'Agent must have a wallet address to participate in this competition');
    });
  });
});
