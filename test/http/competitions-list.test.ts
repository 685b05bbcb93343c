// GET /api/competitions (list, sort, paging, votes), /{competitionId} (detail), /status and /upcoming.
import { expect } from 'chai';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';
import { MINUTE, MISSING, insertTrade, insertVote, threeAgentCup, USDC_SVM, SOL } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const START = '2025-03-01T00:00:00Z';

describe('GET /api/competitions', () => {
  let s: TestServer;
  let pending: any[];
  let activeId: string;
  let endedId: string;
  let agent: Awaited<ReturnType<typeof createAgent>>;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    // Three pending competitions created a minute apart, with fields that sort differently.
    pending = [];
    const specs = [
      { name: 'Bravo', description: 'same', externalUrl: 'https://c.example', imageUrl: 'https://a.example/i.png', startDate: '2026-03-01T00:00:00Z', endDate: '2026-03-09T00:00:00Z' },
      { name: 'alpha', description: 'same', externalUrl: 'https://a.example', imageUrl: 'https://c.example/i.png', startDate: '2026-01-01T00:00:00Z', endDate: '2026-03-08T00:00:00Z' },
      { name: 'Charlie', externalUrl: 'https://b.example', imageUrl: 'https://b.example/i.png', startDate: '2026-02-01T00:00:00Z', endDate: '2026-03-07T00:00:00Z' },
    ];
    for (const spec of specs) {
      pending.push(await createCompetition(s, ADMIN_KEY, spec));
      await s.world.advance(MINUTE);
    }
    agent = await createAgent(s, ADMIN_KEY, 'Voter');
    const started = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Live', agentIds: [agent.agentId] } });
    activeId = started.body.competition.id;
    const other = await createAgent(s, ADMIN_KEY, 'Other');
    const ended = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Done', agentIds: [other.agentId] } });
    endedId = ended.body.competition.id;
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: endedId } });
  });
  after(() => s.close());

  const list = (query: Record<string, string> = {}, key?: string) => s.call('GET', '/api/competitions', { query, ...(key ? { key } : {}) });
  const names = (res: { body: any }) => res.body.competitions.map((c: any) => c.name);

  it('lists active competitions by default, as full rows, without auth (200)', async () => {
    const res = await list();
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(names(res)).to.deep.equal(['Live']);
    const c = res.body.competitions[0];
    expect(c).to.include({ id: activeId, status: 'active', crossChainTradingType: 'disallowAll', registeredParticipants: 1 });
    expect(c.tradingConstraints).to.deep.equal({ minimumPairAgeHours: 168, minimum24hVolumeUsd: 100000, minimumLiquidityUsd: 100000, minimumFdvUsd: 1000000, minTradesPerDay: null });
    expect(c.rewards).to.deep.equal([]);
    expect(c).to.not.have.property('votingEnabled');
    expect(res.body.pagination).to.deep.equal({ total: 1, limit: 10, offset: 0, hasMore: false });
  });

  it('filters by each status', async () => {
    expect(names(await list({ status: 'pending' }))).to.deep.equal(['Bravo', 'alpha', 'Charlie']);
    expect(names(await list({ status: 'ended' }))).to.deep.equal(['Done']);
    expect(names(await list({ status: 'ending' }))).to.deep.equal([]);
  });

  describe('sort (pending competitions: Bravo, alpha, Charlie created in that order)', () => {
    const CASES: [string, string[]][] = [
      ['createdDate', ['Bravo', 'alpha', 'Charlie']], ['-createdDate', ['Charlie', 'alpha', 'Bravo']],
      ['createdAt', ['Bravo', 'alpha', 'Charlie']], ['-createdAt', ['Charlie', 'alpha', 'Bravo']],
      // Plain code-unit order, as the database's: upper case before lower case.
      ['name', ['Bravo', 'Charlie', 'alpha']], ['-name', ['alpha', 'Charlie', 'Bravo']],
      ['externalUrl', ['alpha', 'Charlie', 'Bravo']], ['-externalUrl', ['Bravo', 'Charlie', 'alpha']],
      ['imageUrl', ['Bravo', 'Charlie', 'alpha']], ['-imageUrl', ['alpha', 'Charlie', 'Bravo']],
      ['startDate', ['alpha', 'Charlie', 'Bravo']], ['-startDate', ['Bravo', 'Charlie', 'alpha']],
      ['endDate', ['Charlie', 'alpha', 'Bravo']], ['-endDate', ['Bravo', 'alpha', 'Charlie']],
      // Nulls last ascending, first descending (SQL); ties keep creation order.
      ['description', ['Bravo', 'alpha', 'Charlie']], ['-description', ['Charlie', 'Bravo', 'alpha']],
      ['description,name', ['Bravo', 'alpha', 'Charlie']], ['description,-name', ['alpha', 'Bravo', 'Charlie']],
    ];
    for (const [sort, expected] of CASES) {
      it(`sorts by ${sort}`, async () => {
        const res = await list({ status: 'pending', sort });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(names(res)).to.deep.equal(expected);
      });
    }

    it('sorts by id', async () => {
      const byId = [...pending].sort((x, y) => (x.id < y.id ? -1 : 1)).map((c) => c.name);
      expect(names(await list({ status: 'pending', sort: 'id' }))).to.deep.equal(byId);
      expect(names(await list({ status: 'pending', sort: '-id' }))).to.deep.equal([...byId].reverse());
    });

    it('rejects an unknown sort field (400)', async () => {
      expectError(await list({ sort: 'status' }), 400, "cannot sort by field: 'status'");
      expectError(await list({ sort: 'name,-foo' }), 400, "cannot sort by field: 'foo'");
    });
  });

  it('pages with limit and offset (hasMore, limit 1 and 100, offset past the end)', async () => {
    const one = await list({ status: 'pending', limit: '1', offset: '1' });
    expect(names(one)).to.deep.equal(['alpha']);
    expect(one.body.pagination).to.deep.equal({ total: 3, limit: 1, offset: 1, hasMore: true });
    const hundred = await list({ status: 'pending', limit: '100' });
    expect(hundred.body.competitions).to.have.length(3);
    expect(hundred.body.pagination.hasMore).to.equal(false);
    const past = await list({ status: 'pending', offset: '3' });
    expect(past.body.competitions).to.deep.equal([]);
    expect(past.body.pagination).to.deep.equal({ total: 3, limit: 10, offset: 3, hasMore: false });
  });

  it('rejects a bad status, limit or offset naming the parameter (400)', async () => {
    expectError(await list({ status: 'live' }), 400, 'Invalid request: status (must be equal to one of the allowed values: pending, active, ending, ended)');
    expectError(await list({ limit: '0' }), 400, 'Invalid request: limit (must be >= 1)');
    expectError(await list({ limit: '101' }), 400, 'Invalid request: limit (must be <= 100)');
    expectError(await list({ offset: '-3' }), 400, 'Invalid request: offset (must be >= 0)');
  });

  describe('vote fields for an agent caller (its owner votes)', () => {
    let snap: string;
    before(async () => { snap = await s.world.snapshot(); });
    afterEach(() => s.world.restore(snap));
    const setVoting = (cid: string, votingStartDate: string, votingEndDate: string) =>
      s.call('PUT', `/api/admin/competition/${cid}`, { key: ADMIN_KEY, body: { votingStartDate, votingEndDate } });

    it('reports voting disabled without voting dates, and no fields for anonymous or admin callers', async () => {
      const res = await list({}, agent.apiKey);
      expect(res.body.competitions[0]).to.deep.include({
        votingEnabled: false, totalVotes: 0,
        userVotingInfo: { canVote: false, reason: 'voting is not enabled for this competition', info: { hasVoted: false } },
      });
      expect((await list({}, ADMIN_KEY)).body.competitions[0]).to.not.have.property('userVotingInfo');
    });

    it('reports an open window, the vote total and the owner\'s vote (list keeps canVote after voting)', async () => {
      expect((await setVoting(activeId, '2025-03-01T00:00:00Z', '2025-03-02T00:00:00Z')).status).to.equal(200);
      const open = (await list({}, agent.apiKey)).body.competitions[0];
      expect(open).to.deep.include({ votingEnabled: true, totalVotes: 0, userVotingInfo: { canVote: true, info: { hasVoted: false } } });
      const other = await createAgent(s, ADMIN_KEY, 'Fan');
      await insertVote(s, { userId: other.userId, agentId: agent.agentId, competitionId: activeId });
      const votedAt = s.world.deps.clock.now();
      await insertVote(s, { userId: agent.userId, agentId: agent.agentId, competitionId: activeId });
      const voted = (await list({}, agent.apiKey)).body.competitions[0];
      expect(voted).to.deep.include({
        votingEnabled: true, totalVotes: 2,
        userVotingInfo: { canVote: true, info: { hasVoted: true, agentId: agent.agentId, votedAt: new Date(votedAt).toISOString() } },
      });
    });

    it('reports a window not yet open, a closed window and a status that does not allow voting', async () => {
      await setVoting(activeId, '2025-04-01T00:00:00Z', '2025-04-02T00:00:00Z');
      expect((await list({}, agent.apiKey)).body.competitions[0].userVotingInfo).to.deep.equal({
        canVote: false, reason: 'Voting has not started yet. Voting begins on 2025-04-01T00:00:00.000Z', info: { hasVoted: false },
      });
      await setVoting(activeId, '2025-02-01T00:00:00Z', '2025-02-02T00:00:00Z');
      expect((await list({}, agent.apiKey)).body.competitions[0].userVotingInfo.reason).to.equal('Voting has ended. Voting ended on 2025-02-02T00:00:00.000Z');
      await setVoting(endedId, '2025-03-01T00:00:00Z', '2025-03-02T00:00:00Z');
      const ended = (await list({ status: 'ended' }, agent.apiKey)).body.competitions[0];
      expect(ended).to.deep.include({ votingEnabled: false, userVotingInfo: { canVote: false, reason: 'Competition status does not allow voting (ended)', info: { hasVoted: false } } });
    });
  });
});

