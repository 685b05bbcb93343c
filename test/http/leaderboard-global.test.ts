// GET /api/leaderboard: ratings after a scripted history (per type and per arena), ranks, numCompetitions, stats, paging and bad input.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { MINUTE } from '../helpers/competition-reads.js';
import { playHistory, replay, scoreOf, type History, type Skill } from '../helpers/rankings.js';
import { ADMIN_KEY, startTestServer, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-06-01T00:00:00Z';

describe('GET /api/leaderboard', () => {
  let s: TestServer;
  let h: History;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    h = await playHistory(s);
  });

  const board = (query: Record<string, string> = {}) => s.call('GET', '/api/leaderboard', { query });
  const id = (name: string) => (h as unknown as Record<string, { agentId: string }>)[name]!.agentId;
  /** Names best first by expected score, with the expected scores. */
  const expected = (ratings: Map<string, Skill>) => [...ratings].map(([n, r]) => ({ n, score: scoreOf(r) })).sort((a, b) => b.score - a.score);
  const STATS = { activeAgents: 4, totalTrades: 4, totalPositions: 0, totalVolume: 200, totalCompetitions: 3 };

  it('ranks the trading type by the ratings of Spring, Summer and Autumn in end order (200)', async () => {
    // Spring A > B > C; Summer C > D > B; Autumn B > D > C > A (Echo was removed, so unrated).
    const want = expected(replay([['A', 'B', 'C'], ['C', 'D', 'B'], ['B', 'D', 'C', 'A']]));
    expect(want.map((w) => w.n)).to.deep.equal(['D', 'B', 'C', 'A']);
    const res = await board();
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.agents.map((a: any) => a.id)).to.deep.equal(want.map((w) => id(w.n)));
    res.body.agents.forEach((a: any, i: number) => expect(a.score, want[i]!.n).to.be.closeTo(want[i]!.score, 1e-9));
    const numCompetitions = { D: 3, B: 4, C: 3, A: 3 };
    expect(res.body.agents[0]).to.deep.equal({
      id: h.D.agentId, name: 'Delta', handle: 'delta', description: null, imageUrl: null, metadata: null, rank: 1,
      score: res.body.agents[0].score, numCompetitions: 3, type: 'trading',
    });
    expect(res.body.agents.map((a: any) => [a.rank, a.numCompetitions])).to.deep.equal(want.map((w, i) => [i + 1, numCompetitions[w.n as 'A']]));
    expect(res.body.pagination).to.deep.equal({ total: 4, limit: 50, offset: 0, hasMore: false });
    expect(res.body.stats).to.deep.equal(STATS);
    expect((await board({ type: 'trading' })).body).to.deep.equal(res.body);
  });

  it('ranks an arena by its own competitions only, numCompetitions counting that arena (200)', async () => {
    const weekly = expected(replay([['C', 'D', 'B'], ['B', 'D', 'C', 'A']]));
    const res = await board({ arenaId: 'weekly-arena', type: 'perpetual_futures' });
    expect(res.status).to.equal(200);
    expect(res.body.agents.map((a: any) => a.name)).to.deep.equal(weekly.map((w) => ({ A: 'Alpha', B: 'Bravo', C: 'Charlie', D: 'Delta' })[w.n]));
    res.body.agents.forEach((a: any, i: number) => expect(a.score).to.be.closeTo(weekly[i]!.score, 1e-9));
    expect(res.body.agents.map((a: any) => a.numCompetitions)).to.deep.equal(weekly.map((w) => (w.n === 'A' ? 1 : 2)));
    expect(res.body.agents[0]).to.not.have.property('type');
    expect(res.body.pagination.total).to.equal(4);
    expect(res.body.stats).to.deep.equal(STATS);
    const paper = await board({ arenaId: 'default-paper-arena' });
    const spring = expected(replay([['A', 'B', 'C']]));
    expect(paper.body.agents.map((a: any) => a.id)).to.deep.equal(spring.map((w) => id(w.n)));
    expect(paper.body.agents.map((a: any) => a.score)).to.deep.equal(spring.map((w) => w.score));
    // Registrations in that arena at any status: Alpha also plays Live, Bravo waits in Upcoming.
    expect(paper.body.agents.map((a: any) => a.numCompetitions)).to.deep.equal([2, 2, 1]);
  });

  it('answers an empty ranking for a type or arena nobody was rated in', async () => {
    const queries: Record<string, string>[] = [{ type: 'perpetual_futures' }, { type: 'spot_live_trading' }, { type: 'sports_prediction' }, { arenaId: 'default-perps-arena' }];
    for (const query of queries) {
      const res = await board(query);
      expect(res.status).to.equal(200);
      expect(res.body.agents).to.deep.equal([]);
      expect(res.body.pagination).to.deep.equal({ total: 0, limit: 50, offset: 0, hasMore: false });
    }
  });

  it('pages with limit and offset, ranks counting from the offset', async () => {
    const res = await board({ limit: '2', offset: '1' });
    expect(res.body.agents.map((a: any) => [a.name, a.rank])).to.deep.equal([['Bravo', 2], ['Charlie', 3]]);
    expect(res.body.pagination).to.deep.equal({ total: 4, limit: 2, offset: 1, hasMore: true });
    expect((await board({ limit: '100', offset: '4' })).body.agents).to.deep.equal([]);
    expect((await board({ limit: '1' })).body.agents.map((a: any) => a.rank)).to.deep.equal([1]);
  });

  it('keeps ratings in the world dump and does not rate a competition twice', async () => {
    const dump = await s.world.dump();
    const rows = (dump.tables as Record<string, any[]>).ratings!;
    expect(rows).to.have.length(4 + 3 + 4);
    expect(rows.find((r) => r.id === `type:trading:${h.B.agentId}`)).to.include({ competitions: 3, lastCompetitionId: h.autumn, arenaId: null });
    const before = (await board()).body;
    expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: h.spring } })).status).to.equal(200);
    expect((await board()).body).to.deep.equal(before);
  });

  it('rates the live competition when it ends, and skips deleted agents', async () => {
    await s.world.advance(MINUTE);
    expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: h.live } })).status).to.equal(200);
    // Live: Delta 4000 > Alpha 1300.
    const want = expected(replay([['A', 'B', 'C'], ['C', 'D', 'B'], ['B', 'D', 'C', 'A'], ['D', 'A']]));
    const res = await board();
    expect(res.body.agents.map((a: any) => a.id)).to.deep.equal(want.map((w) => id(w.n)));
    res.body.agents.forEach((a: any, i: number) => expect(a.score).to.be.closeTo(want[i]!.score, 1e-9));
    expect(res.body.stats).to.deep.equal({ activeAgents: 4, totalTrades: 5, totalPositions: 0, totalVolume: 210, totalCompetitions: 4 });
    expect((await s.call('DELETE', `/api/admin/agents/${h.C.agentId}`, { key: ADMIN_KEY })).status).to.equal(200);
    const after = await board();
    expect(after.body.agents.map((a: any) => a.name)).to.not.include('Charlie');
    expect(after.body.pagination.total).to.equal(3);
  });

  it('rejects unknown arenas (404) and bad parameters naming them (400)', async () => {
    expectError(await board({ arenaId: 'nope' }), 404, 'Arena with ID nope not found');
    expectError(await board({ limit: '0' }), 400, 'Invalid request format: limit (must be >= 1)');
    expectError(await board({ limit: '101' }), 400, 'Invalid request format: limit (must be <= 100)');
    expectError(await board({ limit: 'ten' }), 400, 'Invalid request format: limit (must be integer)');
    expectError(await board({ offset: '-1' }), 400, 'Invalid request format: offset (must be >= 0)');
    expectError(await board({ type: 'chess' }), 400,
      'Invalid request format: type (must be equal to one of the allowed values: trading, perpetual_futures, spot_live_trading, sports_prediction)');
  });
});

