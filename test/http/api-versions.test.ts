// API versions: the rules table (routes, competitionId, the active-competition 403, 401 wording, token tables) per world version, and how a version is chosen and shown.
import { expect } from 'chai';
import { ROUTES } from '../../src/http/resources/index.js';
import { API_VERSIONS, matchesRouteId, rule, VERSION_RULES } from '../../src/domain/versions.js';
import type { WorldOptions } from '../../src/world/config.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';
import { registerTeam } from './legacy/legacy-helpers.js';

const USDBC = '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA';
const POLYGON_USDC_E = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const OPTIMISM_USDC_E = '0x7f5c764cbc14f9669b88837ca1490cca17c31607';
const BTCB = '0x7130d2A12B9BCbFAe4f2634d864A1Ee1Ce3Ead9c';
const NO_COMPETITION = 'No active competition';

/** A served world of `version` with one agent (not yet in a competition). */
async function versionWorld(version: WorldOptions['apiVersion'], extra: WorldOptions = {}) {
  const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', ...(version ? { apiVersion: version } : {}), ...extra });
  const a = await createAgent(s, ADMIN_KEY, 'Versioned');
  const start = async (body: Record<string, unknown> = {}) => {
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Version Cup', agentIds: [a.agentId], ...body } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.competition.id as string;
  };
  const call = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; query?: Record<string, string>; key?: string } = {}) =>
    s.call(method, path, { key: a.apiKey, ...opts });
  return { s, a, start, call };
}