describe('GET /api/competitions/{competitionId}', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  after(() => s.close());
  const get = (cid: string, key?: string) => s.call('GET', `/api/competitions/${cid}`, key ? { key } : {});

  it('returns the row with stats, constraints, rewards and voting fields (200)', async () => {
    const cup = await threeAgentCup(s, { rewards: { 1: 1000, 2: 500, 5: 10 }, votingStartDate: '2025-03-01T00:00:00Z', votingEndDate: '2025-03-05T00:00:00Z' });
    await insertTrade(s, { agentId: cup.a.agentId, competitionId: cup.cid, tradeAmountUsd: 100.5 });
    await insertTrade(s, { agentId: cup.b.agentId, competitionId: cup.cid, tradeAmountUsd: 50, fromToken: SOL, toToken: USDC_SVM });
    await insertTrade(s, { agentId: cup.b.agentId, competitionId: cup.cid, tradeAmountUsd: 20, toToken: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN' });
    await insertVote(s, { userId: cup.b.userId, agentId: cup.a.agentId, competitionId: cup.cid });
    const anon = await get(cup.cid);
    expect(anon.status).to.equal(200);
    const c = anon.body.competition;
    expect(c).to.include({ id: cup.cid, name: 'Three Cup', status: 'active', rewardsTge: null, votingEnabled: false });
    expect(c.stats).to.deep.equal({ totalTrades: 3, totalAgents: 3, totalVolume: 170.5, totalVotes: 1, uniqueTokens: 3, totalPositions: 0 });
    expect(c.tradingConstraints).to.include({ minimumPairAgeHours: 168, minTradesPerDay: null });
    expect(c.rewards).to.deep.equal([{ rank: 1, reward: 1000, agentId: null }, { rank: 2, reward: 500, agentId: null }, { rank: 5, reward: 10, agentId: null }]);
    expect(c).to.not.have.property('userVotingInfo');
    // The agent's owner has voted: the detail turns canVote off with upstream's reason.
    const voter = await get(cup.cid, cup.b.apiKey);
    expect(voter.body.competition).to.deep.include({
      votingEnabled: true,
      userVotingInfo: { canVote: false, reason: 'You have already voted in this competition', info: { hasVoted: true, agentId: cup.a.agentId, votedAt: '2025-03-01T00:05:02.000Z' } },
    });
    expect((await get(cup.cid, cup.c.apiKey)).body.competition).to.deep.include({ votingEnabled: true, userVotingInfo: { canVote: true, info: { hasVoted: false } } });
    // Once ended, rewards name the agents at those ranks of the frozen leaderboard.
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cup.cid } });
    const ended = await get(cup.cid, cup.c.apiKey);
    expect(ended.body.competition.rewards).to.deep.equal([
      { rank: 1, reward: 1000, agentId: cup.b.agentId }, { rank: 2, reward: 500, agentId: cup.c.agentId }, { rank: 5, reward: 10, agentId: null },
    ]);
    expect(ended.body.competition).to.deep.include({
      votingEnabled: false, userVotingInfo: { canVote: false, reason: 'Competition status does not allow voting (ended)', info: { hasVoted: false } },
    });
  });

  it('rejects a malformed id (400) and an unknown competition (404)', async () => {
    expectError(await get('1234'), 400, 'Invalid UUID');
    expectError(await get(MISSING), 404, 'Competition not found');
  });
});

