// Legacy /api/account/*: profile read and update, balances, portfolio, trade history and key reset.
import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.js';
import {
  ADMIN_KEY, expectError, MSG, registerTeam, SOL, startLegacyServer, startWithTeams, USDC, type Team,
} from './legacy-helpers.js';

describe('/api/account (legacy)', () => {
  let s: TestServer;
  let t: Team;
  beforeEach(async () => {
    s = await startLegacyServer();
    t = await registerTeam(s, 'Alpha', { contactPerson: 'Ada', metadata: { ref: { name: 'bot' } } });
  });
  afterEach(() => s.close());
  const get = (path: string, key = t.apiKey) => s.call('GET', path, { key });
  const trade = (body: Record<string, unknown>) => s.call('POST', '/api/trade/execute', { key: t.apiKey, body: { reason: 'r', ...body } });

  describe('GET and PUT /api/account/profile', () => {
    it('returns the team (200)', async () => {
      const res = await get('/api/account/profile');
      expect(res.body).to.deep.equal({
        success: true,
        team: {
          id: t.teamId, name: 'Alpha', email: t.email, contactPerson: 'Ada', metadata: { ref: { name: 'bot' } },
          createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z',
        },
      });
    });

    it('updates only contactPerson and metadata (replaced whole) and bumps updatedAt (200)', async () => {
      await s.world.advance(5000);
      const res = await s.call('PUT', '/api/account/profile', { key: t.apiKey, body: { contactPerson: 'Bea', metadata: { v: 2 }, name: 'Ignored', email: 'x@y.z' } });
      expect(res.status).to.equal(200);
      expect(res.body.team).to.include({ name: 'Alpha', email: t.email, contactPerson: 'Bea', updatedAt: '2025-01-01T00:00:05.000Z' });
      expect(res.body.team.metadata).to.deep.equal({ v: 2 });
      expect((await get('/api/account/profile')).body.team.contactPerson).to.equal('Bea');
    });

    it('rejects a non-string contactPerson (400)', async () => {
      expectError(await s.call('PUT', '/api/account/profile', { key: t.apiKey, body: { contactPerson: 7 } }), 400, 'Invalid request: contactPerson (must be string)');
    });

    it('shows an admin key as the admin "team" (200)', async () => {
      const res = await get('/api/account/profile', ADMIN_KEY);
      expect(res.body.team).to.include({ contactPerson: 'System Administrator' });
      expect((await get('/api/account/balances', ADMIN_KEY)).body.balances).to.deep.equal([]);
      expect((await get('/api/account/trades', ADMIN_KEY)).body.trades).to.deep.equal([]);
    });
  });

  describe('GET /api/account/balances', () => {
    it('is empty before any competition (200)', async () => {
      expect((await get('/api/account/balances')).body).to.deep.equal({ success: true, teamId: t.teamId, balances: [] });
    });

    it('lists {token, amount, chain, specificChain} of the active competition, zero rows included (200)', async () => {
      await startWithTeams(s, [t.teamId]);
      expect((await trade({ fromToken: USDC, toToken: SOL, amount: '150' })).status).to.equal(200);
      expect((await trade({ fromToken: SOL, toToken: USDC, amount: '1' })).status).to.equal(200);
      expect((await get('/api/account/balances')).body.balances).to.deep.equal([
        { token: USDC, amount: 10000, chain: 'svm', specificChain: 'svm' },
        { token: SOL, amount: 0, chain: 'svm', specificChain: 'svm' },
      ]);
    });

    it('keeps showing the balances after the competition ended (balances outlive it)', async () => {
      const cid = (await startWithTeams(s, [t.teamId])).id;
      await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
      await s.call('POST', `/api/admin/teams/${t.teamId}/reactivate`, { key: ADMIN_KEY });
      expect((await get('/api/account/balances')).body.balances).to.have.length(1);
    });
  });

  describe('GET /api/account/portfolio', () => {
    it('computes live values before a competition (source live-calculation)', async () => {
      expect((await get('/api/account/portfolio')).body).to.deep.equal({ success: true, teamId: t.teamId, totalValue: 0, tokens: [], source: 'live-calculation' });
    });

    it('reads the newest snapshot while the competition is active (source snapshot)', async () => {
      await startWithTeams(s, [t.teamId]);
      await s.world.advance(1000);
      await trade({ fromToken: USDC, toToken: SOL, amount: '1500' });
      const res = await get('/api/account/portfolio');
      expect(res.body).to.deep.equal({
        success: true, teamId: t.teamId, totalValue: 10000,
        tokens: [
          { token: USDC, amount: 8500, price: 1, value: 8500, chain: 'svm', specificChain: 'svm' },
          { token: SOL, amount: 10, price: 150, value: 1500, chain: 'svm', specificChain: 'svm' },
        ],
        snapshotTime: '2025-01-01T00:00:01.000Z', source: 'snapshot',
      });
    });
  });

  describe('GET /api/account/trades', () => {
    it('lists the team\'s trades newest first with error:null (200)', async () => {
      await startWithTeams(s, [t.teamId]);
      const first = await trade({ fromToken: USDC, toToken: SOL, amount: '150' });
      await s.world.advance(1000);
      const second = await trade({ fromToken: SOL, toToken: USDC, amount: '0.5' });
      const res = await get('/api/account/trades');
      expect(res.body.teamId).to.equal(t.teamId);
      expect(res.body.trades.map((x: { id: string }) => x.id)).to.deep.equal([second.body.transaction.id, first.body.transaction.id]);
      expect(res.body.trades[1]).to.deep.equal({ ...first.body.transaction, error: null });
    });
  });

  describe('POST /api/account/reset-api-key', () => {
    it('returns a new key; the old one is refused at once and the new one works (200)', async () => {
      const res = await s.call('POST', '/api/account/reset-api-key', { key: t.apiKey });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['success', 'apiKey']);
      expect(res.body.apiKey).to.match(/^[0-9a-f]{16}_[0-9a-f]{16}$/).and.not.equal(t.apiKey);
      expectError(await get('/api/account/profile'), 401, MSG.badKey);
      expect((await get('/api/account/profile', res.body.apiKey)).status).to.equal(200);
      const key = await s.call('GET', `/api/admin/teams/${t.teamId}/key`, { key: ADMIN_KEY });
      expect(key.body.team.apiKey).to.equal(res.body.apiKey);
    });

    it('refuses an admin key, which is not a team (401)', async () => {
      expectError(await s.call('POST', '/api/account/reset-api-key', { key: ADMIN_KEY }), 401, 'Authentication required');
    });
  });
});
