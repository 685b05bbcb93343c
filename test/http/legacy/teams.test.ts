// Legacy team endpoints: registration (public and admin), admin list/key/delete/deactivate/reactivate, and the legacy auth messages.
import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.js';
import {
  ADMIN_KEY, expectError, MISSING, MSG, registerTeam, SOL, startLegacyServer, startWithTeams, USDC,
} from './legacy-helpers.js';

const WALLET = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';

describe('POST /api/public/teams/register and POST /api/admin/teams/register', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startLegacyServer(); });
  afterEach(() => s.close());
  const pub = (body: unknown) => s.call('POST', '/api/public/teams/register', { body });
  const adm = (body: unknown, key = ADMIN_KEY) => s.call('POST', '/api/admin/teams/register', { key, body });

  it('registers a team with the given wallet and answers the team with its key (201)', async () => {
    const res = await pub({ teamName: 'Alpha', email: 'alpha@example.com', contactPerson: 'Ada', walletAddress: WALLET });
    expect(res.status).to.equal(201);
    expect(res.body.success).to.equal(true);
    const t = res.body.team;
    expect(Object.keys(t)).to.deep.equal(['id', 'name', 'email', 'contactPerson', 'walletAddress', 'apiKey', 'createdAt']);
    expect(t).to.include({ name: 'Alpha', email: 'alpha@example.com', contactPerson: 'Ada', walletAddress: WALLET, createdAt: '2025-01-01T00:00:00.000Z' });
    expect(t.apiKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/);
    const profile = await s.call('GET', '/api/account/profile', { key: t.apiKey });
    expect(profile.status).to.equal(200);
  });

  it('generates a wallet (0x + 40 hex from the seed) when none is given, the same on every run (201)', async () => {
    const res = await pub({ teamName: 'Beta', email: 'beta@example.com', contactPerson: 'Bo' });
    expect(res.status).to.equal(201);
    expect(res.body.team.walletAddress).to.match(/^0x[0-9a-f]{40}$/);
    const again = await startLegacyServer();
    try {
      const res2 = await again.call('POST', '/api/public/teams/register', { body: { teamName: 'Beta', email: 'beta@example.com', contactPerson: 'Bo' } });
      expect(res2.body.team.walletAddress).to.equal(res.body.team.walletAddress);
      expect(res2.body.team.apiKey).to.equal(res.body.team.apiKey);
    } finally {
      await again.close();
    }
  });

  it('stores metadata verbatim and echoes it; team names need not be unique', async () => {
    const metadata = { ref: { name: 'bot', version: '1.0' }, anything: [1, 2] };
    const a = await pub({ teamName: 'Same', email: 'a@example.com', contactPerson: 'A', metadata });
    const b = await pub({ teamName: 'Same', email: 'b@example.com', contactPerson: 'B' });
    expect(a.body.team.metadata).to.deep.equal(metadata);
    expect(b.status).to.equal(201);
    expect(b.body.team).to.not.have.property('metadata');
  });

  it('the admin variant registers the same way (201) and needs an admin key', async () => {
    const res = await adm({ teamName: 'Gamma', email: 'gamma@example.com', contactPerson: 'Gi', walletAddress: WALLET });
    expect(res.status).to.equal(201);
    expect(res.body.team.walletAddress).to.equal(WALLET);
    expectError(await s.call('POST', '/api/admin/teams/register', { body: {} }), 401, MSG.noKey);
    expectError(await adm({}, 'ffffffffffffffff_ffffffffffffffff'), 401, MSG.badKey);
    expectError(await adm({}, res.body.team.apiKey), 403, MSG.adminOnly);
  });

  it('rejects missing or falsy fields with one message (400)', async () => {
    const msg = 'Missing required parameters: teamName, email, contactPerson, walletAddress';
    expectError(await pub({}), 400, msg);
    expectError(await pub({ teamName: 'X', email: 'x@example.com' }), 400, msg);
    expectError(await pub({ teamName: '', email: 'x@example.com', contactPerson: 'C' }), 400, msg);
    expectError(await adm({ email: 'x@example.com', contactPerson: 'C' }), 400, msg);
  });

  it('rejects non-string fields and a malformed email (400)', async () => {
    expectError(await pub({ teamName: 5, email: 'x@example.com', contactPerson: 'C' }), 400, 'Invalid request: teamName (must be string)');
    expectError(await pub({ teamName: 'X', email: 'not-an-email', contactPerson: 'C' }), 400, 'Invalid request: email (must match format "email")');
  });

  it('rejects a taken email case-insensitively (409) before the wallet format (400)', async () => {
    await pub({ teamName: 'A', email: 'dup@example.com', contactPerson: 'A' });
    expectError(await pub({ teamName: 'B', email: 'DUP@example.com', contactPerson: 'B', walletAddress: 'bad' }), 409, 'A team with email DUP@example.com already exists');
  });

  it('rejects a malformed wallet (400) and a taken one in any case (409)', async () => {
    expectError(await pub({ teamName: 'A', email: 'a@example.com', contactPerson: 'A', walletAddress: '0x123' }), 400,
      'Invalid Ethereum address format. Must be 0x followed by 40 hex characters.');
    await pub({ teamName: 'A', email: 'a@example.com', contactPerson: 'A', walletAddress: WALLET });
    expectError(await pub({ teamName: 'B', email: 'b@example.com', contactPerson: 'B', walletAddress: WALLET.toLowerCase() }), 409,
      'A team with this wallet address already exists');
    expectError(await pub({ teamName: 'C', email: 'c@example.com', contactPerson: 'C', walletAddress: '0x0000000000000000000000000000000000000000' }), 409,
      'A team with this wallet address already exists');
  });

  it('makes the team an agent of generation legacy owned by a user made from its contact', async () => {
    const t = await registerTeam(s, 'Delta', { contactPerson: 'Dora', walletAddress: WALLET });
    const { agent, user } = await s.world.deps.store.read((tx) => {
      const a = (tx.get('agents', t.teamId))!;
      return { agent: a, user: (tx.get('users', a.ownerId))! };
    });
    expect(agent).to.include({ generation: 'legacy', name: 'Delta', status: 'active', email: t.email, walletAddress: WALLET.toLowerCase() });
    expect(user).to.include({ name: 'Dora', email: t.email, walletAddress: WALLET.toLowerCase() });
    const listed = await s.call('GET', `/api/admin/agents/${t.teamId}`, { key: ADMIN_KEY });
    expect(listed.body.agent.name).to.equal('Delta');
  });
});