describe('GET /api/leaderboard (other types, empty world)', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  afterEach(() => s.close());

  it('answers zero stats before any competition ended', async () => {
    const res = await s.call('GET', '/api/leaderboard');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true, agents: [], pagination: { total: 0, limit: 50, offset: 0, hasMore: false },
      stats: { activeAgents: 0, totalTrades: 0, totalPositions: 0, totalVolume: 0, totalCompetitions: 0 },
    });
  });

  it('rates a perpetual futures competition on its own type and arena', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Perp A', { agentWalletAddress: '0x00000000000000000000000000000000000000a1' });
    const b = await createAgent(s, ADMIN_KEY, 'Perp B', { agentWalletAddress: '0x00000000000000000000000000000000000000b2' });
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Perps', type: 'perpetual_futures', agentIds: [a.agentId, b.agentId] } });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    const cid = start.body.competition.id as string;
    // B goes long SOL and SOL rises: B's Calmar ratio beats A's (flat) at the end.
    const open = await s.call('POST', `/api/admin/competitions/${cid}/perps/positions`, {
      key: ADMIN_KEY, body: { agentId: b.agentId, asset: 'SOL', side: 'long', sizeUsd: 1000, leverage: 2 },
    });
    expect(open.status, JSON.stringify(open.body)).to.equal(200);
    s.world.deps.prices.overrides.set({ address: 'So11111111111111111111111111111111111111112', specificChain: 'svm', price: 165 });
    await s.world.advance(MINUTE);
    expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } })).status).to.equal(200);
    const want = replay([['B', 'A']]);
    const queries: Record<string, string>[] = [{ type: 'perpetual_futures' }, { arenaId: 'default-perps-arena' }];
    for (const query of queries) {
      const res = await s.call('GET', '/api/leaderboard', { query });
      expect(res.body.agents.map((x: any) => x.name)).to.deep.equal(['Perp B', 'Perp A']);
      expect(res.body.agents.map((x: any) => x.score)).to.deep.equal([scoreOf(want.get('B')!), scoreOf(want.get('A')!)]);
    }
    expect((await s.call('GET', '/api/leaderboard')).body.agents).to.deep.equal([]);
    expect((await s.call('GET', '/api/leaderboard')).body.stats).to.deep.equal({ activeAgents: 2, totalTrades: 0, totalPositions: 1, totalVolume: 0, totalCompetitions: 1 });
  });
});
