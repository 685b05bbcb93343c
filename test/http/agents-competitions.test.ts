// GET /api/agents/{agentId}/competitions (summaries, status and claimed filters, every sort key, paging) and the admin reward-claim endpoint.
import { expect } from 'chai';
import { expectError } from '../helpers/actors.js';
import { MISSING } from '../helpers/competition-reads.js';
import { playHistory, type History } from '../helpers/rankings.js';
import { ADMIN_KEY, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-06-01T00:00:00Z';

describe('GET /api/agents/{agentId}/competitions', () => {
  let s: TestServer;
  let h: History;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    h = await playHistory(s);
  });

  const comps = (agentId: string, query: Record<string, string> = {}) => s.call('GET', `/api/agents/${agentId}/competitions`, { query });
  const names = (res: { body: any }) => res.body.competitions.map((c: any) => c.name);
  const claim = (cid: string, body: unknown, key = ADMIN_KEY) => s.call('POST', `/api/admin/competitions/${cid}/rewards/claim`, { key, body });

  it("lists the agent's competitions in registration order with its summary in each (200)", async () => {
    const res = await comps(h.A.agentId);
    expect(res.status).to.equal(200);
    expect(names(res)).to.deep.equal(['Spring', 'Autumn', 'Live']);
    expect(res.body.pagination).to.deep.equal({ total: 3, limit: 10, offset: 0, hasMore: false });
    const pick = (c: any) => ({
      portfolioValue: c.portfolioValue, pnl: c.pnl, pnlPercent: c.pnlPercent, totalTrades: c.totalTrades, totalPositions: c.totalPositions,
      bestPlacement: c.bestPlacement,
    });
    const [spring, autumn, live] = res.body.competitions;
    // Values: 10 SOL x 150 + 1000 USDC at the start; final SOL holdings set by the script.
    expect(pick(spring)).to.deep.equal({ portfolioValue: 4000, pnl: 1500, pnlPercent: 60, totalTrades: 2, totalPositions: 0, bestPlacement: { rank: 1, totalAgents: 3 } });
    expect(pick(autumn)).to.deep.equal({ portfolioValue: 1150, pnl: -1350, pnlPercent: -54, totalTrades: 0, totalPositions: 0, bestPlacement: { rank: 4, totalAgents: 4 } });
    // Active: ranked by the latest snapshot among active agents (Delta 4000, Alpha 1300).
    expect(pick(live)).to.deep.equal({ portfolioValue: 1300, pnl: -1200, pnlPercent: -48, totalTrades: 1, totalPositions: 0, bestPlacement: { rank: 2, totalAgents: 2 } });
    expect(spring).to.include({
      id: h.spring, name: 'Spring', type: 'trading', status: 'ended', competitionType: 'trading', arenaId: 'default-paper-arena',
      imageUrl: 'https://img.example/spring.png', registeredParticipants: 3, calmarRatio: null, simpleReturn: null, maxDrawdown: null, hasRiskMetrics: false,
    });
    expect(spring.rewards).to.deep.equal([{ rank: 1, reward: 1000 }, { rank: 2, reward: 500 }]);
  });

  it('omits the placement of a pending competition and zeroes its values', async () => {
    const res = await comps(h.B.agentId);
    expect(names(res)).to.deep.equal(['Spring', 'Summer', 'Autumn', 'Upcoming']);
    const upcoming = res.body.competitions[3];
    expect(upcoming).to.include({ status: 'pending', portfolioValue: 0, pnl: 0, pnlPercent: 0, totalTrades: 0 });
    expect(upcoming).to.not.have.property('bestPlacement');
    // A disqualified agent keeps the competition in its list, without a final placement.
    const echo = await comps(h.E.agentId);
    expect(names(echo)).to.deep.equal(['Autumn']);
    expect(echo.body.competitions[0]).to.not.have.property('bestPlacement');
  });

  it('filters by competition status', async () => {
    expect(names(await comps(h.A.agentId, { status: 'ended' }))).to.deep.equal(['Spring', 'Autumn']);
    expect(names(await comps(h.A.agentId, { status: 'active' }))).to.deep.equal(['Live']);
    expect(names(await comps(h.B.agentId, { status: 'pending' }))).to.deep.equal(['Upcoming']);
    const none = await comps(h.A.agentId, { status: 'ending' });
    expect(none.body.competitions).to.deep.equal([]);
    expect(none.body.pagination.total).to.equal(0);
  });

  it('filters by claimed: earned rewards claimed (true) or not yet claimed (false)', async () => {
    expect(names(await comps(h.A.agentId, { claimed: 'false' }))).to.deep.equal(['Spring']);
    expect(names(await comps(h.A.agentId, { claimed: 'true' }))).to.deep.equal([]);
    expect(names(await comps(h.B.agentId, { claimed: 'false' }))).to.deep.equal(['Spring']);
    expect(names(await comps(h.C.agentId, { claimed: 'false' }))).to.deep.equal(['Summer']);
    expect(names(await comps(h.D.agentId, { claimed: 'false' }))).to.deep.equal([]);
    expect((await claim(h.spring, { agentId: h.A.agentId })).status).to.equal(200);
    expect(names(await comps(h.A.agentId, { claimed: 'true' }))).to.deep.equal(['Spring']);
    expect(names(await comps(h.A.agentId, { claimed: 'false' }))).to.deep.equal([]);
    expect(names(await comps(h.A.agentId, { claimed: 'true', status: 'active' }))).to.deep.equal([]);
  });

  describe('sort (Alpha: Spring, Autumn, Live)', () => {
    const CASES: [string, string[]][] = [
      ['name', ['Autumn', 'Live', 'Spring']], ['-name', ['Spring', 'Live', 'Autumn']],
      ['description', ['Spring', 'Autumn', 'Live']], ['-description', ['Spring', 'Autumn', 'Live']],
      ['startDate', ['Spring', 'Autumn', 'Live']], ['-startDate', ['Live', 'Autumn', 'Spring']],
      // Live has no end date yet: last ascending, first descending.
      ['endDate', ['Spring', 'Autumn', 'Live']], ['-endDate', ['Live', 'Autumn', 'Spring']],
      ['createdAt', ['Spring', 'Autumn', 'Live']], ['-createdAt', ['Live', 'Autumn', 'Spring']],
      ['updatedAt', ['Spring', 'Autumn', 'Live']], ['-updatedAt', ['Live', 'Autumn', 'Spring']],
      ['status', ['Live', 'Spring', 'Autumn']], ['-status', ['Spring', 'Autumn', 'Live']],
      ['portfolioValue', ['Autumn', 'Live', 'Spring']], ['-portfolioValue', ['Spring', 'Live', 'Autumn']],
      ['pnl', ['Autumn', 'Live', 'Spring']], ['-pnl', ['Spring', 'Live', 'Autumn']],
      ['pnlPercent', ['Autumn', 'Live', 'Spring']], ['-pnlPercent', ['Spring', 'Live', 'Autumn']],
      ['totalTrades', ['Autumn', 'Live', 'Spring']], ['-totalTrades', ['Spring', 'Live', 'Autumn']],
      ['totalPositions', ['Spring', 'Autumn', 'Live']], ['-totalPositions', ['Spring', 'Autumn', 'Live']],
      ['rank', ['Spring', 'Live', 'Autumn']], ['-rank', ['Autumn', 'Live', 'Spring']],
      ['bestPlacement', ['Spring', 'Live', 'Autumn']], ['-bestPlacement', ['Autumn', 'Live', 'Spring']],
      ['agentName', ['Spring', 'Autumn', 'Live']], ['-agentHandle', ['Spring', 'Autumn', 'Live']],
      // A computed field anywhere in the text sorts in memory, where the other parts (here `status`) are skipped.
      ['status,-portfolioValue', ['Spring', 'Live', 'Autumn']],
      ['-portfolioValue,nonsense', ['Spring', 'Live', 'Autumn']],
      ['name,pnl,rank,status', ['Autumn', 'Live', 'Spring']],
    ];
    for (const [sort, expected] of CASES) {
      it(`sorts by ${sort}`, async () => {
        const res = await comps(h.A.agentId, { sort });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(names(res)).to.deep.equal(expected);
      });
    }

    it('sorts by id', async () => {
      const all = (await comps(h.A.agentId)).body.competitions as any[];
      const asc = [...all].sort((x, y) => (x.id < y.id ? -1 : 1)).map((c) => c.name);
      expect(names(await comps(h.A.agentId, { sort: 'id' }))).to.deep.equal(asc);
      expect(names(await comps(h.A.agentId, { sort: '-id' }))).to.deep.equal([...asc].reverse());
    });

    it('puts competitions without a placement last when sorting by rank', async () => {
      // Bravo: Autumn 1st, Spring 2nd, Summer 3rd, Upcoming not placed.
      expect(names(await comps(h.B.agentId, { sort: 'rank' }))).to.deep.equal(['Autumn', 'Spring', 'Summer', 'Upcoming']);
      expect(names(await comps(h.B.agentId, { sort: '-rank' }))).to.deep.equal(['Upcoming', 'Summer', 'Spring', 'Autumn']);
    });
  });

  it('pages with limit and offset after sorting', async () => {
    const res = await comps(h.A.agentId, { sort: '-portfolioValue', limit: '1', offset: '1' });
    expect(names(res)).to.deep.equal(['Live']);
    expect(res.body.pagination).to.deep.equal({ total: 3, limit: 1, offset: 1, hasMore: true });
  });

  it('rejects bad ids (400, 404) and bad parameters naming them (400)', async () => {
    expectError(await comps('nope'), 400, 'Invalid UUID');
    expectError(await comps(MISSING), 404, 'Agent not found');
    expectError(await comps(h.A.agentId, { status: 'done' }), 400,
      'Invalid filter page params: status (must be equal to one of the allowed values: pending, active, ending, ended)');
    expectError(await comps(h.A.agentId, { claimed: 'yes' }), 400, 'Invalid filter page params: claimed (must be boolean)');
    expectError(await comps(h.A.agentId, { limit: '0' }), 400, 'Invalid pagination parameters: limit (must be >= 1)');
    expectError(await comps(h.A.agentId, { limit: '101' }), 400, 'Invalid pagination parameters: limit (must be <= 100)');
    expectError(await comps(h.A.agentId, { offset: '-5' }), 400, 'Invalid pagination parameters: offset (must be >= 0)');
  });

  it('answers an unknown sort column, or more than 3 columns, with an empty page (200), as upstream swallows the error', async () => {
    for (const sort of ['prize', '-prize', 'name,status,startDate,endDate', 'name,prize']) {
      const res = await comps(h.A.agentId, { sort, limit: '2' });
      expect(res.status, sort).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, competitions: [], pagination: { total: 0, limit: 2, offset: 0, hasMore: false } });
    }
    // Known columns still sort.
    expect(names(await comps(h.A.agentId, { sort: '-startDate' }))).to.deep.equal(['Live', 'Autumn', 'Spring']);
  });
});