describe('admin team endpoints (/api/admin/teams)', () => {
  let s: TestServer;
  let adminId: string;
  beforeEach(async () => {
    s = await startLegacyServer();
    adminId = (await s.world.deps.store.read((tx) => tx.all('admins')))[0]!.id;
  });
  afterEach(() => s.close());

  it('GET /api/admin/teams lists teams only, without wallet or metadata (200)', async () => {
    const a = await registerTeam(s, 'A', { metadata: { x: 1 } });
    await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: '0x1111111111111111111111111111111111111111', agentName: 'Agent' } });
    const res = await s.call('GET', '/api/admin/teams', { key: ADMIN_KEY });
    expect(res.status).to.equal(200);
    expect(res.body.teams).to.deep.equal([{
      id: a.teamId, name: 'A', email: a.email, contactPerson: res.body.teams[0].contactPerson, active: true, deactivationReason: null,
      createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z',
    }]);
    expectError(await s.call('GET', '/api/admin/teams', { key: a.apiKey }), 403, MSG.adminOnly);
  });

  it('GET /api/admin/teams/{teamId}/key returns the current key; 404, 403 for admins, 400 for a bad id', async () => {
    const a = await registerTeam(s, 'A');
    const res = await s.call('GET', `/api/admin/teams/${a.teamId}/key`, { key: ADMIN_KEY });
    expect(res.body).to.deep.equal({ success: true, team: { id: a.teamId, name: 'A', apiKey: a.apiKey } });
    expectError(await s.call('GET', `/api/admin/teams/${MISSING}/key`, { key: ADMIN_KEY }), 404, 'Team not found');
    expectError(await s.call('GET', `/api/admin/teams/${adminId}/key`, { key: ADMIN_KEY }), 403, 'Cannot retrieve API key for admin accounts');
    expectError(await s.call('GET', '/api/admin/teams/abc/key', { key: ADMIN_KEY }), 400, 'Invalid request: teamId (invalid UUID)');
  });

  it('DELETE /api/admin/teams/{teamId} removes the team with its trades, balances and memberships (200); its key stops working', async () => {
    const a = await registerTeam(s, 'A');
    const b = await registerTeam(s, 'B');
    const cid = (await startWithTeams(s, [a.teamId, b.teamId])).id;
    const trade = await s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { fromToken: USDC, toToken: SOL, amount: '150', reason: 'r' } });
    expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
    const res = await s.call('DELETE', `/api/admin/teams/${a.teamId}`, { key: ADMIN_KEY });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, message: 'Team successfully deleted' });
    const left = await s.world.deps.store.read((tx) => ({
      trades: (tx.find('trades', 'agent', a.teamId)).length, balances: (tx.find('balances', 'agent', a.teamId)).length,
      snaps: (tx.find('snapshots', 'agentCompetition', `${a.teamId}:${cid}`)).length, reg: tx.get('competitionAgents', `${cid}:${a.teamId}`),
      comp: (tx.get('competitions', cid))!.registeredParticipants,
    }));
    expect(left).to.deep.equal({ trades: 0, balances: 0, snaps: 0, reg: undefined, comp: 1 });
    expectError(await s.call('GET', '/api/account/profile', { key: a.apiKey }), 401, MSG.badKey);
    expectError(await s.call('DELETE', `/api/admin/teams/${a.teamId}`, { key: ADMIN_KEY }), 404, 'Team not found');
    expectError(await s.call('DELETE', `/api/admin/teams/${adminId}`, { key: ADMIN_KEY }), 403, 'Cannot delete admin accounts');
    // The contact user went with it: the email can be registered again.
    await registerTeam(s, 'A again', { email: a.email });
  });

  it('POST .../deactivate blocks the team with 403 and inactive:true everywhere; reactivate lets it back in', async () => {
    const a = await registerTeam(s, 'A');
    expectError(await s.call('POST', `/api/admin/teams/${a.teamId}/deactivate`, { key: ADMIN_KEY, body: {} }), 400, 'Reason for deactivation is required');
    expectError(await s.call('POST', `/api/admin/teams/${MISSING}/deactivate`, { key: ADMIN_KEY, body: { reason: 'x' } }), 404, 'Team not found');
    expectError(await s.call('POST', `/api/admin/teams/${adminId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'x' } }), 403, 'Cannot deactivate admin accounts');

    await s.world.advance(1000);
    const res = await s.call('POST', `/api/admin/teams/${a.teamId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'Rule violation' } });
    expect(res.status).to.equal(200);
    const deactivated = { id: a.teamId, name: 'A', active: false, deactivationReason: 'Rule violation', deactivationDate: '2025-01-01T00:00:01.000Z' };
    expect(res.body).to.deep.equal({ success: true, team: deactivated });

    for (const [method, path] of [['GET', '/api/account/profile'], ['GET', '/api/competition/status'], ['POST', '/api/trade/execute'], ['GET', '/api/price'], ['GET', '/api/admin/teams']]) {
      const r = await s.call(method!, path!, { key: a.apiKey, ...(method === 'POST' ? { body: {} } : {}) });
      expectError(r, 403, MSG.deactivated('Rule violation'));
      expect(r.body.inactive, path).to.equal(true);
    }
    const again = await s.call('POST', `/api/admin/teams/${a.teamId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'y' } });
    expectError(again, 400, 'Team is already inactive');
    expect(again.body.team).to.deep.equal(deactivated);
    const listed = await s.call('GET', '/api/admin/teams', { key: ADMIN_KEY });
    expect(listed.body.teams[0]).to.include({ active: false, deactivationReason: 'Rule violation', deactivationDate: '2025-01-01T00:00:01.000Z' });

    expectError(await s.call('POST', `/api/admin/teams/${MISSING}/reactivate`, { key: ADMIN_KEY }), 404, 'Team not found');
    const back = await s.call('POST', `/api/admin/teams/${a.teamId}/reactivate`, { key: ADMIN_KEY });
    expect(back.body).to.deep.equal({ success: true, team: { id: a.teamId, name: 'A', active: true } });
    expect((await s.call('GET', '/api/account/profile', { key: a.apiKey })).status).to.equal(200);
    const twice = await s.call('POST', `/api/admin/teams/${a.teamId}/reactivate`, { key: ADMIN_KEY });
    expectError(twice, 400, 'Team is already active');
    expect(twice.body.team).to.deep.equal({ id: a.teamId, name: 'A', active: true });
  });

  it('treats current agents as not teams (404)', async () => {
    const u = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: '0x2222222222222222222222222222222222222222', agentName: 'Agent' } });
    expectError(await s.call('GET', `/api/admin/teams/${u.body.agent.id}/key`, { key: ADMIN_KEY }), 404, 'Team not found');
  });
});

describe('legacy authentication', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startLegacyServer(); });
  afterEach(() => s.close());

  it('uses the team era\'s messages on the legacy-only prefixes, also before a 404 (401)', async () => {
    for (const path of ['/api/account/profile', '/api/competition/status', '/api/account/nope', '/api/competition/nope', '/api/admin/reports/performance']) {
      expectError(await s.call('GET', path), 401, MSG.noKey);
      expectError(await s.call('GET', path, { key: 'ffffffffffffffff_ffffffffffffffff' }), 401, MSG.badKey);
      expectError(await s.call('GET', path, { headers: { authorization: 'bearer x' } }), 401, MSG.noKey);
    }
    const t = await registerTeam(s, 'A');
    expectError(await s.call('GET', '/api/account/nope', { key: t.apiKey }), 404, 'Cannot GET /api/account/nope');
  });

  it('keeps the current messages on shared paths', async () => {
    expectError(await s.call('GET', '/api/price/token-info', { query: { token: 'x' } }), 401,
      '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
    expectError(await s.call('POST', '/api/trade/execute', { key: 'ffffffffffffffff_ffffffffffffffff', body: {} }), 401,
      "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.");
  });

  it('accepts team keys on current routes (a team is an agent)', async () => {
    const t = await registerTeam(s, 'A');
    expect((await s.call('GET', '/api/competitions', { key: t.apiKey })).status).to.equal(200);
  });
});
