// One competition holding two teams and two agents: each caller gets its own generation's shapes, and both leaderboards agree on ranks.
import { expect } from 'chai';
import { createAgent } from '../../helpers/actors.js';
import type { TestServer } from '../../helpers/server.js';
import { ADMIN_KEY, registerTeam, SOL, startLegacyServer, startWithTeams, USDC, type Team } from './legacy-helpers.js';

describe('a mixed competition of teams and agents', () => {
  let s: TestServer;
  let t1: Team;
  let t2: Team;
  let a1: Awaited<ReturnType<typeof createAgent>>;
  let a2: Awaited<ReturnType<typeof createAgent>>;
  let cid: string;
  const trade = (key: string, amount: string) => s.call('POST', '/api/trade/execute', { key, body: { fromToken: USDC, toToken: SOL, amount, reason: 'r' } });

  beforeEach(async () => {
    s = await startLegacyServer({ slippage: 'expected' });
    t1 = await registerTeam(s, 'Team One');
    t2 = await registerTeam(s, 'Team Two');
    a1 = await createAgent(s, ADMIN_KEY, 'Agent One');
    a2 = await createAgent(s, ADMIN_KEY, 'Agent Two');
    const c = await startWithTeams(s, [t1.teamId, t2.teamId], { agentIds: [a1.agentId, a2.agentId] });
    cid = c.id;
    expect(c.teamIds).to.have.members([t1.teamId, t2.teamId, a1.agentId, a2.agentId]);
  });
  afterEach(() => s.close());

  it('answers a team\'s trade with the legacy record and an agent\'s with the current one (one legacy formula for both)', async () => {
    const legacy = (await trade(t1.apiKey, '1000')).body.transaction;
    const current = (await trade(a1.apiKey, '1000')).body.transaction;
    expect(legacy).to.include({ teamId: t1.teamId, competitionId: cid });
    expect(legacy).to.not.have.any.keys('agentId', 'tradeAmountUsd', 'fromTokenSymbol', 'toTokenSymbol');
    expect(current).to.include({ agentId: a1.agentId, competitionId: cid, tradeAmountUsd: 1000, fromTokenSymbol: 'USDC', toTokenSymbol: 'SOL' });
    expect(current).to.not.have.property('teamId');
    // The competition was created through a legacy body: its formula applies to every trader in it.
    expect(legacy.toAmount).to.be.closeTo((1000 * 0.995) / 150, 1e-12);
    expect(current.toAmount).to.equal(legacy.toAmount);
  });

  it('answers the legacy quote to a team and the current one to an agent', async () => {
    const q = { fromToken: USDC, toToken: SOL, amount: '100' };
    const legacy = await s.call('GET', '/api/trade/quote', { key: t1.apiKey, query: q });
    const current = await s.call('GET', '/api/trade/quote', { key: a1.apiKey, query: q });
    expect(Object.keys(legacy.body)).to.deep.equal(['fromToken', 'toToken', 'fromAmount', 'toAmount', 'exchangeRate', 'slippage', 'prices', 'chains']);
    expect(Object.keys(current.body)).to.deep.equal(['fromToken', 'toToken', 'fromAmount', 'toAmount', 'exchangeRate', 'slippage', 'tradeAmountUsd', 'prices', 'symbols', 'chains']);
    expect(legacy.body.toAmount).to.equal(current.body.toAmount);
  });

  it('ranks everyone the same on /api/competition/leaderboard and /api/competitions/leaderboard', async () => {
    // Values after the 5-minute snapshot with SOL at 300 (legacy slippage, expected): t2 11960 > a1 11477.5 > t1 10149.775 > a2 10000.
    await trade(t2.apiKey, '2000');
    await trade(a1.apiKey, '1500');
    await trade(t1.apiKey, '150');
    s.world.deps.prices.overrides.set({ address: SOL, specificChain: 'svm', price: 300 });
    await s.world.advance(5 * 60_000);
    const legacy = await s.call('GET', '/api/competition/leaderboard', { key: t1.apiKey });
    const current = await s.call('GET', '/api/competitions/leaderboard', { key: a1.apiKey });
    expect(legacy.status, JSON.stringify(legacy.body)).to.equal(200);
    expect(current.status, JSON.stringify(current.body)).to.equal(200);
    const legacyRanks = legacy.body.leaderboard.map((r: { rank: number; teamId: string; teamName: string }) => [r.rank, r.teamId, r.teamName]);
    const currentRanks = current.body.leaderboard.map((r: { rank: number; agentId: string; agentName: string }) => [r.rank, r.agentId, r.agentName]);
    expect(legacyRanks).to.deep.equal(currentRanks);
    expect(legacyRanks.map((r: unknown[]) => r[2])).to.deep.equal(['Team Two', 'Agent One', 'Team One', 'Agent Two']);
    expect(legacy.body.leaderboard.map((r: { portfolioValue: number }) => r.portfolioValue)).to.deep.equal(
      current.body.leaderboard.map((r: { portfolioValue: number }) => r.portfolioValue));
    expect(legacy.body.leaderboard[0].portfolioValue).to.be.closeTo(11960, 1e-9);
    expect(legacy.body.competition.status).to.equal('ACTIVE');
    expect(current.body.competition.status).to.equal('active');
    expect(current.body).to.have.property('inactiveAgents');
    expect(legacy.body).to.have.property('inactiveTeams');
  });

  it('gives each generation its own account view: /api/account for teams, /api/agent for agents', async () => {
    await trade(t1.apiKey, '150');
    await trade(a1.apiKey, '150');
    const teamBalances = await s.call('GET', '/api/account/balances', { key: t1.apiKey });
    const agentBalances = await s.call('GET', '/api/agent/balances', { key: a1.apiKey, query: { competitionId: cid } });
    expect(teamBalances.body.balances[0]).to.have.all.keys('token', 'amount', 'chain', 'specificChain');
    expect(agentBalances.body.balances[0]).to.include.keys('tokenAddress', 'symbol', 'price', 'value');
  });

  it('deactivates the teams at the end and leaves the agents active', async () => {
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
    expect((await s.call('GET', '/api/account/profile', { key: t1.apiKey })).status).to.equal(403);
    expect((await s.call('GET', '/api/agent/balances', { key: a1.apiKey, query: { competitionId: cid } })).status).to.equal(200);
  });
});
