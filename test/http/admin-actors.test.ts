// Admin setup, users and agents: every endpoint's success and rejection paths with upstream messages.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, expectError, nextWallet } from '../helpers/actors.js';

describe('POST /api/admin/setup', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer(); });
  afterEach(() => s.close());

  it('creates the first admin with a key in upstream format (201)', async () => {
    const res = await s.call('POST', '/api/admin/setup', { body: { username: 'Root', password: 'password123', email: 'Root@X.io' } });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ success: true, message: 'Admin account created successfully' });
    expect(res.body.admin).to.include({ username: 'root', email: 'root@x.io' });
    expect(res.body.admin.apiKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/);
    expect((await s.call('GET', '/api/admin/agents', { key: res.body.admin.apiKey })).status).to.equal(200);
  });

  it('draws the key, salt and id itself: fields beyond username, password and email are ignored (201)', async () => {
    const chosen = '0123456789abcdef_0123456789abcdef';
    const res = await s.call('POST', '/api/admin/setup', {
      body: { username: 'root', password: 'password123', email: 'root@x.io', apiKey: chosen, identity: { apiKey: chosen, salt: 'x', id: 'mine' } },
    });
    expect(res.status).to.equal(201);
    expect(res.body.admin.apiKey).to.not.equal(chosen);
    expect(res.body.admin.id).to.not.equal('mine');
    expectError(await s.call('GET', '/api/admin/agents', { key: chosen }), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });

  it('rejects a second setup (403)', async () => {
    const body = { username: 'root', password: 'password123', email: 'root@x.io' };
    await s.call('POST', '/api/admin/setup', { body });
    expectError(await s.call('POST', '/api/admin/setup', { body }), 403, 'Admin setup is not allowed - an admin account already exists');
  });

  it('rejects a missing field (400)', async () => {
    expectError(await s.call('POST', '/api/admin/setup', { body: { username: 'root', password: 'password123' } }), 400, 'Invalid request: email (required)');
  });
});

describe('POST /api/admin/users', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('creates a user with a first agent and returns its plaintext key (201)', async () => {
    const wallet = nextWallet().replace('0x', '0xAB').slice(0, 42);
    const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: wallet, name: 'Ann', email: 'ann@x.io', agentName: 'Ann Bot!!' } });
    expect(res.status).to.equal(201);
    expect(res.body.user).to.include({ walletAddress: wallet.toLowerCase(), name: 'Ann', status: 'active', isSubscribed: false });
    expect(res.body.agent).to.include({ name: 'Ann Bot!!', handle: 'ann_bot_', ownerId: res.body.user.id, status: 'active' });
    expect(res.body.agent.apiKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/);
  });

  it('creates a user alone when no agent is asked for (201)', async () => {
    const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet() } });
    expect(res.status).to.equal(201);
    expect(res.body).to.not.have.property('agent');
  });

  it('keeps the user and reports agentError when the agent fails (201)', async () => {
    const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet(), agentName: 'W', agentWalletAddress: '0x12' } });
    expect(res.status).to.equal(201);
    expect(res.body.agentError).to.equal('Invalid Ethereum address format. Must be 0x followed by 40 hex characters.');
    expect(res.body).to.not.have.property('agent');
  });

  it('rejects a duplicate wallet or email (409)', async () => {
    const w = nextWallet();
    await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: w, email: 'dup@x.io' } });
    expectError(await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: w } }), 409, 'A user with this walletAddress already exists');
    expectError(await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet(), email: 'dup@x.io' } }), 409, 'A user with this email already exists');
    // The wallet is reported when both repeat; the existing user is not returned.
    expectError(await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: w.toUpperCase().replace('0X', '0x'), email: 'dup@x.io' } }), 409,
      'A user with this walletAddress already exists');
    // Emails are compared case-sensitively, as upstream's unique column does.
    const other = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet(), email: 'DUP@x.io' } });
    expect(other.status).to.equal(201);
    expect(other.body.user.email).to.equal('DUP@x.io');
  });

  it('rejects a missing, then a malformed wallet, with upstream\'s texts (400)', async () => {
    expectError(await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { name: 'No Wallet' } }), 400, 'Wallet address is required');
    const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: '0x123' } });
    expectError(res, 400, 'Invalid Ethereum address format. Must be 0x followed by 40 hex characters.');
  });
});

