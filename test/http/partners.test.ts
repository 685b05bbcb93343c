// Partners: admin CRUD and each competition's ordered partner list; absent under API version 2025-10.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createCompetition, expectError } from '../helpers/actors.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('admin partners', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  afterEach(() => s.close());
  const call = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
    s.call(method, path, { key: ADMIN_KEY, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) });

  it('creates, lists (nameFilter, paging), reads, updates and deletes partners', async () => {
    const a = await call('POST', '/api/admin/partners', { name: 'Alpha Labs', url: 'https://alpha.example' });
    expect(a.status).to.equal(201);
    expect(a.body.partner).to.include({ name: 'Alpha Labs', url: 'https://alpha.example', logoUrl: null, details: null });
    const b = (await call('POST', '/api/admin/partners', { name: 'Beta' })).body.partner;
    const list = await call('GET', '/api/admin/partners', undefined, { nameFilter: 'ALPHA' });
    expect(list.body.partners.map((p: any) => p.id)).to.deep.equal([a.body.partner.id]);
    expect(list.body.pagination).to.deep.equal({ total: 1, limit: 50, offset: 0, hasMore: false });
    expect((await call('GET', '/api/admin/partners', undefined, { sort: '-name' })).body.partners.map((p: any) => p.name)).to.deep.equal(['Beta', 'Alpha Labs']);
    expect((await call('PUT', `/api/admin/partners/${b.id}`, { details: 'infra' })).body.partner).to.include({ name: 'Beta', details: 'infra' });
    const del = await call('DELETE', `/api/admin/partners/${b.id}`);
    expect(del.body).to.deep.equal({ success: true, message: `Partner ${b.id} deleted successfully` });
    expectError(await call('GET', `/api/admin/partners/${b.id}`), 404, 'Partner not found');
    expectError(await call('POST', '/api/admin/partners', {}), 400, 'Invalid request: name (required)');
  });

  it('keeps a competition\'s partners by position: add, move, replace, remove', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    const [x, y] = [(await call('POST', '/api/admin/partners', { name: 'X' })).body.partner, (await call('POST', '/api/admin/partners', { name: 'Y' })).body.partner];
    const base = `/api/admin/competitions/${c.id}/partners`;
    const added = await call('POST', base, { partnerId: x.id, position: 2 });
    expect(added.status).to.equal(201);
    expect(added.body.association).to.include({ competitionId: c.id, partnerId: x.id, position: 2 });
    await call('POST', base, { partnerId: y.id, position: 1 });
    expectError(await call('POST', base, { partnerId: y.id, position: 3 }), 409, 'Partner is already associated with this competition');
    expect((await call('GET', base)).body.partners.map((p: any) => [p.name, p.position])).to.deep.equal([['Y', 1], ['X', 2]]);
    expect((await call('PUT', `${base}/${x.id}`, { position: 0 })).body.association.position).to.equal(0);
    expect((await call('GET', base)).body.partners.map((p: any) => p.name)).to.deep.equal(['X', 'Y']);
    const replaced = await call('PUT', `${base}/replace`, { partners: [{ partnerId: y.id, position: 5 }] });
    expect(replaced.body.partners.map((p: any) => [p.name, p.position])).to.deep.equal([['Y', 5]]);
    const removed = await call('DELETE', `${base}/${y.id}`);
    expect(removed.body).to.deep.equal({ success: true, message: 'Partner removed from competition successfully' });
    expect((await call('GET', base)).body.partners).to.deep.equal([]);
    expectError(await call('DELETE', `${base}/${y.id}`), 404, 'Partner is not associated with this competition');
    expectError(await call('GET', `/api/admin/competitions/${MISSING}/partners`), 404, 'Competition not found');
    expectError(await call('POST', base, { partnerId: MISSING, position: 1 }), 404, 'Partner not found');
  });

  it('is absent under API version 2025-10 (the unknown-route 404)', async () => {
    const old = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion: '2025-10' });
    const res = await old.call('GET', '/api/admin/partners', { key: ADMIN_KEY });
    expectError(res, 404, 'Cannot GET /api/admin/partners');
    await old.close();
  });
});
