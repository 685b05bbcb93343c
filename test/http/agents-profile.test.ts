// GET/PUT /api/agent/profile and POST /api/agent/reset-api-key: the own agent, its owner, limited updates, key rotation.
import { expect } from 'chai';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, sharedServer, type TestServer } from '../helpers/server.js';

const START = '2025-05-01T00:00:00.000Z';
type Actor = Awaited<ReturnType<typeof createAgent>>;

describe('/api/agent/profile', () => {
  let s: TestServer;
  let me: Actor;
  sharedServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }, async (server) => {
    s = server;
    me = await createAgent(s, ADMIN_KEY, 'Profile Bot', {
      name: 'Owner Name', email: 'owner@example.com', userImageUrl: 'https://img.example/u.png', userMetadata: { tier: 1 },
      agentDescription: 'first', agentImageUrl: 'https://img.example/a.png', agentMetadata: { skills: ['trading'] },
      agentWalletAddress: '0xABCDEF0123456789ABCDEF0123456789ABCDEF01', agentEmail: 'bot@example.com',
    });
  });

  const get = (key: string) => s.call('GET', '/api/agent/profile', { key });
  const put = (body: unknown, key = me.apiKey) => s.call('PUT', '/api/agent/profile', { key, body });

  describe('GET /api/agent/profile', () => {
    it('returns the agent (with email, without key material) and its owner (200)', async () => {
      const res = await get(me.apiKey);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        success: true,
        agent: {
          id: me.agentId, ownerId: me.userId, name: 'Profile Bot', handle: 'profile_bot', walletAddress: '0xabcdef0123456789abcdef0123456789abcdef01',
          description: 'first', imageUrl: 'https://img.example/a.png', metadata: { skills: ['trading'] }, status: 'active',
          createdAt: START, updatedAt: START, isVerified: true, email: 'bot@example.com',
        },
        owner: {
          id: me.userId, walletAddress: res.body.owner.walletAddress, name: 'Owner Name', email: 'owner@example.com',
          imageUrl: 'https://img.example/u.png', metadata: { tier: 1 }, status: 'active', createdAt: START, updatedAt: START,
        },
      });
    });

    it('rejects an admin key (401 Authentication required), a missing key and a bad key (401)', async () => {
      expectError(await get(ADMIN_KEY), 401, 'Authentication required');
      expectError(await s.call('GET', '/api/agent/profile'), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
      expectError(await get('0000000000000000_0000000000000000'), 401,
        "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.");
    });
  });

  describe('PUT /api/agent/profile', () => {
    it('changes description and imageUrl only, trims the description and bumps updatedAt (200)', async () => {
      await s.world.advance(60_000);
      const res = await put({ description: '  momentum on SOL  ', imageUrl: 'https://cdn.example/new.png' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.agent).to.include({
        id: me.agentId, name: 'Profile Bot', handle: 'profile_bot', description: 'momentum on SOL', imageUrl: 'https://cdn.example/new.png',
        email: 'bot@example.com', createdAt: START, updatedAt: '2025-05-01T00:01:00.000Z',
      });
      expect((await get(me.apiKey)).body.agent).to.deep.equal(res.body.agent);
    });

    it('accepts each field alone and an empty body', async () => {
      expect((await put({ description: 'only text' })).body.agent).to.include({ description: 'only text', imageUrl: 'https://img.example/a.png' });
      expect((await put({ imageUrl: 'ipfs://bafy/x.png' })).body.agent).to.include({ description: 'only text', imageUrl: 'ipfs://bafy/x.png' });
      const empty = await put({});
      expect(empty.status).to.equal(200);
      expect(empty.body.agent).to.include({ description: 'only text', imageUrl: 'ipfs://bafy/x.png' });
    });

    it('rejects any other field, naming it (400), and changes nothing', async () => {
      for (const field of ['name', 'handle', 'email', 'metadata', 'walletAddress', 'status']) {
        expectError(await put({ description: 'x', [field]: 'y' }), 400, `Invalid request format: ${field} (Unrecognized key: "${field}")`);
      }
      expect((await get(me.apiKey)).body.agent).to.include({ name: 'Profile Bot', description: 'first' });
    });

    it('rejects a bad description or image URL (400)', async () => {
      expectError(await put({ description: '   ' }), 400, 'Invalid request format: description (Description must be at least 1 character)');
      expectError(await put({ description: 42 }), 400, 'Invalid request format: description (Invalid description format)');
      for (const imageUrl of ['not a url', 'example.com/x.png', '', 7]) {
        expectError(await put({ imageUrl }), 400, 'Invalid request format: imageUrl (Invalid image URL format)');
      }
      expectError(await put([]), 400, 'Invalid request format: body (must be object)');
    });

    it('rejects an admin key (401)', async () => {
      expectError(await put({ description: 'x' }, ADMIN_KEY), 401, 'Authentication required');
    });
  });
});

describe('POST /api/agent/reset-api-key', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('returns a new key that works at once while the old key gets 401 at once (200)', async () => {
    const me = await createAgent(s, ADMIN_KEY, 'Rotator');
    const other = await createAgent(s, ADMIN_KEY, 'Bystander');
    const res = await s.call('POST', '/api/agent/reset-api-key', { key: me.apiKey });
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body)).to.deep.equal(['success', 'apiKey']);
    expect(res.body.success).to.equal(true);
    expect(res.body.apiKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/).and.not.equal(me.apiKey);
    expect((await s.call('GET', '/api/agent/profile', { key: res.body.apiKey })).body.agent.id).to.equal(me.agentId);
    expectError(await s.call('GET', '/api/agent/profile', { key: me.apiKey }), 401,
      "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.");
    expectError(await s.call('POST', '/api/agent/reset-api-key', { key: me.apiKey }), 401,
      "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.");
    // The admin key lookup returns the new key; other agents are untouched.
    expect((await s.call('GET', `/api/admin/agents/${me.agentId}/key`, { key: ADMIN_KEY })).body.agent.apiKey).to.equal(res.body.apiKey);
    expect((await s.call('GET', '/api/agent/profile', { key: other.apiKey })).status).to.equal(200);
  });

  it('rotates again with the new key', async () => {
    const me = await createAgent(s, ADMIN_KEY, 'Twice');
    const first = (await s.call('POST', '/api/agent/reset-api-key', { key: me.apiKey })).body.apiKey;
    const second = (await s.call('POST', '/api/agent/reset-api-key', { key: first })).body.apiKey;
    expect(second).to.not.equal(first);
    expect((await s.call('GET', '/api/agent/profile', { key: second })).status).to.equal(200);
    expect((await s.call('GET', '/api/agent/profile', { key: first })).status).to.equal(401);
  });

  it('rejects an admin key (401 Authentication required) and a missing key (401)', async () => {
    expectError(await s.call('POST', '/api/agent/reset-api-key', { key: ADMIN_KEY }), 401, 'Authentication required');
    expectError(await s.call('POST', '/api/agent/reset-api-key'), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
  });
});
