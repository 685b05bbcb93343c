// Admin reads and reports: GET /api/admin/users, GET /api/admin/search, transfer violations, the current performance report, reward allocation, alerts.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('admin reads', () => {
  let s: TestServer;
  let ann: Awaited<ReturnType<typeof createAgent>>;
  let bob: Awaited<ReturnType<typeof createAgent>>;
  let bobWallet: string;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    ann = await createAgent(s, ADMIN_KEY, 'Ann Bot', { name: 'Ann', email: 'ann@example.com' });
    bobWallet = nextWallet();
    bob = await createAgent(s, ADMIN_KEY, 'Bob Bot', { name: 'Bob', agentWalletAddress: bobWallet, agentEmail: 'bob-agent@example.com' });
  });
  after(() => s.close());

  const search = (query: Record<string, string>) => s.call('GET', '/api/admin/search', { key: ADMIN_KEY, query });

  it('GET /api/admin/users lists every user in storage order, nulls omitted (200); admin key required (401)', async () => {
    const res = await s.call('GET', '/api/admin/users', { key: ADMIN_KEY, query: { limit: '1' } });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.users.map((u: any) => u.id)).to.deep.equal([ann.userId, bob.userId]);
    expect(res.body.users[0]).to.include({ name: 'Ann', email: 'ann@example.com', isSubscribed: false, status: 'active' });
    expect(res.body.users[1]).to.not.have.any.keys('email', 'privyId', 'imageUrl', 'metadata', 'lastLoginAt', 'embeddedWalletAddress');
    expectError(await s.call('GET', '/api/admin/users'), 401, 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY');
  });

  it('GET /api/admin/search filters users and agents (dots or brackets), joins on owners (200)', async () => {
    const users = await search({ 'user.email': 'ANN@' });
    expect(users.status).to.equal(200);
    expect(users.body).to.deep.include({ success: true, join: false });
    expect(users.body.results.users.map((u: any) => u.id)).to.deep.equal([ann.userId]);
    expect(users.body.results.agents).to.deep.equal([]);

    const agents = await search({ 'agent[walletAddress]': bobWallet.slice(0, 30).toUpperCase().replace('0X', '0x') });
    expect(agents.body.results.agents.map((a: any) => a.id)).to.deep.equal([bob.agentId]);
    expect(agents.body.results.agents[0]).to.include({ isVerified: true, handle: 'bob_bot' });
    expect(agents.body.results.agents[0]).to.not.have.any.keys('apiKey', 'email');

    // handle is exact; an empty value matches everything.
    expect((await search({ 'agent.handle': 'bob' })).body.results.agents).to.deep.equal([]);
    expect((await search({ 'agent.name': '' })).body.results.agents).to.have.length(2);

    // join keeps the agents of the users found; without a user filter it finds none.
    const joined = await search({ 'user.name': 'bob', 'agent.name': 'bot', join: '' });
    expect(joined.body.join).to.equal(true);
    expect(joined.body.results.agents.map((a: any) => a.id)).to.deep.equal([bob.agentId]);
    expect((await search({ 'agent.name': 'bot', join: 'TRUE' })).body.results.agents).to.deep.equal([]);
  });

  it('GET /api/admin/search refuses a query without filters and unknown keys or values (400)', async () => {
    expectError(await search({ join: 'true' }), 400, 'Invalid request format: must provide user or agent search parameters');
    expectError(await search({ user: '' }), 400, 'Invalid request format: must provide user or agent search parameters');
    expectError(await search({ 'user.email': 'x', extra: '1' }), 400, "Invalid request format: unrecognized key(s) in query: 'extra'");
    expectError(await search({ 'user.phone': 'x' }), 400, "Invalid request format: user: unrecognized key 'phone'");
    expectError(await search({ 'agent.status': '' }), 400,
      "Invalid request format: agent.status: invalid enum value. Expected 'active' | 'inactive' | 'suspended' | 'deleted', received ''");
    expectError(await search({ 'user.name': 'x', join: 'maybe' }), 400, "Invalid request format: join: expected true or false, received 'maybe'");
  });

  it('transfer violations and alerts are empty lists for a competition (200), 404 for an unknown one; a review finds no alert (404)', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    for (const [path, key] of [['transfer-violations', 'violations'], ['perps/alerts', 'alerts'], ['spot-live/alerts', 'alerts']] as const) {
      const res = await s.call('GET', `/api/admin/competition/${c.id}/${path}`, { key: ADMIN_KEY });
      expect(res.status, path).to.equal(200);
      expect(res.body).to.deep.equal({ success: true, [key]: [] });
      expectError(await s.call('GET', `/api/admin/competition/${MISSING}/${path}`, { key: ADMIN_KEY }), 404, 'Competition not found');
    }
    expectError(await s.call('PUT', `/api/admin/competition/${c.id}/perps/alerts/a1/review`, { key: ADMIN_KEY, body: { reviewNote: 'ok' } }), 404, 'Alert not found');
    expectError(await s.call('PUT', `/api/admin/competition/${c.id}/spot-live/alerts/a1/review`, { key: ADMIN_KEY, body: {} }), 404, 'Alert not found');
  });

  it('POST /api/admin/rewards/allocate answers upstream\'s message (200); unknown competition 404', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    const res = await s.call('POST', '/api/admin/rewards/allocate', { key: ADMIN_KEY, body: { competitionId: c.id, startTimestamp: 1 } });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, message: 'Rewards allocated successfully', competitionId: c.id });
    expectError(await s.call('POST', '/api/admin/rewards/allocate', { key: ADMIN_KEY, body: { competitionId: MISSING } }), 404, 'Competition not found');
  });

  it('GET /api/admin/reports/performance answers the current report for a current competition (200)', async () => {
    const res0 = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Report Cup', agentIds: [ann.agentId, bob.agentId] } });
    const cid = res0.body.competition.id;
    const res = await s.call('GET', '/api/admin/reports/performance', { key: ADMIN_KEY, query: { competitionId: cid } });
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.include({ id: cid, status: 'active', type: 'trading' });
    expect(res.body.leaderboard).to.have.length(2);
    expect(res.body.leaderboard[0]).to.deep.include({ rank: 1, pnl: null, simpleReturn: null, startingValue: null, currentValue: null, totalTrades: null });
    expect(res.body.leaderboard.map((r: any) => [r.agentName, r.ownerName]).sort()).to.deep.equal([['Ann Bot', 'Ann'], ['Bob Bot', 'Bob']]);
  });
});