describe('POST /api/admin/competitions/{competitionId}/rewards/claim', () => {
  let s: TestServer;
  let h: History;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    h = await playHistory(s);
  });

  const claim = (cid: string, body: unknown, key = ADMIN_KEY) => s.call('POST', `/api/admin/competitions/${cid}/rewards/claim`, { key, body });

  it('marks an earned reward claimed by default, and unclaimed again with claimed: false (200)', async () => {
    const res = await claim(h.spring, { agentId: h.B.agentId });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, reward: { competitionId: h.spring, agentId: h.B.agentId, rank: 2, reward: 500, claimed: true } });
    const stored = await s.world.deps.store.read((tx) => tx.get('rewardClaims', `${h.spring}:${h.B.agentId}`));
    expect(stored).to.include({ claimed: true });
    const undo = await claim(h.spring, { agentId: h.B.agentId, claimed: false });
    expect(undo.body.reward.claimed).to.equal(false);
    expect((await s.call('GET', `/api/agents/${h.B.agentId}`)).body.agent.hasUnclaimedRewards).to.equal(true);
  });

  it('refuses a running competition and an agent without a reward (400)', async () => {
    expectError(await claim(h.live, { agentId: h.A.agentId }), 400, 'Rewards can only be claimed in an ended competition: active');
    expectError(await claim(h.upcoming, { agentId: h.B.agentId }), 400, 'Rewards can only be claimed in an ended competition: pending');
    expectError(await claim(h.summer, { agentId: h.D.agentId }), 400, 'Agent has no reward in this competition');
    expectError(await claim(h.summer, { agentId: h.A.agentId }), 400, 'Agent has no reward in this competition');
    expectError(await claim(h.autumn, { agentId: h.B.agentId }), 400, 'Agent has no reward in this competition');
  });

  it('answers 404 for unknown ids, 400 for bad input and 401 without the admin key', async () => {
    expectError(await claim(MISSING, { agentId: h.A.agentId }), 404, 'Competition not found');
    expectError(await claim(h.spring, { agentId: MISSING }), 404, 'Agent not found');
    expectError(await claim('x', { agentId: h.A.agentId }), 400, 'Invalid request: competitionId (invalid UUID)');
    expectError(await claim(h.spring, {}), 400, 'Invalid request: agentId (required)');
    expectError(await claim(h.spring, { agentId: h.A.agentId, claimed: 'yes' }), 400, 'Invalid request: claimed (must be boolean)');
    expectError(await claim(h.spring, { agentId: h.A.agentId }, h.A.apiKey), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });
});