describe('GET /api/competitions/status and /upcoming', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  afterEach(() => s.close());
  const status = (key?: string) => s.call('GET', '/api/competitions/status', key ? { key } : {});

  it('answers "no active competition" (200)', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Solo');
    const res = await status(a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, active: false, competition: null, message: 'No active competition found' });
  });

  it('tells participants, outsiders and admins apart (200)', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'In');
    const b = await createAgent(s, ADMIN_KEY, 'Out');
    const started = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Now', agentIds: [a.agentId], externalUrl: 'https://x.example' } });
    const c = started.body.competition;
    const inside = await status(a.apiKey);
    expect(inside.body).to.include({ success: true, active: true, participating: true });
    expect(inside.body.competition).to.include({ id: c.id, name: 'Now', crossChainTradingType: 'disallowAll' });
    const outside = await status(b.apiKey);
    expect(outside.body).to.deep.equal({
      success: true, active: true, participating: false, message: 'Your agent is not participating in this competition',
      competition: { id: c.id, name: 'Now', status: 'active', externalUrl: 'https://x.example', imageUrl: null, startDate: '2025-03-01T00:00:00.000Z' },
    });
    const admin = await status(ADMIN_KEY);
    expect(admin.body).to.include({ success: true, active: true, isAdmin: true, participating: false });
    expect(admin.body.competition.id).to.equal(c.id);
  });

  it('requires a key (401)', async () => {
    expectError(await status(), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
    expectError(await s.call('GET', '/api/competitions/upcoming'), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
  });

  it('lists pending competitions as full rows in storage order (200)', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Ag');
    await createCompetition(s, ADMIN_KEY, { name: 'P1' });
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Running', agentIds: [a.agentId] } });
    await createCompetition(s, ADMIN_KEY, { name: 'P2', tradingType: 'allow' });
    const res = await s.call('GET', '/api/competitions/upcoming', { key: a.apiKey });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.competitions.map((c: any) => [c.name, c.status, c.crossChainTradingType])).to.deep.equal([['P1', 'pending', 'disallowAll'], ['P2', 'pending', 'allow']]);
    expect(res.body.competitions[0]).to.have.property('tradingConstraints');
  });
});
