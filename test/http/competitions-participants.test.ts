// GET /api/competitions/{competitionId}/agents: rank and score from snapshots, pnl and 24 h change, votes, sort, filter, paging.
import { expect } from 'chai';
import { expectError } from '../helpers/actors.js';
import {
  DAY, MINUTE, MISSING, insertVote, setSolPrice, threeAgentCup, type Cup,
} from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-03-01T00:00:00Z';

describe('GET /api/competitions/{competitionId}/agents', () => {
  let s: TestServer;
  let cup: Cup;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    cup = await threeAgentCup(s);
  });

  const list = (query: Record<string, string> = {}, cid = cup.cid) => s.call('GET', `/api/competitions/${cid}/agents`, { query });
  const ids = (res: { body: any }) => res.body.agents.map((x: any) => x.id);

  it('lists active participants ranked by their latest snapshot, with pnl, without auth (200)', async () => {
    const res = await list();
    expect(res.status).to.equal(200);
    const { a, b, c } = cup;
    expect(res.body).to.include({ success: true, competitionId: cup.cid, registeredParticipants: 3, maxParticipants: null });
    expect(res.body.pagination).to.deep.equal({ total: 3, limit: 50, offset: 0, hasMore: false });
    expect(ids(res)).to.deep.equal([b.agentId, c.agentId, a.agentId]);
    expect(res.body.agents[0]).to.deep.equal({
      id: b.agentId, name: 'bravo', handle: b.agent.handle, description: null, imageUrl: null, score: 5000, active: true,
      deactivationReason: null, rank: 1, position: 1, portfolioValue: 5000, pnl: 2500, pnlPercent: 100, change24h: 2500,
      change24hPercent: 100, voteCount: 0, calmarRatio: null, sortinoRatio: null, simpleReturn: null, maxDrawdown: null,
      downsideDeviation: null, hasRiskMetrics: false,
    });
    // Younger than 24 h: the closest snapshot to T-24h is the first one, so change24h equals pnl.
    expect(res.body.agents.map((x: any) => [x.rank, x.score, x.pnl, x.pnlPercent, x.change24h])).to.deep.equal([
      [1, 5000, 2500, 100, 2500], [2, 3000, 500, 20, 500], [3, 2000, -500, -20, -500],
    ]);
  });

  it('does not move between snapshots, then follows the next snapshot', async () => {
    setSolPrice(s, 100);
    expect((await list()).body.agents.map((x: any) => x.score)).to.deep.equal([5000, 3000, 2000]);
    await s.world.advance(5 * MINUTE);
    expect((await list()).body.agents.map((x: any) => x.score)).to.deep.equal([3000, 2000, 1500]);
  });

  it('measures change24h against the snapshot closest to 24 h ago and pnl against the first (hand computed)', async () => {
    // Snapshots every 5 min keep A 2000 / B 5000 / C 3000 until SOL moves to 300 a day later.
    await s.world.advance(DAY - 5 * MINUTE);
    setSolPrice(s, 300);
    await s.world.advance(10 * MINUTE);
    // now = start + 24h + 10min: the reference is the snapshot at start + 10 min (2000 / 5000 / 3000);
    // current values are A 5x300+1000 = 2500, B 20x300+1000 = 7000, C 10x300+1000 = 4000; start was 2500 each.
    const rows = (await list()).body.agents;
    expect(rows.map((x: any) => x.name)).to.deep.equal(['bravo', 'Charlie', 'Alpha']);
    expect(rows.map((x: any) => [x.score, x.pnl, x.pnlPercent, x.change24h])).to.deep.equal([
      [7000, 4500, 180, 2000], [4000, 1500, 60, 1000], [2500, 0, 0, 500],
    ]);
    expect(rows.map((x: any) => x.change24hPercent)).to.deep.equal([40, 1000 / 3000 * 100, 25]);
  });

  it('uses the frozen leaderboard and the end date once ended', async () => {
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cup.cid } });
    setSolPrice(s, 1000);
    await s.world.advance(3 * DAY);
    const rows = (await list()).body.agents;
    expect(rows.map((x: any) => [x.name, x.rank, x.score, x.change24h])).to.deep.equal([
      ['bravo', 1, 5000, 2500], ['Charlie', 2, 3000, 500], ['Alpha', 3, 2000, -500],
    ]);
  });

  it('hides a disqualified agent unless includeInactive=true, which ranks it last with score 0', async () => {
    const rm = await s.call('POST', `/api/admin/competitions/${cup.cid}/agents/${cup.b.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'cheating' } });
    expect(rm.status).to.equal(200);
    const active = await list();
    expect(active.body.registeredParticipants).to.equal(2);
    expect(ids(active)).to.deep.equal([cup.c.agentId, cup.a.agentId]);
    // The leaderboard of an active competition holds active agents only: the others move up.
    expect(active.body.agents.map((x: any) => x.rank)).to.deep.equal([1, 2]);
    const all = await list({ includeInactive: 'true' });
    expect(all.body.pagination.total).to.equal(3);
    expect(ids(all)).to.deep.equal([cup.c.agentId, cup.a.agentId, cup.b.agentId]);
    expect(all.body.agents.map((x: any) => x.rank)).to.deep.equal([1, 2, 3]);
    expect(all.body.agents[2]).to.include({
      active: false, deactivationReason: 'Admin removal: cheating', score: 0, portfolioValue: 0, rank: 3, position: 3, pnl: -2500, pnlPercent: -100,
    });
    expect(ids(await list({ includeInactive: 'false' }))).to.deep.equal([cup.c.agentId, cup.a.agentId]);
  });

  it('filters by a case-insensitive substring of the name, keeping leaderboard ranks', async () => {
    const res = await list({ filter: 'AR' });
    expect(res.body.agents.map((x: any) => [x.name, x.rank])).to.deep.equal([['Charlie', 2]]);
    expect(res.body.pagination.total).to.equal(1);
    expect((await list({ filter: 'zzz' })).body.agents).to.deep.equal([]);
  });

  it('counts votes per agent in this competition (voteCount)', async () => {
    await insertVote(s, { userId: cup.b.userId, agentId: cup.a.agentId, competitionId: cup.cid });
    await insertVote(s, { userId: cup.c.userId, agentId: cup.a.agentId, competitionId: cup.cid });
    await insertVote(s, { userId: cup.a.userId, agentId: cup.c.agentId, competitionId: cup.cid });
    await insertVote(s, { userId: cup.a.userId, agentId: cup.c.agentId, competitionId: MISSING });
    const rows = (await list()).body.agents;
    expect(rows.map((x: any) => [x.name, x.voteCount])).to.deep.equal([['bravo', 0], ['Charlie', 1], ['Alpha', 2]]);
  });

  describe('sort', () => {
    beforeEach(async () => {
      await insertVote(s, { userId: cup.b.userId, agentId: cup.a.agentId, competitionId: cup.cid });
      await insertVote(s, { userId: cup.c.userId, agentId: cup.a.agentId, competitionId: cup.cid });
      await insertVote(s, { userId: cup.a.userId, agentId: cup.c.agentId, competitionId: cup.cid });
    });
    const order = async (sort: string) => {
      const res = await list({ sort });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body.agents as any[]).map((x) => x.name.charAt(0).toUpperCase()).join('');
    };
    // A = Alpha (2000, 2 votes), B = bravo (5000, 0 votes), C = Charlie (3000, 1 vote); registered A, B, C.
    const EXPECTED: [string, string, string][] = [
      ['rank', 'BCA', 'ACB'], ['position', 'BCA', 'ACB'], ['score', 'ACB', 'BCA'], ['portfolioValue', 'ACB', 'BCA'],
      ['pnl', 'ACB', 'BCA'], ['pnlPercent', 'ACB', 'BCA'], ['change24h', 'ACB', 'BCA'], ['change24hPercent', 'ACB', 'BCA'],
      ['voteCount', 'BCA', 'ACB'], ['name', 'ABC', 'CBA'], ['handle', 'ABC', 'CBA'], ['createdAt', 'ABC', 'CBA'],
      // Equal values keep registration order in both directions.
      ['status', 'ABC', 'ABC'], ['updatedAt', 'ABC', 'CBA'], ['calmarRatio', 'ABC', 'ABC'], ['sortinoRatio', 'ABC', 'ABC'],
      ['simpleReturn', 'ABC', 'ABC'], ['maxDrawdown', 'ABC', 'ABC'], ['downsideDeviation', 'ABC', 'ABC'],
    ];
    for (const [field, asc, desc] of EXPECTED) {
      it(`sorts by ${field} and -${field}`, async () => {
        expect(await order(field)).to.equal(asc);
        expect(await order(`-${field}`)).to.equal(desc);
      });
    }

    it('sorts id, ownerId and walletAddress with localeCompare', async () => {
      const agents = [cup.a, cup.b, cup.c];
      const letter = new Map(agents.map((x, i) => [x.agentId, 'ABC'[i]!]));
      const expectFor = (key: (x: (typeof agents)[number]) => string) =>
        [...agents].sort((x, y) => key(x).localeCompare(key(y))).map((x) => letter.get(x.agentId)).join('');
      expect(await order('id')).to.equal(expectFor((x) => x.agentId));
      expect(await order('-id')).to.equal([...expectFor((x) => x.agentId)].reverse().join(''));
      expect(await order('ownerId')).to.equal(expectFor((x) => x.userId));
      // Agents created through /api/admin/users have no wallet: all null, registration order.
      expect(await order('walletAddress')).to.equal('ABC');
    });

    it('rejects unknown, comma-separated and empty sort fields (400)', async () => {
      expectError(await list({ sort: 'foo' }), 400, "Invalid request format: sort (cannot sort by field: 'foo')");
      expectError(await list({ sort: 'rank,name' }), 400, "Invalid request format: sort (cannot sort by field: 'rank,name')");
      expectError(await list({ sort: '-' }), 400, "Invalid request format: sort (cannot sort by field: '-')");
    });
  });

  describe('paging and validation', () => {
    it('pages with limit and offset (hasMore, limit 1 and 100, offset past the end)', async () => {
      const first = await list({ limit: '1' });
      expect(first.body.agents.map((x: any) => x.name)).to.deep.equal(['bravo']);
      expect(first.body.pagination).to.deep.equal({ total: 3, limit: 1, offset: 0, hasMore: true });
      const second = await list({ limit: '2', offset: '1' });
      expect(second.body.agents.map((x: any) => x.name)).to.deep.equal(['Charlie', 'Alpha']);
      expect(second.body.pagination.hasMore).to.equal(false);
      const max = await list({ limit: '100' });
      expect(max.body.agents).to.have.length(3);
      expect(max.body.pagination).to.deep.equal({ total: 3, limit: 100, offset: 0, hasMore: false });
      const past = await list({ offset: '5' });
      expect(past.body.agents).to.deep.equal([]);
      expect(past.body.pagination).to.deep.equal({ total: 3, limit: 50, offset: 5, hasMore: false });
    });

    it('rejects bad limit, offset and includeInactive with the parameter named (400)', async () => {
      expectError(await list({ limit: '0' }), 400, 'Invalid request format: limit (must be >= 1)');
      expectError(await list({ limit: '101' }), 400, 'Invalid request format: limit (must be <= 100)');
      expectError(await list({ limit: 'ten' }), 400, 'Invalid request format: limit (must be integer)');
      expectError(await list({ offset: '-1' }), 400, 'Invalid request format: offset (must be >= 0)');
      expectError(await list({ includeInactive: 'yes' }), 400, 'Invalid request format: includeInactive (must be boolean)');
    });

    it('rejects a malformed id (400) and an unknown competition (404)', async () => {
      expectError(await list({}, 'not-a-uuid'), 400, 'Invalid UUID');
      expectError(await list({}, MISSING), 404, 'Competition not found');
    });
  });
});

describe('GET /api/competitions/{competitionId}/agents before the start', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  after(() => s.close());

  it('lists a pending competition\'s registrations with score 0 in registration order (200)', async () => {
    const created = await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Later' } });
    const cid = created.body.competition.id;
    const names = ['Zed', 'Amy'];
    for (const name of names) {
      const u = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: `0x${(names.indexOf(name) + 0xabc).toString(16).padStart(40, '0')}`, agentName: name } });
      await s.call('POST', `/api/admin/competitions/${cid}/agents/${u.body.agent.id}`, { key: ADMIN_KEY });
    }
    const res = await s.call('GET', `/api/competitions/${cid}/agents`);
    expect(res.status).to.equal(200);
    expect(res.body.agents.map((x: any) => [x.name, x.rank, x.score, x.pnl, x.change24h])).to.deep.equal([['Zed', 1, 0, 0, 0], ['Amy', 2, 0, 0, 0]]);
  });
});
