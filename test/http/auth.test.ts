// Authentication: Bearer parsing, agent and admin keys, deactivated agents, admin keys on agent routes.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, expectError } from '../helpers/actors.js';

const NO_KEY = '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY';
const BAD_KEY = "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.";
const NO_ADMIN = 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY';
const BAD_ADMIN = 'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.';
const SOL = { token: 'So11111111111111111111111111111111111111112' };

describe('authentication', () => {
  let s: TestServer;
  let agent: Awaited<ReturnType<typeof createAgent>>;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    agent = await createAgent(s, ADMIN_KEY, 'Keyed');
  });
  after(() => s.close());

  it('accepts an agent key on an agent route (200)', async () => {
    const res = await s.call('GET', '/api/price', { key: agent.apiKey, query: SOL });
    expect(res.status).to.equal(200);
  });

  it('accepts the admin key on an agent route (200)', async () => {
    expect((await s.call('GET', '/api/price', { key: ADMIN_KEY, query: SOL })).status).to.equal(200);
  });

  it('rejects a missing key on an agent route (401)', async () => {
    expectError(await s.call('GET', '/api/price', { query: SOL }), 401, NO_KEY);
  });

  it('treats anything but exactly "Bearer <key>" as no key (401)', async () => {
    for (const h of [`bearer ${agent.apiKey}`, `Bearer  ${agent.apiKey}`.slice(0, 6), agent.apiKey, 'Bearer ']) {
      expectError(await s.call('GET', '/api/price', { query: SOL, headers: { authorization: h } }), 401, NO_KEY);
    }
  });

  it('rejects an unknown key on an agent route (401)', async () => {
    expectError(await s.call('GET', '/api/price', { key: '0000000000000000_0000000000000000', query: SOL }), 401, BAD_KEY);
  });

  it('rejects a missing or non-admin key on an admin route (401)', async () => {
    expectError(await s.call('GET', '/api/admin/agents'), 401, NO_ADMIN);
    expectError(await s.call('GET', '/api/admin/agents', { key: agent.apiKey }), 401, BAD_ADMIN);
    expectError(await s.call('GET', '/api/admin/agents', { key: 'garbage' }), 401, BAD_ADMIN);
  });

  it('rejects the old key of a deactivated agent and accepts it again after reactivation', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Soon Off');
    expect((await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'test' } })).status).to.equal(200);
    expectError(await s.call('GET', '/api/price', { key: a.apiKey, query: SOL }), 401, BAD_KEY);
    expect((await s.call('POST', `/api/admin/agents/${a.agentId}/reactivate`, { key: ADMIN_KEY })).status).to.equal(200);
    expect((await s.call('GET', '/api/price', { key: a.apiKey, query: SOL })).status).to.equal(200);
  });

  it('refuses a key the moment its agent changes, however often the key was accepted before (401)', async () => {
    const before = await s.world.snapshot();
    const a = await createAgent(s, ADMIN_KEY, 'Busy');
    for (let i = 0; i < 3; i++) expect((await s.call('GET', '/api/price', { key: a.apiKey, query: SOL })).status).to.equal(200);
    const active = await s.world.snapshot();
    expect((await s.call('POST', `/api/admin/agents/${a.agentId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'test' } })).status).to.equal(200);
    expectError(await s.call('GET', '/api/price', { key: a.apiKey, query: SOL }), 401, BAD_KEY);
    // Restoring brings back the agent as it was, key and all; a world from before it knows neither.
    await s.world.restore(active);
    expect((await s.call('GET', '/api/price', { key: a.apiKey, query: SOL })).status).to.equal(200);
    await s.world.restore(before);
    expectError(await s.call('GET', '/api/price', { key: a.apiKey, query: SOL }), 401, BAD_KEY);
    await s.world.restore(active);
    const reset = await s.call('POST', '/api/agent/reset-api-key', { key: a.apiKey });
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
    expectError(await s.call('GET', '/api/price', { key: a.apiKey, query: SOL }), 401, BAD_KEY);
    expect((await s.call('GET', '/api/price', { key: reset.body.apiKey, query: SOL })).status).to.equal(200);
  });

  it('refuses the admin key the moment its admin is inactive, however often it was accepted before (403), on admin and agent routes', async () => {
    const INACTIVE = 'Admin access denied - account inactive';
    const active = await s.world.snapshot();
    for (let i = 0; i < 3; i++) {
      expect((await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY })).status).to.equal(200);
      expect((await s.call('GET', '/api/price', { key: ADMIN_KEY, query: SOL })).status).to.equal(200);
    }
    const store = s.world.deps.store;
    await store.transact((tx) => {
      for (const admin of tx.all('admins')) tx.put('admins', { ...admin, status: 'inactive' });
    });
    try {
      expectError(await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY }), 403, INACTIVE);
      // On a keyed route an inactive admin's key is no key at all.
      expectError(await s.call('GET', '/api/price', { key: ADMIN_KEY, query: SOL }), 401, BAD_KEY);
      expectError(await s.call('GET', '/api/admin/agents', { key: 'garbage' }), 401, BAD_ADMIN);
    } finally {
      await s.world.restore(active);
    }
    expect((await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY })).status).to.equal(200);
    expect((await s.call('GET', '/api/price', { key: ADMIN_KEY, query: SOL })).status).to.equal(200);
  });

  it('stores keys as hashes and an encrypted copy, never in plaintext', async () => {
    const row = await s.world.deps.store.read((tx) => tx.get('agents', agent.agentId));
    expect(JSON.stringify(row)).to.not.include(agent.apiKey);
    expect(row!.apiKeyHash).to.match(/^[0-9a-f]{64}$/);
    expect(row!.apiKeyEnc).to.match(/^[0-9a-f]{32}:[0-9a-f]+$/);
  });
});
