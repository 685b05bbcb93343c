// GET /api/agents (filter, every sort key, paging) and GET /api/agents/{agentId} (stats, trophies, skills, rewards, owner) after a scripted history.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { MINUTE, MISSING } from '../helpers/competition-reads.js';
import { playHistory, replay, scoreOf, type History } from '../helpers/rankings.js';
import { ADMIN_KEY, startTestServer, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-06-01T00:00:00Z';
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /api/agents', () => {
  let s: TestServer;
  let ids: Record<string, string>;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    // Created a minute apart; fields chosen so every sort key orders them differently.
    const zeta = await createAgent(s, ADMIN_KEY, 'Zeta', { agentHandle: 'zeta_bot', agentWalletAddress: '0x00000000000000000000000000000000000000C3', agentDescription: 'b' });
    await s.world.advance(MINUTE);
    const alpha = await createAgent(s, ADMIN_KEY, 'alpha', { agentDescription: 'a', agentImageUrl: 'https://x.example/2.png' });
    await s.world.advance(MINUTE);
    const mid = await createAgent(s, ADMIN_KEY, 'Mid', { agentWalletAddress: '0x00000000000000000000000000000000000000a1', agentImageUrl: 'https://x.example/1.png' });
    await s.world.advance(MINUTE);
    expect((await s.call('PUT', `/api/admin/agents/${zeta.agentId}`, { key: ADMIN_KEY, body: { metadata: { v: 2 } } })).status).to.equal(200);
    await s.world.advance(MINUTE);
    expect((await s.call('POST', `/api/admin/agents/${alpha.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'test' } })).status).to.equal(200);
    ids = { Zeta: zeta.agentId, alpha: alpha.agentId, Mid: mid.agentId };
  });
  after(() => s.close());

  const list = (query: Record<string, string> = {}) => s.call('GET', '/api/agents', { query });
  const names = (res: { body: any }) => res.body.agents.map((a: any) => a.name);

  it('lists public agents in storage order with the spec pagination (no hasMore) (200)', async () => {
    const res = await list();
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(['success', 'pagination', 'agents']);
    expect(names(res)).to.deep.equal(['Zeta', 'alpha', 'Mid']);
    expect(res.body.pagination).to.deep.equal({ total: 3, limit: 10, offset: 0 });
    expect(res.body.agents[2]).to.deep.equal({
      id: ids.Mid, ownerId: res.body.agents[2].ownerId, name: 'Mid', handle: 'mid', walletAddress: '0x00000000000000000000000000000000000000a1',
      description: null, imageUrl: 'https://x.example/1.png', metadata: null, status: 'active',
      createdAt: '2025-06-01T00:02:00.000Z', updatedAt: '2025-06-01T00:02:00.000Z', isVerified: true,
    });
    expect(res.body.agents[1]).to.include({ status: 'inactive', isVerified: false });
    expect(res.body.agents[0]).to.not.have.any.keys('apiKey', 'email', 'apiKeyHash');
  });

  describe('sort', () => {
    const CASES: [string, string[]][] = [
      ['name', ['Mid', 'Zeta', 'alpha']], ['-name', ['alpha', 'Zeta', 'Mid']],
      ['handle', ['alpha', 'Mid', 'Zeta']], ['-handle', ['Zeta', 'Mid', 'alpha']],
      // Nulls last ascending, first descending.
      ['walletAddress', ['Mid', 'Zeta', 'alpha']], ['-walletAddress', ['alpha', 'Zeta', 'Mid']],
      ['description', ['alpha', 'Zeta', 'Mid']], ['-description', ['Mid', 'Zeta', 'alpha']],
      ['imageUrl', ['Mid', 'alpha', 'Zeta']], ['-imageUrl', ['Zeta', 'alpha', 'Mid']],
      ['status', ['Zeta', 'Mid', 'alpha']], ['-status', ['alpha', 'Zeta', 'Mid']],
      ['createdAt', ['Zeta', 'alpha', 'Mid']], ['-createdAt', ['Mid', 'alpha', 'Zeta']],
      ['updatedAt', ['Mid', 'Zeta', 'alpha']], ['-updatedAt', ['alpha', 'Zeta', 'Mid']],
      ['status,name', ['Mid', 'Zeta', 'alpha']], ['status,-createdAt,name', ['Mid', 'Zeta', 'alpha']],
    ];
    for (const [sort, expected] of CASES) {
      it(`sorts by ${sort}`, async () => {
        const res = await list({ sort });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(names(res)).to.deep.equal(expected);
      });
    }

    it('sorts by id and ownerId', async () => {
      const all = (await list()).body.agents as any[];
      for (const field of ['id', 'ownerId']) {
        const asc = [...all].sort((x, y) => (x[field] < y[field] ? -1 : 1)).map((a) => a.name);
        expect(names(await list({ sort: field }))).to.deep.equal(asc);
        expect(names(await list({ sort: `-${field}` }))).to.deep.equal([...asc].reverse());
      }
    });

    it('rejects an unknown field or more than three fields, naming the parameter (400)', async () => {
      expectError(await list({ sort: 'email' }), 400, "Invalid request: sort (cannot sort by field: 'email')");
      expectError(await list({ sort: 'name,-' }), 400, "Invalid request: sort (cannot sort by field: '')");
      expectError(await list({ sort: 'name,id,handle,status' }), 400, 'Invalid request: sort (at most 3 fields)');
    });
  });

  it('filters by case-insensitive name prefix or by exact wallet (any case)', async () => {
    expect(names(await list({ filter: 'AL' }))).to.deep.equal(['alpha']);
    expect(names(await list({ filter: 'm' }))).to.deep.equal(['Mid']);
    expect(names(await list({ filter: 'eta' }))).to.deep.equal([]);
    const byWallet = await list({ filter: '0x00000000000000000000000000000000000000C3' });
    expect(names(byWallet)).to.deep.equal(['Zeta']);
    expect(byWallet.body.pagination.total).to.equal(1);
    expect(names(await list({ filter: '0x00000000000000000000000000000000000000A1' }))).to.deep.equal(['Mid']);
    expect(names(await list({ filter: '0x00000000000000000000000000000000000000ff' }))).to.deep.equal([]);
    const both = await list({ filter: '', sort: '-name' });
    expect(names(both)).to.deep.equal(['alpha', 'Zeta', 'Mid']);
  });

  it('pages with limit and offset; total counts the filtered rows', async () => {
    const page = await list({ limit: '1', offset: '1', sort: 'createdAt' });
    expect(names(page)).to.deep.equal(['alpha']);
    expect(page.body.pagination).to.deep.equal({ total: 3, limit: 1, offset: 1 });
    expect((await list({ limit: '100', offset: '3' })).body.agents).to.deep.equal([]);
    expect((await list({ filter: 'z', limit: '5' })).body.pagination).to.deep.equal({ total: 1, limit: 5, offset: 0 });
  });

  it('rejects bad limit, offset and filter naming the parameter (400)', async () => {
    expectError(await list({ limit: '0' }), 400, 'Invalid request: limit (must be >= 1)');
    expectError(await list({ limit: '101' }), 400, 'Invalid request: limit (must be <= 100)');
    expectError(await list({ offset: '-1' }), 400, 'Invalid request: offset (must be >= 0)');
    expectError(await list({ filter: 'x'.repeat(101) }), 400, 'Invalid request: filter (must NOT have more than 100 characters)');
  });
});

describe('GET /api/agents/{agentId}', () => {
  let s: TestServer;
  let h: History;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    h = await playHistory(s);
  });

  const get = (id: string) => s.call('GET', `/api/agents/${id}`);
  const trading = replay([['A', 'B', 'C'], ['C', 'D', 'B'], ['B', 'D', 'C', 'A']]);

  it('derives stats, trophies and reward state from the history (Charlie) (200)', async () => {
    const res = await get(h.C.agentId);
    expect(res.status).to.equal(200);
    const { stats, trophies, ...agent } = res.body.agent;
    expect(agent).to.deep.equal({
      id: h.C.agentId, ownerId: h.C.userId, name: 'Charlie', handle: 'charlie', walletAddress: null, description: null, imageUrl: null,
      metadata: null, status: 'active', createdAt: '2025-06-01T00:00:00.000Z', updatedAt: '2025-06-01T00:00:00.000Z', isVerified: false,
      skills: [], hasUnclaimedRewards: true,
    });
    const score = scoreOf(trading.get('C')!);
    expect(stats).to.deep.equal({
      completedCompetitions: 3, totalTrades: 1, totalPositions: 0, totalVotes: 2,
      bestPlacement: { competitionId: h.summer, rank: 1, score: 5500, totalAgents: 3 },
      rank: 3, score: stats.score, ranks: [{ type: 'trading', rank: 3, score: stats.score }],
    });
    expect(stats.score).to.be.closeTo(score, 1e-9);
    expect(trophies).to.deep.equal([
      { competitionId: h.autumn, name: 'Autumn', rank: 3, imageUrl: '', createdAt: iso(h.ended.autumn) },
      { competitionId: h.summer, name: 'Summer', rank: 1, imageUrl: '', createdAt: iso(h.ended.summer) },
      { competitionId: h.spring, name: 'Spring', rank: 3, imageUrl: 'https://img.example/spring.png', createdAt: iso(h.ended.spring) },
    ]);
    const ownerWallet = (await s.call('GET', '/api/agent/profile', { key: h.C.apiKey })).body.owner.walletAddress;
    expect(ownerWallet).to.match(/^0x[0-9a-f]{40}$/);
    expect(res.body.owner).to.deep.equal({ id: h.C.userId, name: null, walletAddress: ownerWallet });
  });

  it('counts only ended competitions, all trades and all votes (Alpha: one competition still live)', async () => {
    const { stats, trophies, hasUnclaimedRewards } = (await get(h.A.agentId)).body.agent;
    expect(stats).to.include({ completedCompetitions: 2, totalTrades: 3, totalVotes: 1, rank: 4 });
    expect(stats.bestPlacement).to.deep.equal({ competitionId: h.spring, rank: 1, score: 4000, totalAgents: 3 });
    expect(stats.score).to.be.closeTo(scoreOf(trading.get('A')!), 1e-9);
    expect(trophies.map((t: any) => [t.name, t.rank])).to.deep.equal([['Autumn', 4], ['Spring', 1]]);
    expect(hasUnclaimedRewards).to.equal(true);
    const delta = (await get(h.D.agentId)).body.agent;
    expect(delta.stats).to.include({ completedCompetitions: 2, totalTrades: 0, totalVotes: 0, rank: 1 });
    expect(delta.hasUnclaimedRewards).to.equal(false);
  });

  it('gives a disqualified agent the competition but no placement, rating or trophy (Echo)', async () => {
    const echo = (await get(h.E.agentId)).body.agent;
    expect(echo.stats).to.deep.equal({ completedCompetitions: 1, totalTrades: 0, totalPositions: 0, totalVotes: 0 });
    expect(echo.trophies).to.deep.equal([]);
    expect(echo.hasUnclaimedRewards).to.equal(false);
  });

  it('turns hasUnclaimedRewards off once every earned reward is claimed, or for an ineligible agent', async () => {
    const claim = (cid: string, agentId: string) => s.call('POST', `/api/admin/competitions/${cid}/rewards/claim`, { key: ADMIN_KEY, body: { agentId } });
    expect((await claim(h.spring, h.A.agentId)).status).to.equal(200);
    expect((await get(h.A.agentId)).body.agent.hasUnclaimedRewards).to.equal(false);
    expect((await claim(h.summer, h.C.agentId)).status).to.equal(200);
    expect((await get(h.C.agentId)).body.agent.hasUnclaimedRewards).to.equal(false);
    expect((await get(h.B.agentId)).body.agent.hasUnclaimedRewards).to.equal(true);
    await s.call('PUT', `/api/admin/agents/${h.B.agentId}`, { key: ADMIN_KEY, body: { isRewardsIneligible: true } });
    expect((await get(h.B.agentId)).body.agent.hasUnclaimedRewards).to.equal(false);
  });

  it('copies skills and hasUnclaimedRewards from metadata', async () => {
    const x = await createAgent(s, ADMIN_KEY, 'Meta', { agentMetadata: { skills: ['perps', 7, 'nfl'], hasUnclaimedRewards: true } });
    const res = (await get(x.agentId)).body.agent;
    expect(res.skills).to.deep.equal(['perps', 'nfl']);
    expect(res.hasUnclaimedRewards).to.equal(true);
    expect(res.stats).to.deep.equal({ completedCompetitions: 0, totalTrades: 0, totalPositions: 0, totalVotes: 0 });
  });

  it('moves rank and score when a later competition ends', async () => {
    await s.world.advance(MINUTE);
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: h.live } });
    const after = replay([['A', 'B', 'C'], ['C', 'D', 'B'], ['B', 'D', 'C', 'A'], ['D', 'A']]);
    const alpha = (await get(h.A.agentId)).body.agent;
    expect(alpha.stats.score).to.be.closeTo(scoreOf(after.get('A')!), 1e-9);
    expect(alpha.stats.completedCompetitions).to.equal(3);
    expect(alpha.trophies[0]).to.include({ competitionId: h.live, name: 'Live', rank: 2 });
  });

  it('rejects a malformed id (400 Invalid Agent ID) and an unknown one (404)', async () => {
    expectError(await get('not-a-uuid'), 400, 'Invalid Agent ID');
    expectError(await get(MISSING), 404, 'Agent not found');
  });
});