describe('API versions', () => {
  describe('the rules table', () => {
    it('names only route ids that exist (a renamed route cannot silently drop out of a rule)', () => {
      const ids = ROUTES.map((r) => r.id);
      for (const name of ['absentRoutes', 'activeCompetitionRoutes'] as const) {
        for (const v of API_VERSIONS) {
          for (const p of rule(v, name)) expect(ids.some((id) => matchesRouteId([p], id)), `${name}.${v}: ${p}`).to.equal(true);
        }
      }
    });

    it('has a value for every version in every row, and team keys get the team-era token table', () => {
      for (const [name, row] of Object.entries(VERSION_RULES)) {
        for (const v of API_VERSIONS) expect(row.values, `${name}.${v}`).to.have.property(v);
      }
      expect(rule('legacy', 'tokenTable')).to.equal('legacy');
      expect(rule('2025-10', 'tokenTable')).to.equal('2025-10');
      expect(rule('spec', 'tokenTable')).to.equal('2026-08');
    });
  });

  describe('choosing and showing the version', () => {
    let s: TestServer;
    afterEach(() => s?.close());

    it('defaults to spec and shows the version in GET /api/health/detailed (200)', async () => {
      s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
      const res = await s.call('GET', '/api/health/detailed');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ apiVersion: 'spec', unknownTokens: 'refuse' });
    });

    it('switches with the POST /api/sim/reset option apiVersion, and back with a plain reset', async () => {
      s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
      const reset = await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { apiVersion: '2026-08' } } });
      expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
      expect((await s.call('GET', '/api/health/detailed')).body.apiVersion).to.equal('2026-08');
      expect((await s.call('GET', '/api/competitions/upcoming', { key: ADMIN_KEY })).status).to.equal(404);
      await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
      expect((await s.call('GET', '/api/health/detailed')).body.apiVersion).to.equal('spec');
      expect((await s.call('GET', '/api/competitions/upcoming', { key: ADMIN_KEY })).status).to.equal(200);
    });

    it('refuses an unknown version on reset (400) and leaves the world as it was', async () => {
      s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion: '2025-10' });
      const res = await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { apiVersion: '2024-01' } } });
      expect(res.status).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.error).to.match(/^Invalid request: options\.apiVersion \(must be equal to one of the allowed values/);
      expect((await s.call('GET', '/api/health/detailed')).body.apiVersion).to.equal('2025-10');
    });

    it('describes the version in the OpenAPI document: info names it, absent routes are left out', async () => {
      s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion: '2026-08' });
      const doc = (await s.call('GET', '/api/openapi.json')).body;
      expect(doc.info['x-api-version']).to.equal('2026-08');
      expect(doc.info.description).to.include('API version `2026-08`');
      expect(doc.paths).to.not.have.property('/api/competitions/status');
      expect(doc.paths).to.not.have.property('/api/inferai/badge');
      expect(doc.paths).to.have.property('/api/eigenai/badge');
      await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { apiVersion: 'spec' } } });
      const spec = (await s.call('GET', '/api/openapi.json')).body;
      expect(spec.info['x-api-version']).to.equal('spec');
      expect(spec.paths).to.have.property('/api/competitions/status');
    });
  });

  describe('2026-08', () => {
    let w: Awaited<ReturnType<typeof versionWorld>>;
    beforeEach(async () => { w = await versionWorld('2026-08'); });
    afterEach(() => w.s.close());

    it('answers the removed routes with the unknown-route 404', async () => {
      for (const path of ['/api/competitions/status', '/api/competitions/leaderboard', '/api/competitions/upcoming', '/api/competitions/rules']) {
        expectError(await w.call('GET', path), 404, `Cannot GET ${path}`);
      }
      expectError(await w.call('GET', '/api/inferai/badge', { query: { competitionId: '00000000-0000-4000-8000-000000000000' } }), 404, 'Cannot GET /api/inferai/badge');
      expect((await w.call('GET', '/api/eigenai/badge', { query: { competitionId: '00000000-0000-4000-8000-000000000000' } })).status).to.equal(404);
      expect((await w.call('GET', '/api/eigenai/badge', { query: { competitionId: '00000000-0000-4000-8000-000000000000' } })).body.error).to.equal('Competition not found');
    });

    it('requires competitionId on execute after the token fields (400), with upstream\'s messages', async () => {
      await w.start();
      expectError(await w.call('POST', '/api/trade/execute', { body: { reason: 'r' } }), 400, 'Missing required parameters: fromToken, toToken, amount');
      expectError(await w.call('POST', '/api/trade/execute', { body: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10', reason: 'r' } }), 400,
        'Missing required parameter: competitionId. Use POST /api/trade/execute with competitionId in body');
    });

    it('requires competitionId on quote (400 where upstream answers 500), balances, trades and the perps reads', async () => {
      await w.start();
      expectError(await w.call('GET', '/api/trade/quote', { query: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10' } }), 400,
        'Missing required parameter: competitionId. Use GET /api/trade/quote?competitionId=xxx');
      expectError(await w.call('GET', '/api/agent/balances'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/balances?competitionId=xxx');
      expectError(await w.call('GET', '/api/agent/trades'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/trades?competitionId=xxx');
      expectError(await w.call('GET', '/api/agent/perps/positions'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/perps/positions?competitionId=xxx');
      expectError(await w.call('GET', '/api/agent/perps/account'), 400, 'Missing required parameter: competitionId. Use GET /api/agent/perps/account?competitionId=xxx');
    });

    it('needs no active competition for a price (200)', async () => {
      const res = await w.call('GET', '/api/price', { query: { token: TOK.SOL } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ success: true, price: 150 });
    });
  });

  describe('spec', () => {
    let w: Awaited<ReturnType<typeof versionWorld>>;
    beforeEach(async () => { w = await versionWorld(undefined); });
    afterEach(() => w.s.close());

    it('lets execute and quote omit competitionId (the active competition), as the specification documents them', async () => {
      const cid = await w.start({ paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] });
      const trade = await w.call('POST', '/api/trade/execute', { body: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150', reason: 'r' } });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      expect(trade.body.transaction).to.include({ competitionId: cid, toAmount: 1 });
      const quote = await w.call('GET', '/api/trade/quote', { query: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150' } });
      expect(quote.status).to.equal(200);
      expect(quote.body.toAmount).to.equal(1);
    });

    it('keeps the older competition routes and both inference path families', async () => {
      expect((await w.call('GET', '/api/competitions/upcoming')).status).to.equal(200);
      expect((await w.call('GET', '/api/inferai/badge', { query: { competitionId: '00000000-0000-4000-8000-000000000000' } })).body.error).to.equal('Competition not found');
    });

    it('answers a missing agent key with the newest 401 text', async () => {
      expectError(await w.s.call('GET', '/api/agent/balances'), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
    });
  });

  describe('2025-10', () => {
    let w: Awaited<ReturnType<typeof versionWorld>>;
    beforeEach(async () => { w = await versionWorld('2025-10'); });
    afterEach(() => w.s.close());

    it('refuses price, execute and quote with 403 while no competition is active, before checking the request', async () => {
      expectError(await w.call('GET', '/api/price', { query: { token: TOK.SOL } }), 403, NO_COMPETITION);
      expectError(await w.call('GET', '/api/price'), 403, NO_COMPETITION);
      expectError(await w.call('POST', '/api/trade/execute', { body: {} }), 403, NO_COMPETITION);
      expectError(await w.call('GET', '/api/trade/quote'), 403, NO_COMPETITION);
    });

    it('answers a missing agent key with the Privy wording (401)', async () => {
      expectError(await w.s.call('GET', '/api/agent/balances'), 401,
        '[AuthMiddleware] Authentication required. Invalid Privy token or no API key provided. Use Authorization: Bearer YOUR_API_KEY');
      expectError(await w.s.call('GET', '/api/price', { key: 'not-a-key' }), 401,
        "Invalid API key. This key may have been reset or is no longer associated with an active account. Please ensure you're using your most recent API key.");
    });

    it('ignores competitionId on execute and quote: the active competition is used (200)', async () => {
      const cid = await w.start({ paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] });
      const trade = await w.call('POST', '/api/trade/execute', {
        body: { competitionId: 'not-even-a-uuid', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150', reason: 'r' },
      });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      expect(trade.body.transaction.competitionId).to.equal(cid);
      const quote = await w.call('GET', '/api/trade/quote', { query: { competitionId: '00000000-0000-4000-8000-000000000000', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150' } });
      expect(quote.status).to.equal(200);
      // A malformed one is still refused by the parameter check (a listed difference).
      expectError(await w.call('GET', '/api/trade/quote', { query: { competitionId: 'x', fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150' } }), 400,
        'Invalid request: competitionId (invalid UUID)');
    });

    it('shows balances and every trade without competitionId, even after the competition ended (200)', async () => {
      const cid = await w.start({ paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] });
      expect((await w.call('POST', '/api/trade/execute', { body: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '150', reason: 'one' } })).status).to.equal(200);
      await w.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
      const balances = await w.call('GET', '/api/agent/balances');
      expect(balances.status).to.equal(200);
      expect(balances.body).to.not.have.property('competitionId');
      expect(balances.body.balances.map((b: { symbol: string; amount: number }) => [b.symbol, b.amount])).to.deep.equal([['USDC', 850], ['SOL', 1]]);
      const trades = await w.call('GET', '/api/agent/trades');
      expect(trades.status).to.equal(200);
      expect(trades.body.trades.map((t: { reason: string }) => t.reason)).to.deep.equal(['one']);
      // A fresh agent with no competition at all has nothing (200, not 403).
      const other = await createAgent(w.s, ADMIN_KEY, 'Newcomer');
      expect((await w.call('GET', '/api/agent/balances', { key: other.apiKey })).body.balances).to.deep.equal([]);
    });

    it('shows an agent its own last balance set while another agent\'s competition is active', async () => {
      const cid = await w.start({ paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }] });
      await w.s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
      const other = await createAgent(w.s, ADMIN_KEY, 'Other');
      const next = await w.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Next Cup', agentIds: [other.agentId] } });
      expect(next.status).to.equal(200);
      const res = await w.call('GET', '/api/agent/balances');
      expect(res.body.balances.map((b: { symbol: string; amount: number }) => [b.symbol, b.amount])).to.deep.equal([['USDC', 1000]]);
    });

    it('reads perps from the active competition: none -> 404, not perps -> 400, not in it -> 403, quote in perps -> 400 (Symphony text)', async () => {
      expectError(await w.call('GET', '/api/agent/perps/positions'), 404, 'No active competition found');
      expectError(await w.call('GET', '/api/agent/perps/account'), 404, 'No active competition found');
      await w.start();
      expectError(await w.call('GET', '/api/agent/perps/positions'), 400,
        'This endpoint is only available for perpetual futures competitions. Use GET /api/agent/trades for paper trading positions.');
      await w.s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: { options: { apiVersion: '2025-10' } } });
      const b = await createAgent(w.s, ADMIN_KEY, 'Perps', { agentWalletAddress: '0x00000000000000000000000000000000000000f1' });
      const outsider = await createAgent(w.s, ADMIN_KEY, 'Outsider');
      const perps = await w.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Perps Cup', type: 'perpetual_futures', agentIds: [b.agentId] } });
      expect(perps.status, JSON.stringify(perps.body)).to.equal(200);
      expect((await w.call('GET', '/api/agent/perps/account', { key: b.apiKey })).status).to.equal(200);
      expectError(await w.call('GET', '/api/agent/perps/positions', { key: outsider.apiKey }), 403, 'Agent is not registered in the active perps competition');
      expectError(await w.call('GET', '/api/trade/quote', { key: b.apiKey, query: { fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '1' } }), 400,
        'This endpoint is not available for perpetual futures competitions. Perpetual futures positions are managed through Symphony, not through this API.');
      expectError(await w.call('GET', '/api/agent/balances', { key: b.apiKey }), 400,
        'This endpoint is not available for perpetual futures competitions. Use GET /api/agent/perps/account for account summary.');
    });

    it('serves the older competition routes and no inference routes (404)', async () => {
      expect((await w.call('GET', '/api/competitions/upcoming')).status).to.equal(200);
      expectError(await w.call('GET', '/api/inferai/submissions'), 404, 'Cannot GET /api/inferai/submissions');
      expectError(await w.call('GET', '/api/eigenai/submissions'), 404, 'Cannot GET /api/eigenai/submissions');
    });

    it('uses the October-2025 token table: base, polygon and optimism usdc are USDbC and USDC.e', async () => {
      const cid = await w.start({
        paperTradingInitialBalances: [
          { specificChain: 'base', tokenSymbol: 'usdc', amount: 100 }, { specificChain: 'polygon', tokenSymbol: 'usdc', amount: 100 },
          { specificChain: 'optimism', tokenSymbol: 'usdc', amount: 100 }, { specificChain: 'eth', tokenSymbol: 'usdc', amount: 100 },
        ],
      });
      const res = await w.call('GET', '/api/agent/balances');
      expect(res.body.balances.map((b: { tokenAddress: string; symbol: string; price: number }) => [b.tokenAddress, b.symbol, b.price])).to.deep.equal([
        [USDBC, 'USDbC', 1], [POLYGON_USDC_E, 'USDC.e', 1], [OPTIMISM_USDC_E, 'USDC.e', 1], [TOK.ETH_USDC, 'USDC', 1],
      ]);
      const trade = await w.call('POST', '/api/trade/execute', { body: { competitionId: cid, fromToken: USDBC, toToken: TOK.ETH_USDC, amount: '10', reason: 'bridge' } });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);
      expect(trade.body.transaction).to.include({ fromTokenSymbol: 'USDbC', fromSpecificChain: 'base', toTokenSymbol: 'USDC' });
    });

    it('exempts the era\'s stablecoins from the trading constraints (USDbC here, not under spec)', async () => {
      await w.start({ paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 100 }] });
      await w.s.call('POST', '/api/sim/faults', { key: ADMIN_KEY, body: { kind: 'constraintFail', token: USDBC, specificChain: 'base', metric: 'all' } });
      const trade = await w.call('POST', '/api/trade/execute', { body: { fromToken: TOK.ETH_USDC, toToken: USDBC, amount: '10', reason: 'r', toSpecificChain: 'base' } });
      expect(trade.status, JSON.stringify(trade.body)).to.equal(200);

      const spec = await versionWorld(undefined);
      try {
        const cid = await spec.start({ paperTradingInitialBalances: [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 100 }] });
        await spec.s.call('POST', '/api/sim/faults', { key: ADMIN_KEY, body: { kind: 'constraintFail', token: USDBC, specificChain: 'base', metric: 'all' } });
        const refused = await spec.call('POST', '/api/trade/execute', { body: { competitionId: cid, fromToken: TOK.ETH_USDC, toToken: USDBC, amount: '10', reason: 'r', toSpecificChain: 'base' } });
        expect(refused.status).to.equal(400);
        expect(refused.body.success).to.equal(false);
        expect(refused.body.error).to.equal('Cannot get token pair creation time, minimum age is: 168 hours');
      } finally {
        await spec.s.close();
      }
    });

    it('discovers EVM prices on bsc too (the October-2025 order); spec does not', async () => {
      await w.start();
      const res = await w.call('GET', '/api/price', { query: { token: BTCB } });
      expect(res.body).to.include({ success: true, specificChain: 'bsc' });
      const spec = await versionWorld(undefined);
      try {
        expect((await spec.call('GET', '/api/price', { query: { token: BTCB } })).body.success).to.equal(false);
      } finally {
        await spec.s.close();
      }
    });
  });

  describe('team keys', () => {
    it('are not held by the October-2025 active-competition check and get the team era\'s USDC addresses', async () => {
      const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, apiVersion: '2025-10' });
      try {
        const { apiKey: key } = await registerTeam(s, 'Alpha');
        expect((await s.call('GET', '/api/price', { key, query: { token: TOK.SOL } })).status).to.equal(200);
      } finally {
        await s.close();
      }
    });

    it('get USDbC and USDC.e starting balances in a team competition of a spec world', async () => {
      const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
      try {
        const team = await registerTeam(s, 'Beta');
        const start = await s.call('POST', '/api/admin/competition/start', {
          key: ADMIN_KEY,
          body: {
            name: 'Team Cup', teamIds: [team.teamId],
            paperTradingInitialBalances: [{ specificChain: 'base', tokenSymbol: 'usdc', amount: 50 }, { specificChain: 'optimism', tokenSymbol: 'usdc', amount: 50 }],
          },
        });
        expect(start.status, JSON.stringify(start.body)).to.equal(200);
        const balances = await s.call('GET', '/api/account/balances', { key: team.apiKey });
        expect(balances.body.balances.map((b: { token: string }) => b.token)).to.deep.equal([USDBC, OPTIMISM_USDC_E]);
        // An agent of the same spec world gets the native addresses.
        const a = await createAgent(s, ADMIN_KEY, 'Native');
        const cup = await s.call('POST', '/api/admin/competition/start', {
          key: ADMIN_KEY, body: { name: 'Agent Cup', agentIds: [a.agentId], paperTradingInitialBalances: [{ specificChain: 'base', tokenSymbol: 'usdc', amount: 50 }] },
        });
        const mine = await s.call('GET', '/api/agent/balances', { key: a.apiKey, query: { competitionId: cup.body.competition.id } });
        expect(mine.body.balances.map((b: { tokenAddress: string }) => b.tokenAddress)).to.deep.equal([TOK.BASE_USDC]);
      } finally {
        await s.close();
      }
    });
  });
});
