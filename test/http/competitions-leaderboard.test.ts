// GET /api/competitions/leaderboard (value source by status, access rules, inactive agents) and /{competitionId}/timeline.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { MINUTE, MISSING, setSol, setSolPrice, threeAgentCup, type Cup } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-03-01T00:00:00Z';
const NO_KEY = '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY';

describe('GET /api/competitions/leaderboard', () => {
  let s: TestServer;
  let cup: Cup;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    cup = await threeAgentCup(s);
  });
  const board = (key: string | undefined, query: Record<string, string> = {}) =>
    s.call('GET', '/api/competitions/leaderboard', { query, ...(key ? { key } : {}) });
  const values = (res: { body: any }) => res.body.leaderboard.map((e: any) => [e.rank, e.agentName, e.portfolioValue]);

  it('ranks the active competition by the latest snapshots for a participant (200)', async () => {
    const res = await board(cup.a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.competition).to.include({ id: cup.cid, status: 'active', crossChainTradingType: 'disallowAll' });
    expect(res.body.leaderboard[0]).to.deep.equal({
      rank: 1, agentId: cup.b.agentId, agentName: 'bravo', agentHandle: cup.b.agent.handle, portfolioValue: 5000, active: true,
      deactivationReason: null, calmarRatio: null, simpleReturn: null, maxDrawdown: null, hasRiskMetrics: false,
    });
    expect(values(res)).to.deep.equal([[1, 'bravo', 5000], [2, 'Charlie', 3000], [3, 'Alpha', 2000]]);
    expect(res.body).to.include({ hasInactiveAgents: false });
    expect(res.body.inactiveAgents).to.deep.equal([]);
    // Same answer with an explicit id, and for an admin.
    expect(values(await board(cup.a.apiKey, { competitionId: cup.cid }))).to.deep.equal(values(res));
    expect(values(await board(ADMIN_KEY))).to.deep.equal(values(res));
    expect(values(await board(ADMIN_KEY, { competitionId: '' }))).to.deep.equal(values(res));
  });

  it('ignores trades and price moves until the next snapshot', async () => {
    await setSol(s, cup.cid, cup.a.agentId, 100);
    setSolPrice(s, 10);
    expect(values(await board(ADMIN_KEY))).to.deep.equal([[1, 'bravo', 5000], [2, 'Charlie', 3000], [3, 'Alpha', 2000]]);
    await s.world.advance(5 * MINUTE);
    // A: 100 x 10 + 1000 = 2000; B: 20 x 10 + 1000 = 1200; C: 10 x 10 + 1000 = 1100.
    expect(values(await board(ADMIN_KEY))).to.deep.equal([[1, 'Alpha', 2000], [2, 'bravo', 1200], [3, 'Charlie', 1100]]);
  });

  it('keeps registration order between equal values', async () => {
    for (const x of [cup.a, cup.b, cup.c]) await setSol(s, cup.cid, x.agentId, 1);
    await s.world.advance(5 * MINUTE);
    expect(values(await board(ADMIN_KEY))).to.deep.equal([[1, 'Alpha', 1200], [2, 'bravo', 1200], [3, 'Charlie', 1200]]);
  });

  it('lists a disqualified agent among the inactive agents with its last snapshot value', async () => {
    await s.call('POST', `/api/admin/competitions/${cup.cid}/agents/${cup.b.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'bot collusion' } });
    const res = await board(cup.c.apiKey);
    expect(values(res)).to.deep.equal([[1, 'Charlie', 3000], [2, 'Alpha', 2000]]);
    expect(res.body.hasInactiveAgents).to.equal(true);
    expect(res.body.inactiveAgents).to.deep.equal([{
      agentId: cup.b.agentId, agentName: 'bravo', agentHandle: cup.b.agent.handle, portfolioValue: 5000, active: false,
      deactivationReason: 'Admin removal: bot collusion',
    }]);
    expectError(await board(cup.b.apiKey), 403, 'Forbidden: Your agent is not actively participating in this competition.');
  });

  it('falls back to live portfolio values when no agent has a snapshot', async () => {
    await s.world.deps.store.transact((tx) => {
      for (const row of tx.find('snapshots', 'competition', cup.cid)) tx.delete('snapshots', row.id);
    });
    setSolPrice(s, 300);
    // Live: A 5 x 300 + 1000 = 2500, B 7000, C 4000.
    expect(values(await board(ADMIN_KEY))).to.deep.equal([[1, 'bravo', 7000], [2, 'Charlie', 4000], [3, 'Alpha', 2500]]);
  });

  it('reads the frozen final leaderboard once ended', async () => {
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cup.cid } });
    setSolPrice(s, 1);
    await s.world.advance(60 * MINUTE);
    const res = await board(cup.a.apiKey, { competitionId: cup.cid });
    expect(res.body.competition.status).to.equal('ended');
    expect(values(res)).to.deep.equal([[1, 'bravo', 5000], [2, 'Charlie', 3000], [3, 'Alpha', 2000]]);
  });

  it('lists every registered agent with value 0 while pending', async () => {
    const created = await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Next' } });
    const pid = created.body.competition.id;
    for (const x of [cup.c, cup.a]) await s.call('POST', `/api/admin/competitions/${pid}/agents/${x.agentId}`, { key: ADMIN_KEY });
    const res = await board(cup.c.apiKey, { competitionId: pid });
    expect(values(res)).to.deep.equal([[1, 'Charlie', 0], [2, 'Alpha', 0]]);
  });

  it('resolves the implicit competition, or asks for one (400)', async () => {
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cup.cid } });
    expectError(await board(ADMIN_KEY), 400, 'No active competition and no competitionId provided');
    const x = await createAgent(s, ADMIN_KEY, 'Xi');
    const y = await createAgent(s, ADMIN_KEY, 'Yo');
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'X', agentIds: [x.agentId] } });
    const second = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Y', agentIds: [y.agentId] } });
    expectError(await board(ADMIN_KEY), 400, 'Missing required parameter: competitionId. Use GET /api/competitions/leaderboard?competitionId=xxx');
    // An agent means the active competition it takes part in.
    const mine = await board(y.apiKey);
    expect(mine.status).to.equal(200);
    expect(mine.body.competition.id).to.equal(second.body.competition.id);
  });

  it('rejects unknown and malformed ids (404/400), outsiders (403) and missing keys (401)', async () => {
    expectError(await board(ADMIN_KEY, { competitionId: MISSING }), 404, 'Competition not found');
    expectError(await board(ADMIN_KEY, { competitionId: 'nope' }), 400, 'Invalid UUID');
    const outsider = await createAgent(s, ADMIN_KEY, 'Outsider');
    expectError(await board(outsider.apiKey, { competitionId: cup.cid }), 403, 'Forbidden: Your agent is not actively participating in this competition.');
    expectError(await board(undefined), 401, NO_KEY);
  });

  it('refuses agents when access is restricted to administrators (403)', async () => {
    const t = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START, leaderboardAccess: 'admin' });
    try {
      const c = await threeAgentCup(t);
      expectError(await t.call('GET', '/api/competitions/leaderboard', { key: c.a.apiKey }), 403, 'Forbidden: Access to the leaderboard is restricted to administrators.');
      const admin = await t.call('GET', '/api/competitions/leaderboard', { key: ADMIN_KEY });
      expect(admin.status).to.equal(200);
      expect(admin.body.leaderboard).to.have.length(3);
    } finally {
      await t.close();
    }
  });
});

describe('GET /api/competitions/{competitionId}/timeline', () => {
  let s: TestServer;
  let cup: Cup;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    cup = await threeAgentCup(s);
    // Snapshots at +0 (2500 each), +5 (2000/5000/3000), then the price climbs by 10 per 5 minutes.
    for (let i = 1; i <= 4; i += 1) {
      setSolPrice(s, 200 + 10 * i);
      await s.world.advance(5 * MINUTE);
    }
    await s.call('POST', `/api/admin/competitions/${cup.cid}/agents/${cup.c.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'gone' } });
  });
  after(() => s.close());
  const timeline = (query: Record<string, string> = {}, cid = cup.cid) => s.call('GET', `/api/competitions/${cid}/timeline`, { query });
  const at = (min: number) => new Date(cup.startedAt + min * MINUTE).toISOString();

  it('keeps the latest snapshot per 10-minute bucket, for active agents only (200)', async () => {
    const res = await timeline({ bucket: '10' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ success: true, competitionId: cup.cid });
    const expectedOrder = [cup.a, cup.b].sort((x, y) => (x.agentId < y.agentId ? -1 : 1));
    expect(res.body.timeline.map((l: any) => l.agentId)).to.deep.equal(expectedOrder.map((x) => x.agentId));
    const alpha = res.body.timeline.find((l: any) => l.agentId === cup.a.agentId);
    expect(alpha.agentName).to.equal('Alpha');
    // Snapshots at +0..+25 every 5 min; buckets [0,10) keep +5, [10,20) keep +15, [20,30) keep +25.
    // A holds 5 SOL + 1000 USDC; SOL was 200 at +5, 220 at +15, 240 at +25.
    expect(alpha.timeline).to.deep.equal([
      { date: at(5), timestamp: at(5), totalValue: 2000 },
      { date: at(15), timestamp: at(15), totalValue: 5 * 220 + 1000 },
      { date: at(25), timestamp: at(25), totalValue: 5 * 240 + 1000 },
    ]);
  });

  it('uses 30-minute buckets by default and one point per snapshot with bucket=1', async () => {
    const dflt = (await timeline()).body.timeline.find((l: any) => l.agentId === cup.b.agentId);
    expect(dflt.timeline).to.deep.equal([{ date: at(25), timestamp: at(25), totalValue: 20 * 240 + 1000 }]);
    const fine = (await timeline({ bucket: '1' })).body.timeline.find((l: any) => l.agentId === cup.b.agentId);
    expect(fine.timeline.map((p: any) => p.totalValue)).to.deep.equal([2500, 5000, 5200, 5400, 5600, 5800]);
  });

  it('rejects a bad bucket naming it (400), a malformed id (400) and an unknown competition (404)', async () => {
    expectError(await timeline({ bucket: '0' }), 400, 'Invalid request: bucket (must be >= 1)');
    expectError(await timeline({ bucket: '1441' }), 400, 'Invalid request: bucket (must be <= 1440)');
    expectError(await timeline({ bucket: 'hour' }), 400, 'Invalid request: bucket (must be integer)');
    expectError(await timeline({}, 'abc'), 400, 'Invalid UUID');
    expectError(await timeline({}, MISSING), 404, 'Competition not found');
  });
});
