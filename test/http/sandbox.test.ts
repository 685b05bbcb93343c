// Sandbox mode: registration never joins a competition; the admin add endpoint resets balances and snapshots in sandbox competitions, pending ones included.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const USDC_ONLY = [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1234.5 }];

describe('sandbox mode', () => {
  let s: TestServer;
  let seed: Awaited<ReturnType<typeof createAgent>>;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    seed = await createAgent(s, ADMIN_KEY, 'Seed');
  });
  afterEach(() => s.close());

  const start = async (body: Record<string, unknown>, agentIds = [seed.agentId]) => {
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { agentIds, ...body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.competition as { id: string; paperTradingInitialBalances: { specificChain: string; tokenSymbol: string; amount: number }[] };
  };
  const add = (cid: string, aid: string) => s.call('POST', `/api/admin/competitions/${cid}/agents/${aid}`, { key: ADMIN_KEY });
  const state = (cid: string, agentId: string) => s.world.deps.store.read((tx) => ({
    reg: tx.get('competitionAgents', `${cid}:${agentId}`),
    balances: tx.find('balances', 'agentCompetition', `${agentId}:${cid}`),
    snapshots: tx.find('snapshots', 'agentCompetition', `${agentId}:${cid}`),
    participants: (tx.get('competitions', cid))!.registeredParticipants,
  }));

  it('never adds an agent registered through POST /api/admin/users or POST /api/admin/agents to a running sandbox competition', async () => {
    const c = await start({ name: 'Sandbox', sandboxMode: true });
    const a = await createAgent(s, ADMIN_KEY, 'Newcomer');
    const user = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet() } });
    const b = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: { id: user.body.user.id }, agent: { name: 'Later' } } });
    expect(b.status).to.equal(201);
    for (const id of [a.agentId, b.body.agent.id as string]) {
      const st = await state(c.id, id);
      expect(st.reg).to.equal(undefined);
      expect(st.balances).to.have.length(0);
      expect(st.snapshots).to.have.length(0);
    }
    expect((await state(c.id, seed.agentId)).participants).to.equal(1);
  });

  it('admin add to an active sandbox competition: starting balances, registration, a snapshot at the current time (200)', async () => {
    const c = await start({ name: 'Sandbox', sandboxMode: true, paperTradingInitialBalances: USDC_ONLY });
    await s.world.advance(90_000);
    const a = await createAgent(s, ADMIN_KEY, 'Newcomer');
    const res = await add(c.id, a.agentId);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true, message: 'Agent Newcomer successfully added to competition Sandbox',
      agent: { id: a.agentId, name: 'Newcomer', handle: 'newcomer', ownerId: a.userId },
      competition: { id: c.id, name: 'Sandbox', status: 'active' },
    });
    const st = await state(c.id, a.agentId);
    expect(st.reg).to.include({ status: 'active' });
    expect(st.balances.map((b) => [b.symbol, b.amount, b.specificChain, b.createdAt])).to.deep.equal([['usdc', 1234.5, 'svm', T0 + 90_000]]);
    expect(st.snapshots.map((x) => [x.timestamp, x.totalValue])).to.deep.equal([[T0 + 90_000, 1234.5]]);
  });

  it('admin add to a pending sandbox competition resets balances and snapshots too', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { name: 'Later Sandbox', sandboxMode: true, paperTradingInitialBalances: USDC_ONLY });
    const res = await add(c.id, seed.agentId);
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.deep.equal({ id: c.id, name: 'Later Sandbox', status: 'pending' });
    const st = await state(c.id, seed.agentId);
    expect(st.balances.map((b) => [b.symbol, b.amount])).to.deep.equal([['usdc', 1234.5]]);
    expect(st.snapshots.map((x) => [x.timestamp, x.totalValue])).to.deep.equal([[T0, 1234.5]]);
    // A pending competition that is not in sandbox mode gets neither.
    const plain = await createCompetition(s, ADMIN_KEY, { name: 'Plain' });
    expect((await add(plain.id, seed.agentId)).status).to.equal(200);
    const p = await state(plain.id, seed.agentId);
    expect([p.balances.length, p.snapshots.length]).to.deep.equal([0, 0]);
  });

  it('admin add to a sandbox perps competition clears balances and takes no snapshot; a wallet-less agent gets the one wallet text', async () => {
    const w = await createAgent(s, ADMIN_KEY, 'Wallet', { agentWalletAddress: nextWallet() });
    const perps = await start({ name: 'Perps Sandbox', type: 'perpetual_futures', sandboxMode: true }, [w.agentId]);
    expectError(await add(perps.id, seed.agentId), 400, 'Agent must have a wallet address to participate in this competition');
    const b = await createAgent(s, ADMIN_KEY, 'Perps Later', { agentWalletAddress: nextWallet() });
    expect((await add(perps.id, b.agentId)).status).to.equal(200);
    const st = await state(perps.id, b.agentId);
    expect([st.reg?.status, st.balances.length, st.snapshots.length]).to.deep.equal(['active', 0, 0]);
  });

  it('refuses active non-sandbox and ended competitions with upstream\'s texts (400)', async () => {
    const plain = await start({ name: 'Plain' });
    const a = await createAgent(s, ADMIN_KEY, 'Late');
    expectError(await add(plain.id, a.agentId), 400, 'Cannot add agents to active non-sandbox competitions - this would be unfair to existing participants');
    const ended = await start({ name: 'Old Sandbox', sandboxMode: true });
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: ended.id } });
    expectError(await add(ended.id, a.agentId), 400, 'Cannot add agent to ended competition');
    expect((await state(ended.id, a.agentId)).balances).to.have.length(0);
  });
});