describe('POST /api/admin/agents', () => {
  let s: TestServer;
  let owner: { id: string; wallet: string };
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const wallet = nextWallet();
    const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: wallet } });
    owner = { id: res.body.user.id, wallet };
  });
  after(() => s.close());
  const create = (user: object, agent: object) => s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user, agent } });

  it('creates an agent by owner id or wallet (201)', async () => {
    const a = await create({ id: owner.id }, { name: 'One', walletAddress: nextWallet().toUpperCase().replace('0X', '0x') });
    expect(a.status).to.equal(201);
    expect(a.body.agent).to.include({ name: 'One', handle: 'one', ownerId: owner.id });
    expect(a.body.agent.walletAddress).to.equal(a.body.agent.walletAddress.toLowerCase());
    const b = await create({ walletAddress: owner.wallet }, { name: 'Two', handle: 'second_one' });
    expect(b.status).to.equal(201);
    expect(b.body.agent.handle).to.equal('second_one');
  });

  it('derives unique handles and pads short ones', async () => {
    const a = await create({ id: owner.id }, { name: 'X' });
    expect(a.body.agent.handle).to.match(/^x[0-9a-f]{2}$/);
    const other = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: nextWallet(), agentName: 'One' } });
    expect(other.body.agent.handle).to.equal('one_2');
  });

  it('rejects an unknown owner (404)', async () => {
    expectError(await create({ id: '00000000-0000-4000-8000-000000000000' }, { name: 'N' }), 404, "User '00000000-0000-4000-8000-000000000000' does not exist");
    const w = nextWallet();
    expectError(await create({ walletAddress: w }, { name: 'N' }), 404, `User with wallet address '${w}' does not exist`);
  });

  it('requires exactly one of user.id and user.walletAddress, a user object and a name of at most 100 characters (400)', async () => {
    const msg = 'Invalid request: user (must provide either user ID or user wallet address)';
    expectError(await create({}, { name: 'N' }), 400, msg);
    expectError(await create({ id: owner.id, walletAddress: nextWallet() }, { name: 'N' }), 400, msg);
    expectError(await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { agent: { name: 'N' } } }), 400,
      'Invalid request: user (expected object, received undefined)');
    expectError(await create({ id: owner.id }, { name: 'n'.repeat(101) }), 400, 'Invalid request: agent.name (name must be 100 characters or less)');
    expect((await s.world.deps.store.read((tx) => tx.all('agents'))).some((a) => a.name === 'N')).to.equal(false);
  });

  it('rejects a bad agent wallet (400)', async () => {
    expectError(await create({ id: owner.id }, { name: 'Bad', walletAddress: 'nope' }), 400, 'Invalid Ethereum address format. Must be 0x followed by 40 hex characters.');
  });

  it('rejects duplicate handle, same-owner name and wallet (409)', async () => {
    const w = nextWallet();
    await create({ id: owner.id }, { name: 'Dupe', handle: 'dupe_handle', walletAddress: w });
    expectError(await create({ id: owner.id }, { name: 'Other', handle: 'dupe_handle' }), 409, "An agent with handle 'dupe_handle' already exists");
    expectError(await create({ id: owner.id }, { name: 'Dupe' }), 409, "You already have an agent with name 'Dupe'");
    expectError(await create({ id: owner.id }, { name: 'Third', walletAddress: w }), 409, `An agent with wallet address '${w}' already exists`);
  });
});

