// The memoised standings (participants list, competition leaderboard) follow every change: each read equals a fresh world's answer.
import { expect } from 'chai';
import { leaderboardValues } from '../../src/domain/rankings/leaderboard.js';
import { requireCompetition } from '../../src/domain/competitions/create.js';
import { MINUTE, SOL, USDC_SVM, insertTrade, insertVote, setSolPrice, threeAgentCup, type Cup } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { ROUTES } from '../../src/http/resources/index.js';

const START = '2025-03-01T00:00:00Z';

describe('memoised standings: the participants list and the leaderboard after each kind of change', () => {
  let s: TestServer;
  /** A second server: each check loads the first world's dump into it, so its caches start empty. */
  let fresh: TestServer;
  let cup: Cup;
  let snap: string;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    fresh = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    cup = await threeAgentCup(s);
    snap = await s.world.snapshot();
  });
  beforeEach(() => s.world.restore(snap));
  after(async () => {
    await s.close();
    await fresh.close();
  });

  const QUERIES: Record<string, string>[] = [
    {}, { includeInactive: 'true' }, { sort: '-name' }, { sort: 'pnl' }, { sort: '-change24h', includeInactive: 'true' }, { filter: 'a' },
    { sort: 'voteCount', limit: '2', offset: '1' },
  ];

  /** Every list shape and the leaderboard, from `server`. */
  async function answers(server: TestServer): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const query of QUERIES) {
      const res = await server.call('GET', `/api/competitions/${cup.cid}/agents`, { query });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      out.push(res.body);
    }
    const board = await server.call('GET', '/api/competitions/leaderboard', { key: ADMIN_KEY, query: { competitionId: cup.cid } });
    expect(board.status, JSON.stringify(board.body)).to.equal(200);
    out.push(board.body);
    return out;
  }

  /** The answers of `s` (asked twice, so the second comes from its caches) equal a fresh world's; returns them. */
  async function checked(): Promise<unknown[]> {
    const first = await answers(s);
    expect(await answers(s), 'a repeated read').to.deep.equal(first);
    await fresh.world.load(await s.world.dump());
    expect(first, 'the same world without caches').to.deep.equal(await answers(fresh));
    return first;
  }

  const scores = (answer: unknown) => (answer as { agents: { score: number }[] }).agents.map((a) => a.score);
  const names = (answer: unknown) => (answer as { agents: { name: string }[] }).agents.map((a) => a.name);

  it('keeps the ranking through a trade (it follows snapshots) and moves on the next snapshot', async () => {
    const before = await checked();
    const trade = await s.call('POST', '/api/trade/execute', {
      key: cup.b.apiKey, body: { competitionId: cup.cid, fromToken: SOL, toToken: USDC_SVM, amount: '5', reason: 'cache test' },
    });
    expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
    expect(await checked()).to.deep.equal(before);
    await s.world.advance(5 * MINUTE);
    const after = await checked();
    expect(scores(after[0])).to.not.deep.equal(scores(before[0]));
  });

  it('drops an agent that leaves from the default list and shows it as inactive', async () => {
    const before = await checked();
    const res = await s.call('DELETE', `/api/competitions/${cup.cid}/agents/${cup.b.agentId}`, { key: cup.b.apiKey });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const after = await checked();
    expect(names(after[0])).to.deep.equal(names(before[0]).filter((n) => n !== 'bravo'));
    expect((after[7] as { inactiveAgents: { agentName: string }[] }).inactiveAgents.map((a) => a.agentName)).to.deep.equal(['bravo']);
  });

  it('follows a renamed agent, a new vote and a price move while values are live (no snapshot at all)', async () => {
    await checked();
    await s.world.deps.store.transact((tx) => {
      const agent = (tx.get('agents', cup.a.agentId))!;
      tx.put('agents', { ...agent, name: 'Aardvark' });
    });
    expect(names((await checked())[0])).to.include('Aardvark');
    await insertVote(s, { userId: cup.c.userId, agentId: cup.c.agentId, competitionId: cup.cid });
    const voted = await checked();
    expect((voted[6] as { agents: { voteCount: number }[] }).agents.map((a) => a.voteCount)).to.include(1);
    // Without any snapshot the values are live portfolio values: prices move them, caches must not.
    await s.world.deps.store.transact((tx) => {
      for (const row of tx.find('snapshots', 'competition', cup.cid)) tx.delete('snapshots', row.id);
    });
    const live = await checked();
    setSolPrice(s, 400);
    const moved = await checked();
    expect(scores(moved[0])).to.not.deep.equal(scores(live[0]));
  });

  it('forgets what a rolled-back transaction computed, and follows a restore', async () => {
    const before = await checked();
    const deps = s.world.deps;
    await deps.store.transact((tx) => {
      tx.insert('snapshots', { id: tx.nextSeq('snapshots'), competitionId: cup.cid, agentId: cup.a.agentId, timestamp: deps.clock.now(), totalValue: 1e9 });
      const inside = leaderboardValues(deps, tx, requireCompetition(tx, cup.cid));
      expect(inside[0]!.agentId).to.equal(cup.a.agentId);
      throw new Error('roll back');
    }).catch((err: unknown) => expect(String(err)).to.match(/roll back/));
    expect(await checked()).to.deep.equal(before);
    await s.world.advance(5 * MINUTE);
    setSolPrice(s, 50);
    await s.world.advance(5 * MINUTE);
    expect(scores((await checked())[0])).to.not.deep.equal(scores(before[0]));
    await s.world.restore(snap);
    expect(await checked()).to.deep.equal(before);
  });

  it('keeps the global leaderboard and its stats in step with ratings, agents and trades', async () => {
    const global = async (server: TestServer) => {
      const res = await server.call('GET', '/api/leaderboard', { query: { limit: '2' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body as { agents: { name: string }[]; stats: { totalTrades: number } };
    };
    const same = async () => {
      const first = await global(s);
      expect(await global(s), 'a repeated read').to.deep.equal(first);
      await fresh.world.load(await s.world.dump());
      expect(first, 'the same world without caches').to.deep.equal(await global(fresh));
      return first;
    };
    expect((await same()).agents).to.deep.equal([]);
    const end = await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cup.cid } });
    expect(end.status, JSON.stringify(end.body)).to.equal(200);
    const ended = await same();
    expect(ended.agents.map((a) => a.name)).to.deep.equal(['bravo', 'Charlie']);
    await insertTrade(s, { agentId: cup.a.agentId, competitionId: cup.cid });
    expect((await same()).stats.totalTrades).to.equal(ended.stats.totalTrades + 1);
    await s.world.deps.store.transact((tx) => {
      const agent = (tx.get('agents', cup.b.agentId))!;
      tx.put('agents', { ...agent, name: 'Bravissimo' });
    });
    expect((await same()).agents.map((a) => a.name)).to.deep.equal(['Bravissimo', 'Charlie']);
  });

  /** The route's answer, straight from its handler (what the door sends: `json` when it is there). */
  const page = async () => {
    const route = ROUTES.find((r) => r.id === 'competitions.leaderboard')!;
    const admin = await s.world.deps.store.read((tx) => tx.all('admins')[0]!);
    return route.handler({ world: s.world, principal: { kind: 'admin', adminId: admin.id }, body: {}, query: { competitionId: cup.cid }, params: {}, headers: {} });
  };

  it('serialises the leaderboard page once while the standings and the competition row stay, and again after a snapshot round or a change to the competition', async () => {
    const first = await page();
    expect(first.json).to.equal(JSON.stringify(first.body));
    const again = await page();
    expect(again.body, 'the cached page').to.equal(first.body);
    await s.world.advance(5 * MINUTE);
    const later = await page();
    expect(later.body, 'after a snapshot round').to.not.equal(first.body);
    expect(later.json).to.equal(JSON.stringify(later.body));
    const renamed = await s.call('PUT', `/api/admin/competition/${cup.cid}`, { key: ADMIN_KEY, body: { name: 'Renamed Cup' } });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    const newName = await page();
    expect(newName.body).to.not.equal(later.body);
    expect(JSON.parse(newName.json!).competition.name).to.equal('Renamed Cup');
    const served = await s.call('GET', '/api/competitions/leaderboard', { key: ADMIN_KEY, query: { competitionId: cup.cid } });
    expect(served.body).to.deep.equal(JSON.parse(newName.json!));
  });
});
