// Per-version rows of the rules table for admin, participation and response details: what `spec`/2026-08 and 2025-10 answer differently.
import { expect } from 'chai';
import type { ApiVersion } from '../../src/domain/versions.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';
import { insertVote } from '../helpers/competition-reads.js';
import { playCup } from '../helpers/rankings.js';

describe('rules table: admin, participation and response rows', () => {
  let s: TestServer;
  const open = async (apiVersion: ApiVersion) => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion }); };
  afterEach(() => s.close());

  const start = (body: Record<string, unknown>) => s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body });
  const add = (cid: string, aid: string) => s.call('POST', `/api/admin/competitions/${cid}/agents/${aid}`, { key: ADMIN_KEY });
  const detailStats = async (cid: string) => (await s.call('GET', `/api/competitions/${cid}`, { key: ADMIN_KEY })).body.competition.stats;

  for (const version of ['spec', '2026-08', '2025-10'] as const) {
    it(`${version}: competition detail stats carry that version's keys, per type`, async () => {
      await open(version);
      const a = await createAgent(s, ADMIN_KEY, 'Stats', { agentWalletAddress: nextWallet() });
      const paper = (await start({ name: 'Paper', agentIds: [a.agentId] })).body.competition.id;
      const perps = (await start({ name: 'Perps', type: 'perpetual_futures', agentIds: [a.agentId] })).body.competition.id;
      const want = {
        spec: [['totalTrades', 'totalAgents', 'totalVolume', 'uniqueTokens', 'totalPositions', 'totalVotes'], ['totalAgents', 'totalPositions', 'totalVolume', 'averageEquity', 'totalTrades', 'totalVotes']],
        '2026-08': [['totalTrades', 'totalAgents', 'totalVolume', 'uniqueTokens', 'totalPositions'], ['totalAgents', 'totalPositions', 'totalVolume', 'averageEquity', 'totalTrades']],
        '2025-10': [['totalTrades', 'totalAgents', 'totalVolume', 'totalVotes', 'uniqueTokens'], ['totalAgents', 'totalVotes', 'totalPositions', 'totalVolume', 'averageEquity']],
      }[version];
      expect(Object.keys(await detailStats(paper))).to.have.members(want[0]!).and.have.length(want[0]!.length);
      expect(Object.keys(await detailStats(perps))).to.have.members(want[1]!).and.have.length(want[1]!.length);
    });
  }

  it('2025-10: global leaderboard rows carry voteCount (every competition); spec has none', async () => {
    for (const version of ['2025-10', 'spec'] as const) {
      await open(version);
      const [x, y] = [await createAgent(s, ADMIN_KEY, 'Voted'), await createAgent(s, ADMIN_KEY, 'Unvoted')];
      const cid = await playCup(s, 'Voting Cup', [x, y], [20, 10]);
      await insertVote(s, { userId: y.userId, agentId: x.agentId, competitionId: cid });
      await insertVote(s, { userId: x.userId, agentId: x.agentId, competitionId: 'other-competition' });
      const res = await s.call('GET', '/api/leaderboard', { query: { type: 'trading' } });
      expect(res.status).to.equal(200);
      const rows = res.body.agents.map((r: any) => [r.name, r.voteCount]);
      expect(rows).to.deep.equal(version === '2025-10' ? [['Voted', 2], ['Unvoted', 0]] : [['Voted', undefined], ['Unvoted', undefined]]);
      await s.close();
    }
    await open('spec'); // for afterEach
  });

  it('2025-10: no wallet checks on admin add, join and perps start; no participation rules', async () => {
    await open('2025-10');
    const a = await createAgent(s, ADMIN_KEY, 'No Wallet');
    const b = await createAgent(s, ADMIN_KEY, 'Blocked');
    const started = await start({ name: 'Perps', type: 'perpetual_futures', agentIds: [a.agentId] });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const pending = await createCompetition(s, ADMIN_KEY, { type: 'perpetual_futures' });
    expect((await add(pending.id, b.agentId)).status).to.equal(200);
    const rules = await createCompetition(s, ADMIN_KEY, { blocklist: [b.agentId], allowlistOnly: true, minRecallRank: 1 });
    const join = await s.call('POST', `/api/competitions/${rules.id}/agents/${b.agentId}`, { key: b.apiKey });
    expect(join.status, JSON.stringify(join.body)).to.equal(200);
  });

  it('2025-10: the owner-selector text, boostTimeDecayRate dropped unread', async () => {
    await open('2025-10');
    const res = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: {}, agent: { name: 'N' } } });
    expectError(res, 400, 'Invalid request format: Must provide either user ID or user wallet address');
    const c = await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Boosty', boostTimeDecayRate: 'fast' } });
    expect(c.status).to.equal(201);
    expect((await s.call('PUT', `/api/admin/competition/${c.body.competition.id}`, { key: ADMIN_KEY, body: { boostTimeDecayRate: 5 } })).status).to.equal(200);
  });

  it('2025-10: update applies perpsProvider on an active perps competition and checks no arena', async () => {
    await open('2025-10');
    const a = await createAgent(s, ADMIN_KEY, 'Perper', { agentWalletAddress: nextWallet() });
    const cid = (await start({ name: 'Perps', type: 'perpetual_futures', agentIds: [a.agentId] })).body.competition.id;
    const res = await s.call('PUT', `/api/admin/competition/${cid}`, { key: ADMIN_KEY, body: { perpsProvider: { initialCapital: 42 }, arenaId: 'default-paper-arena' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const row = await s.world.deps.store.read((tx) => tx.get('competitions', cid)!);
    expect([row.perpsConfig!.initialCapital, row.arenaId]).to.deep.equal([42, 'default-paper-arena']);
  });

  it('2025-10: a sandbox admin add gives the world\'s default starting list, not the competition\'s', async () => {
    await open('2025-10');
    const seed = await createAgent(s, ADMIN_KEY, 'Seed');
    const cid = (await start({ name: 'Sandbox', sandboxMode: true, agentIds: [seed.agentId], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 7 }] })).body.competition.id;
    const late = await createAgent(s, ADMIN_KEY, 'Late');
    expect((await add(cid, late.agentId)).status).to.equal(200);
    const balances = await s.world.deps.store.read((tx) => tx.find('balances', 'agentCompetition', `${late.agentId}:${cid}`));
    const defaults = s.world.config.defaultInitialBalances;
    expect(balances.map((b) => [b.specificChain, b.symbol, b.amount])).to.deep.equal(defaults.map((b) => [b.specificChain, b.tokenSymbol, b.amount]));
  });

  it('spec: a perps agent added to a running sandbox competition reads a zero account until the next sync', async () => {
    await open('spec');
    const w = await createAgent(s, ADMIN_KEY, 'First', { agentWalletAddress: nextWallet() });
    const cid = (await start({ name: 'Perps Sandbox', type: 'perpetual_futures', sandboxMode: true, agentIds: [w.agentId] })).body.competition.id;
    const late = await createAgent(s, ADMIN_KEY, 'Late', { agentWalletAddress: nextWallet() });
    expect((await add(cid, late.agentId)).status).to.equal(200);
    const read = () => s.call('GET', '/api/agent/perps/account', { key: late.apiKey, query: { competitionId: cid } });
    const before = await read();
    expect(before.status).to.equal(200);
    expect(before.body.account).to.deep.equal({
      id: '', agentId: late.agentId, competitionId: cid, accountId: '', totalEquity: '0', availableBalance: '0', marginUsed: '0',
      totalPnl: '0', totalVolume: '0', openPositions: 0, timestamp: new Date(s.world.deps.clock.now()).toISOString(),
    });
    await s.world.advance(s.world.config.snapshotIntervalMs);
    const after = await read();
    expect(after.body.account.totalEquity).to.equal('10000');
    expect(after.body.account.id).to.equal(`${cid}:${late.agentId}`);
  });
});

describe('rules table: routes only the newest version has', () => {
  it('2025-10 answers the alert routes with the unknown-route 404; spec serves them', async () => {
    for (const [apiVersion, status] of [['2025-10', 404], ['spec', 200]] as const) {
      const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion });
      const c = await createCompetition(s, ADMIN_KEY);
      const res = await s.call('GET', `/api/admin/competition/${c.id}/perps/alerts`, { key: ADMIN_KEY });
      expect(res.status).to.equal(status);
      if (status === 404) expect(res.body).to.deep.equal({ success: false, error: `Cannot GET /api/admin/competition/${c.id}/perps/alerts` });
      await s.close();
    }
  });
});
