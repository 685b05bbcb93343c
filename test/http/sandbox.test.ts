// Sandbox auto-join: agents created through the admin API join active sandbox paper-trading competitions, funded and snapshotted.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, nextWallet } from '../helpers/actors.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const USDC_ONLY = [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1234.5 }];

describe('sandbox auto-join on POST /api/admin/users and POST /api/admin/agents', () => {
  let s: TestServer;
  let seed: Awaited<ReturnType<typeof createAgent>>;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    seed = await createAgent(s, ADMIN_KEY, 'Seed');
  });
  afterEach(() => s.close());

  const start = async (body: Record<string, unknown>) => {
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { agentIds: [seed.agentId], ...body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.competition as { id: string; paperTradingInitialBalances: { specificChain: string; tokenSymbol: string; amount: number }[] };
  };
  const state = (cid: string, agentId: string) => s.world.deps.store.read((tx) => ({
    reg: tx.get('competitionAgents', `${cid}:${agentId}`),
    balances: tx.find('balances', 'agentCompetition', `${agentId}:${cid}`),
    snapshots: tx.find('snapshots', 'agentCompetition', `${agentId}:${cid}`),
    participants: (tx.get('competitions', cid))!.registeredParticipants,
  }));

  it('adds a user\'s first agent to an active sandbox competition with starting balances and a snapshot (201)', async () => {
    const c = await start({ name: 'Sandbox', sandboxMode: true });
    await s.world.advance(90_000);
    const a = await createAgent(s, ADMIN_KEY, 'Newcomer');
    const st = await state(c.id, a.agentId);
    expect(st.reg).to.include({ status: 'active', agentId: a.agentId });
    expect(st.participants).to.equal(2);
    const starting = c.paperTradingInitialBalances;
    expect(st.balances.map((b) => [b.symbol, b.amount])).to.deep.equal(starting.map((b) => [b.tokenSymbol, b.amount]));
    expect(st.balances.every((b) => b.createdAt === T0 + 90_000)).to.equal(true);
    expect(st.snapshots).to.have.length(1);
    expect(st.snapshots[0]).to.include({ timestamp: T0 + 90_000, totalValue: 21100 });
  });

  it('adds an agent created for an existing user through /api/admin/agents (201)', async () => {
    const c = await start({ name: 'Sandbox', sandboxMode: true, paperTradingInitialBalances: USDC_ONLY });
    const user = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet() } });
    const res = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: { id: user.body.user.id }, agent: { name: 'Later' } } });
    expect(res.status).to.equal(201);
    const st = await state(c.id, res.body.agent.id);
    expect(st.reg!.status).to.equal('active');
    expect(st.balances.map((b) => [b.symbol, b.amount, b.specificChain])).to.deep.equal([['usdc', 1234.5, 'svm']]);
    expect(st.snapshots.map((x) => x.totalValue)).to.deep.equal([1234.5]);
    // Its key works at once; a self-join now meets the status check, as for any started competition.
    expect((await s.call('POST', `/api/competitions/${c.id}/agents/${res.body.agent.id}`, { key: res.body.agent.apiKey })).body.error)
      .to.equal('Cannot join competition that has already started/ended');
  });

  it('joins every active sandbox paper-trading competition, and only those', async () => {
    const one = await start({ name: 'Sandbox One', sandboxMode: true });
    const two = await start({ name: 'Sandbox Two', sandboxMode: true });
    const plain = await start({ name: 'Plain' });
    const pending = await createCompetition(s, ADMIN_KEY, { name: 'Pending Sandbox', sandboxMode: true });
    const a = await createAgent(s, ADMIN_KEY, 'Everywhere');
    expect((await state(one.id, a.agentId)).reg!.status).to.equal('active');
    expect((await state(two.id, a.agentId)).reg!.status).to.equal('active');
    for (const cid of [plain.id, pending.id]) {
      const st = await state(cid, a.agentId);
      expect(st.reg).to.equal(undefined);
      expect(st.balances).to.have.length(0);
    }
  });

  it('skips ended sandbox competitions and sandbox competitions of other types', async () => {
    const ended = await start({ name: 'Old Sandbox', sandboxMode: true });
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: ended.id } });
    const walleted = await createAgent(s, ADMIN_KEY, 'Wallet', { agentWalletAddress: nextWallet() });
    const perps = await s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Perps Sandbox', type: 'perpetual_futures', sandboxMode: true, agentIds: [walleted.agentId] },
    });
    expect(perps.status).to.equal(200);
    const a = await createAgent(s, ADMIN_KEY, 'Nowhere', { agentWalletAddress: nextWallet() });
    expect((await state(ended.id, a.agentId)).reg).to.equal(undefined);
    expect((await state(perps.body.competition.id, a.agentId)).reg).to.equal(undefined);
  });

  it('swallows a failed join: the agent is still created (201) when the competition is full or the owner already plays', async () => {
    const full = await start({ name: 'Full Sandbox', sandboxMode: true, maxParticipants: 1 });
    const a = await createAgent(s, ADMIN_KEY, 'Too Late');
    expect((await state(full.id, a.agentId)).reg).to.equal(undefined);
    const open = await start({ name: 'Open Sandbox', sandboxMode: true });
    const sibling = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: { id: seed.userId }, agent: { name: 'Sibling' } } });
    expect(sibling.status).to.equal(201);
    expect(sibling.body.agent.apiKey).to.be.a('string');
    const st = await state(open.id, sibling.body.agent.id);
    expect(st.reg).to.equal(undefined);
    expect(st.balances).to.have.length(0);
    expect(st.participants).to.equal(1);
  });
});