describe('admin agent management', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof createAgent>>;
  const MISSING = '00000000-0000-4000-8000-000000000000';
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    a = await createAgent(s, ADMIN_KEY, 'Managed');
  });
  afterEach(() => s.close());

  it('GET /api/admin/agents lists agents with pagination (200)', async () => {
    await createAgent(s, ADMIN_KEY, 'Another');
    const res = await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY, query: { limit: '1', sort: 'name' } });
    expect(res.status).to.equal(200);
    expect(res.body.agents.map((x: { name: string }) => x.name)).to.deep.equal(['Another']);
    expect(res.body.agents[0]).to.not.have.property('apiKey');
    expect(res.body.pagination).to.deep.equal({ total: 2, limit: 1, offset: 0, hasMore: true });
  });

  it('GET /api/admin/agents rejects an unknown sort field (400)', async () => {
    expectError(await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY, query: { sort: 'secret' } }), 400, "cannot sort by field: 'secret'");
  });

  it('GET /api/admin/agents/{agentId} returns the agent (200) or 404, and 400 for a non-uuid', async () => {
    const res = await s.call('GET', `/api/admin/agents/${a.agentId}`, { key: ADMIN_KEY });
    expect(res.status).to.equal(200);
    expect(res.body.agent).to.include({ id: a.agentId, name: 'Managed', status: 'active' });
    expectError(await s.call('GET', `/api/admin/agents/${MISSING}`, { key: ADMIN_KEY }), 404, 'Agent not found');
    expectError(await s.call('GET', '/api/admin/agents/abc', { key: ADMIN_KEY }), 400, 'Invalid request: agentId (invalid UUID)');
  });

  it('PUT /api/admin/agents/{agentId} updates given fields (200) and rejects a taken handle (409)', async () => {
    const res = await s.call('PUT', `/api/admin/agents/${a.agentId}`, { key: ADMIN_KEY, body: { description: 'new', isRewardsIneligible: true } });
    expect(res.status).to.equal(200);
    expect(res.body.agent).to.include({ description: 'new', isRewardsIneligible: true, name: 'Managed' });
    const b = await createAgent(s, ADMIN_KEY, 'Taken');
    expectError(await s.call('PUT', `/api/admin/agents/${a.agentId}`, { key: ADMIN_KEY, body: { handle: b.agent.handle } }), 409, `An agent with handle '${b.agent.handle}' already exists`);
    expectError(await s.call('PUT', `/api/admin/agents/${MISSING}`, { key: ADMIN_KEY, body: { name: 'x' } }), 404, 'Agent not found');
  });

  it('DELETE /api/admin/agents/{agentId} deletes (200), then 404', async () => {
    const res = await s.call('DELETE', `/api/admin/agents/${a.agentId}`, { key: ADMIN_KEY });
    expect(res.body).to.deep.equal({ success: true, message: 'Agent successfully deleted' });
    expectError(await s.call('DELETE', `/api/admin/agents/${a.agentId}`, { key: ADMIN_KEY }), 404, 'Agent not found');
  });

  it('GET /api/admin/agents/{agentId}/key returns the decrypted key (200)', async () => {
    const res = await s.call('GET', `/api/admin/agents/${a.agentId}/key`, { key: ADMIN_KEY });
    expect(res.body).to.deep.equal({ success: true, agent: { id: a.agentId, name: 'Managed', apiKey: a.apiKey } });
    expectError(await s.call('GET', `/api/admin/agents/${MISSING}/key`, { key: ADMIN_KEY }), 404, 'Agent not found');
  });

  it('POST .../deactivate needs a reason, deactivates once (200) and then refuses (400)', async () => {
    expectError(await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: {} }), 400, 'Invalid request: reason (required)');
    const res = await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'spam' } });
    expect(res.status).to.equal(200);
    expect(res.body.agent).to.include({ id: a.agentId, status: 'inactive', deactivationReason: 'spam' });
    const again = await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'spam' } });
    expectError(again, 400, 'Agent is already inactive');
    expect(again.body.agent).to.include({ id: a.agentId, status: 'inactive' });
  });

  it('POST .../reactivate reactivates (200) and refuses an active agent (400)', async () => {
    expectError(await s.call('POST', `/api/admin/agents/${a.agentId}/reactivate`, { key: ADMIN_KEY }), 400, 'Agent is already active');
    await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'r' } });
    const res = await s.call('POST', `/api/admin/agents/${a.agentId}/reactivate`, { key: ADMIN_KEY });
    expect(res.body).to.deep.equal({ success: true, agent: { id: a.agentId, name: 'Managed', status: 'active' } });
    expectError(await s.call('POST', `/api/admin/agents/${MISSING}/reactivate`, { key: ADMIN_KEY }), 404, 'Agent not found');
  });
});
