// GET /api/arenas (name filter, every sort key, paging) and GET /api/arenas/{id} over the seeded and admin-created arenas.
import { expect } from 'chai';
import { expectError } from '../helpers/actors.js';
import { MINUTE } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const START = '2025-06-01T00:00:00Z';
const DEFAULTS = ['default-paper-arena', 'default-perps-arena', 'default-spot-live-arena', 'default-nfl-game-prediction-arena'];

describe('GET /api/arenas', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    await s.world.advance(MINUTE);
    const create = (body: Record<string, unknown>) => s.call('POST', '/api/admin/arenas', { key: ADMIN_KEY, body });
    expect((await create({ id: 'b-arena', name: 'Zulu Arena', category: 'crypto_trading', skill: 'perpetual_futures', venues: ['hyperliquid'] })).status).to.equal(201);
    await s.world.advance(MINUTE);
    expect((await create({ id: 'a-arena', name: 'alpha arena', createdBy: 'ops', category: 'sports', skill: 'sports_prediction', chains: ['base'] })).status).to.equal(201);
    await s.world.advance(MINUTE);
    expect((await s.call('PUT', '/api/admin/arenas/b-arena', { key: ADMIN_KEY, body: { name: 'Zulu Arena' } })).status).to.equal(200);
  });
  after(() => s.close());

  const list = (query: Record<string, string> = {}) => s.call('GET', '/api/arenas', { query });
  const ids = (res: { body: any }) => res.body.arenas.map((a: any) => a.id);

  it('lists every arena in storage order without auth, default limit 20 (200)', async () => {
    const res = await list();
    expect(res.status).to.equal(200);
    expect(ids(res)).to.deep.equal([...DEFAULTS, 'b-arena', 'a-arena']);
    expect(res.body.pagination).to.deep.equal({ total: 6, limit: 20, offset: 0, hasMore: false });
    expect(res.body.arenas[5]).to.deep.equal({
      id: 'a-arena', name: 'alpha arena', createdBy: 'ops', category: 'sports', skill: 'sports_prediction', venues: null, chains: ['base'],
      kind: 'Competition', createdAt: '2025-06-01T00:02:00.000Z', updatedAt: '2025-06-01T00:02:00.000Z',
    });
    expect(res.body.arenas[0]).to.include({ id: 'default-paper-arena', createdBy: 'system', skill: 'spot_paper_trading', kind: 'Competition' });
  });

  it('filters by case-insensitive name substring', async () => {
    expect(ids(await list({ name: 'PERP' }))).to.deep.equal(['default-perps-arena']);
    expect(ids(await list({ name: 'arena' }))).to.have.length(6);
    expect(ids(await list({ name: 'ZULU' }))).to.deep.equal(['b-arena']);
    const none = await list({ name: 'nothing' });
    expect(none.body.arenas).to.deep.equal([]);
    expect(none.body.pagination.total).to.equal(0);
  });

  describe('sort', () => {
    const CASES: [string, string[]][] = [
      ['id', ['a-arena', 'b-arena', 'default-nfl-game-prediction-arena', 'default-paper-arena', 'default-perps-arena', 'default-spot-live-arena']],
      ['-id', ['default-spot-live-arena', 'default-perps-arena', 'default-paper-arena', 'default-nfl-game-prediction-arena', 'b-arena', 'a-arena']],
      // Code-unit order: upper case before lower case.
      ['name', ['default-nfl-game-prediction-arena', 'default-paper-arena', 'default-perps-arena', 'default-spot-live-arena', 'b-arena', 'a-arena']],
      ['-name', ['a-arena', 'b-arena', 'default-spot-live-arena', 'default-perps-arena', 'default-paper-arena', 'default-nfl-game-prediction-arena']],
      // The defaults share their creation instant and keep storage order.
      ['createdAt', [...DEFAULTS, 'b-arena', 'a-arena']], ['-createdAt', ['a-arena', 'b-arena', ...DEFAULTS]],
      ['updatedAt', [...DEFAULTS, 'a-arena', 'b-arena']], ['-updatedAt', ['b-arena', 'a-arena', ...DEFAULTS]],
      ['-createdAt,id', ['a-arena', 'b-arena', 'default-nfl-game-prediction-arena', 'default-paper-arena', 'default-perps-arena', 'default-spot-live-arena']],
    ];
    for (const [sort, expected] of CASES) {
      it(`sorts by ${sort}`, async () => {
        const res = await list({ sort });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(ids(res)).to.deep.equal(expected);
      });
    }

    it('rejects an unknown field or more than three fields, naming the parameter (400)', async () => {
      expectError(await list({ sort: 'skill' }), 400, "Invalid request: sort (cannot sort by field: 'skill')");
      expectError(await list({ sort: 'id,name,createdAt,updatedAt' }), 400, 'Invalid request: sort (at most 3 fields)');
    });
  });

  it('pages with limit and offset', async () => {
    const res = await list({ limit: '2', offset: '4' });
    expect(ids(res)).to.deep.equal(['b-arena', 'a-arena']);
    expect(res.body.pagination).to.deep.equal({ total: 6, limit: 2, offset: 4, hasMore: false });
    expect((await list({ limit: '1' })).body.pagination).to.deep.equal({ total: 6, limit: 1, offset: 0, hasMore: true });
  });

  it('rejects bad limit and offset naming the parameter (400)', async () => {
    expectError(await list({ limit: '0' }), 400, 'Invalid request: limit (must be >= 1)');
    expectError(await list({ limit: '101' }), 400, 'Invalid request: limit (must be <= 100)');
    expectError(await list({ offset: '-1' }), 400, 'Invalid request: offset (must be >= 0)');
  });
});

describe('GET /api/arenas/{id}', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  after(() => s.close());

  it('returns a seeded arena without auth (200)', async () => {
    const res = await s.call('GET', '/api/arenas/default-perps-arena');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true,
      arena: {
        id: 'default-perps-arena', name: 'Default Perpetual Futures Arena', createdBy: 'system', category: 'crypto_trading',
        skill: 'perpetual_futures', venues: ['hyperliquid'], chains: null, kind: 'Competition',
        createdAt: '2025-06-01T00:00:00.000Z', updatedAt: '2025-06-01T00:00:00.000Z',
      },
    });
  });

  it('answers 404 with upstream\'s message for an unknown arena', async () => {
    expectError(await s.call('GET', '/api/arenas/nope'), 404, 'Arena with ID nope not found');
  });
});
