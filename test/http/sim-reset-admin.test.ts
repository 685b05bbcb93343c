// Reset and admin bootstrap: a reset without admin lets POST /api/admin/setup answer 201 again while the control key keeps the sim API; resets and loads clear rate-limit windows.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/actors.js';

const SETUP = { username: 'admin', password: 'admin123', email: 'admin@test.com' };

describe('POST /api/sim/reset {admin: false} and POST /api/admin/setup', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  afterEach(() => s.close());

  const reset = (key: string, body: Record<string, unknown> = { admin: false }) => s.call('POST', '/api/sim/reset', { key, body });
  const setup = () => s.call('POST', '/api/admin/setup', { body: SETUP });

  it('leaves the world without an admin, so setup answers 201 again; the control key resets again', async () => {
    expectError(await setup(), 403, 'Admin setup is not allowed - an admin account already exists');
    for (let round = 0; round < 2; round += 1) {
      const r = await reset(ADMIN_KEY);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.adminKey).to.equal(null);
      expect(await s.world.deps.store.read((tx) => tx.count('admins'))).to.equal(0);
      // The control key is no admin key of the world any more.
      expectError(await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY }), 401,
        'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
      const created = await setup();
      expect(created.status).to.equal(201);
      expect(created.body).to.deep.include({ success: true, message: 'Admin account created successfully' });
      const fresh = created.body.admin.apiKey as string;
      expect((await s.call('GET', '/api/admin/agents', { key: fresh })).status).to.equal(200);
      expectError(await setup(), 403, 'Admin setup is not allowed - an admin account already exists');
    }
  });

  it('a plain reset afterwards brings the admin back with the control key; strangers get the 401', async () => {
    await reset(ADMIN_KEY);
    const r = await reset(ADMIN_KEY, {});
    expect(r.status).to.equal(200);
    expect(r.body.adminKey).to.equal(ADMIN_KEY);
    expect((await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY })).status).to.equal(200);
    expectError(await reset('ffffffffffffffff_ffffffffffffffff'), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });
});

describe('rate-limit windows and resets/loads', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, rateLimits: 'upstream' }); });
  afterEach(() => s.close());

  // 30 requests a minute to /api/agents under the key prefix `caller`.
  const hit = () => s.call('GET', '/api/agents', { key: 'caller_0123456789abcdef' });
  const exhaust = async () => {
    for (let i = 0; i < 30; i += 1) expect((await hit()).status).to.equal(200);
    expectError(await hit(), 429, 'Rate limit exceeded. Try again in 60 seconds.');
  };

  it('a reset starts every window afresh', async () => {
    await exhaust();
    expect((await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} })).status).to.equal(200);
    expect((await hit()).status).to.equal(200);
  });

  it('a load starts every window afresh, even from a dump taken while limited', async () => {
    await exhaust();
    const dump = await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY });
    expect(dump.body.aux.rateLimits.length).to.be.greaterThan(0);
    expect((await s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: dump.body })).status).to.equal(200);
    expect((await hit()).status).to.equal(200);
    // Only the request made since the load counts.
    expect((await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body.aux.rateLimits.map((w: unknown[]) => w[1])).to.deep.equal([1, 1, 1]);
  });
});
