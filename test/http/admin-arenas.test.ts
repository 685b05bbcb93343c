// Admin arena CRUD: create, list, get, update, delete, with upstream messages.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createCompetition, expectError } from '../helpers/actors.js';

describe('/api/admin/arenas', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  afterEach(() => s.close());
  const arena = { id: 'weekly-base', name: 'Weekly Base', category: 'crypto_trading', skill: 'spot_paper_trading', chains: ['base'] };

  it('lists the four seeded default arenas (200)', async () => {
    const res = await s.call('GET', '/api/admin/arenas', { key: ADMIN_KEY });
    expect(res.status).to.equal(200);
    expect(res.body.arenas.map((a: { id: string }) => a.id)).to.deep.equal(['default-paper-arena', 'default-perps-arena', 'default-spot-live-arena', 'default-nfl-game-prediction-arena']);
    expect(res.body.pagination).to.deep.equal({ total: 4, limit: 10, offset: 0, hasMore: false });
    const filtered = await s.call('GET', '/api/admin/arenas', { key: ADMIN_KEY, query: { name: 'PERP', sort: '-id' } });
    expect(filtered.body.arenas.map((a: { id: string }) => a.id)).to.deep.equal(['default-perps-arena']);
  });

  it('creates (201), reads (200), updates (200) and deletes (200) an arena', async () => {
    const created = await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: arena });
    expect(created.status).to.equal(201);
    expect(created.body.arena).to.include({ id: 'weekly-base', kind: 'Competition', createdBy: null, venues: null });
    expect((await s.call('GET', '/api/admin/arenas/weekly-base', { key: ADMIN_KEY })).body.arena.name).to.equal('Weekly Base');
    const upd = await s.call('PUT', '/api/admin/arenas/weekly-base', { key: ADMIN_KEY, body: { name: 'Renamed', venues: ['aerodrome'] } });
    expect(upd.body.arena).to.include({ name: 'Renamed' });
    const del = await s.call('DELETE', '/api/admin/arenas/weekly-base', { key: ADMIN_KEY });
    expect(del.body).to.deep.equal({ success: true, message: 'Arena weekly-base deleted successfully' });
    expectError(await s.call('GET', '/api/admin/arenas/weekly-base', { key: ADMIN_KEY }), 404, 'Arena with ID weekly-base not found');
  });

  it('updates only the arena fields: other body keys never reach the row (200)', async () => {
    await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: arena });
    const upd = await s.call('PUT', '/api/admin/arenas/weekly-base', { key: ADMIN_KEY, body: { name: 'Renamed', id: 'other', createdAt: 0, agentId: 'x' } });
    expect(upd.status).to.equal(200);
    expect(upd.body.arena).to.include({ id: 'weekly-base', name: 'Renamed' }).and.not.have.any.keys('agentId');
    expect(upd.body.arena.createdAt).to.equal(upd.body.arena.updatedAt);
    expect((await s.call('GET', '/api/admin/arenas/other', { key: ADMIN_KEY })).status).to.equal(404);
  });

  it('rejects an arena without an id, naming the field, and stores nothing (400)', async () => {
    const { id: _id, ...noId } = arena;
    const before = (await s.call('GET', '/api/admin/arenas', { key: ADMIN_KEY })).body.arenas.length;
    expectError(await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: noId }), 400, 'Invalid request: id (required)');
    expect((await s.call('GET', '/api/admin/arenas', { key: ADMIN_KEY })).body.arenas).to.have.length(before);
  });

  it('rejects a bad id (400), a duplicate (409) and unknown arenas (404)', async () => {
    expectError(await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: { ...arena, id: 'Bad_ID' } }), 400, "Arena ID must be lowercase kebab-case (e.g., 'aerodrome-base-weekly')");
    await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: arena });
    expectError(await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: arena }), 409, 'Arena with ID weekly-base already exists');
    expectError(await s.call('PUT', '/api/admin/arenas/nope', { key: ADMIN_KEY, body: { name: 'x' } }), 404, 'Arena with ID nope not found');
    expectError(await s.call('DELETE', '/api/admin/arenas/nope', { key: ADMIN_KEY }), 404, 'Arena with ID nope not found');
    expectError(await s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body: { id: 'x' } }), 400, 'Invalid request: name (required); category (required); skill (required)');
  });

  it('refuses to delete an arena with competitions or to change its skill incompatibly (409/400)', async () => {
    await createCompetition(s, ADMIN_KEY, { name: 'Paper' });
    expectError(await s.call('DELETE', '/api/admin/arenas/default-paper-arena', { key: ADMIN_KEY }), 409, 'Cannot delete arena default-paper-arena: arena has associated competitions');
    expectError(await s.call('PUT', '/api/admin/arenas/default-paper-arena', { key: ADMIN_KEY, body: { skill: 'perpetual_futures' } }), 400,
      'Cannot change arena skill to "perpetual_futures": 1 existing competition(s) would become incompatible (Paper)');
  });
});
