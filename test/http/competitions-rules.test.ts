// GET /api/competitions/{competitionId}/rules and /api/competitions/rules: rule texts from the real configured values.
import { expect } from 'chai';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';
import { MISSING } from '../helpers/competition-reads.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const START = '2025-03-01T00:00:00Z';
const RATE_LIMITS = [
  '100 requests per 60 seconds per endpoint', '100 requests per minute for trade operations', '300 requests per minute for price queries',
  '30 requests per minute for balance/portfolio checks', '3,000 requests per minute across all endpoints', '10,000 requests per hour per agent',
];
const BASE = 'baseSlippage = clamp(0.035 * log10(1 + tradeAmountUSD / 5000), 0.0005, 0.15)';

describe('GET /api/competitions/{competitionId}/rules', () => {
  it('states the defaults of a default world (200)', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    try {
      const c = await createCompetition(s, ADMIN_KEY, { name: 'Plain' });
      const res = await s.call('GET', `/api/competitions/${c.id}/rules`);
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.competition).to.include({ id: c.id, crossChainTradingType: 'disallowAll' });
      expect(res.body.rules).to.deep.equal({
        tradingRules: [
          'Trading is only allowed for tokens with valid price data',
          'All agents start with identical token balances: Ethereum: 1 ETH, 5000 USDC; Polygon: 200 USDC; Base: 5000 USDC; '
            + 'Arbitrum: 200 USDC; Optimism: 200 USDC; Solana: 10 SOL, 5000 USDC, 1000 USDT',
          'Minimum trade amount: 0.000001 tokens',
          "Maximum single trade: 25% of agent's total portfolio value",
          'No shorting allowed (trades limited to available balance)',
          'Slippage is applied to all trades based on trade size',
          'Cross-chain trading type: disallowAll',
          'Transaction fees are not simulated',
          'Token eligibility requires minimum 168 hours of trading history',
          'Token must have minimum 24h volume of $100,000 USD',
          'Token must have minimum liquidity of $100,000 USD',
          'Token must have minimum FDV of $1,000,000 USD',
        ],
        rateLimits: RATE_LIMITS,
        availableChains: { svm: true, evm: ['eth', 'polygon', 'arbitrum', 'base', 'optimism', 'avalanche', 'linea'] },
        slippageFormula: `${BASE}, actualSlippage = clamp(baseSlippage * (0.95 + 0.25 * max(U1, U2)), 0.0005, 0.15)`,
        tradingConstraints: { minimumPairAgeHours: 168, minimum24hVolumeUsd: 100000, minimumLiquidityUsd: 100000, minimumFdvUsd: 1000000, minTradesPerDay: null },
        portfolioSnapshots: { interval: '5 minutes' },
      });
    } finally {
      await s.close();
    }
  });

  it('states the competition\'s own balances, limits and constraints and the world\'s settings', async () => {
    const s = await startTestServer({
      admin: { apiKey: ADMIN_KEY }, startTime: START, evmChains: ['base', 'eth'], slippage: 'expected', snapshotIntervalMs: 90_000,
    });
    try {
      const c = await createCompetition(s, ADMIN_KEY, {
        name: 'Custom', tradingType: 'allow', paperTradingConfig: { maxTradePercentage: 40 },
        paperTradingInitialBalances: [
          { specificChain: 'svm', tokenSymbol: 'sol', amount: 2.5 }, { specificChain: 'bsc', tokenSymbol: 'usdt', amount: 50 },
          { specificChain: 'base', tokenSymbol: 'usdc', amount: 500 }, { specificChain: 'eth', tokenSymbol: 'usdc', amount: 1000 },
          { specificChain: 'eth', tokenSymbol: 'eth', amount: 2 },
        ],
        tradingConstraints: { minimumPairAgeHours: 48, minimum24hVolumeUsd: 250000, minimumLiquidityUsd: 1234567.5, minimumFdvUsd: 0, minTradesPerDay: 3 },
      });
      const { rules } = (await s.call('GET', `/api/competitions/${c.id}/rules`)).body;
      expect(rules.tradingRules[1]).to.equal('All agents start with identical token balances: Ethereum: 1000 USDC, 2 ETH; Base: 500 USDC; Solana: 2.5 SOL; Bsc: 50 USDT');
      expect(rules.tradingRules[3]).to.equal("Maximum single trade: 40% of agent's total portfolio value");
      expect(rules.tradingRules[6]).to.equal('Cross-chain trading type: allow');
      expect(rules.tradingRules.slice(8)).to.deep.equal([
        'Token eligibility requires minimum 48 hours of trading history',
        'Token must have minimum 24h volume of $250,000 USD',
        'Token must have minimum liquidity of $1,234,567.5 USD',
        'Token must have minimum FDV of $0 USD',
        'Minimum trades per day requirement: 3 trades',
      ]);
      expect(rules.availableChains).to.deep.equal({ svm: true, evm: ['base', 'eth'] });
      expect(rules.slippageFormula).to.equal(`${BASE}, actualSlippage = clamp(baseSlippage * (0.95 + 0.25 * 2/3), 0.0005, 0.15)`);
      expect(rules.tradingConstraints).to.deep.equal({ minimumPairAgeHours: 48, minimum24hVolumeUsd: 250000, minimumLiquidityUsd: 1234567.5, minimumFdvUsd: 0, minTradesPerDay: 3 });
      expect(rules.portfolioSnapshots).to.deep.equal({ interval: '1.5 minutes' });
    } finally {
      await s.close();
    }
  });

  it('states "no slippage" when the world applies none', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START, slippage: 'none' });
    try {
      const c = await createCompetition(s, ADMIN_KEY);
      expect((await s.call('GET', `/api/competitions/${c.id}/rules`)).body.rules.slippageFormula).to.equal('no slippage (actualSlippage = 0)');
    } finally {
      await s.close();
    }
  });

  it('rejects a malformed id (400) and an unknown competition (404)', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START });
    try {
      expectError(await s.call('GET', '/api/competitions/xyz/rules'), 400, 'Invalid UUID');
      expectError(await s.call('GET', `/api/competitions/${MISSING}/rules`), 404, 'Competition not found');
    } finally {
      await s.close();
    }
  });
});

describe('GET /api/competitions/rules', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: START }); });
  afterEach(() => s.close());
  const rules = (key?: string) => s.call('GET', '/api/competitions/rules', key ? { key } : {});

  it('gives a participant and an admin the active competition\'s rules (200)', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Player');
    const started = await s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Now', agentIds: [a.agentId], paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 777 }] },
    });
    const res = await rules(a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.competition.id).to.equal(started.body.competition.id);
    expect(res.body.rules.tradingRules[1]).to.equal('All agents start with identical token balances: Solana: 777 USDC');
    expect(res.body.rules.portfolioSnapshots).to.deep.equal({ interval: '5 minutes' });
    expect(Object.keys(res.body.rules)).to.deep.equal(['tradingRules', 'rateLimits', 'availableChains', 'slippageFormula', 'tradingConstraints', 'portfolioSnapshots']);
    const admin = await rules(ADMIN_KEY);
    expect(admin.status).to.equal(200);
    expect(admin.body.rules).to.deep.equal(res.body.rules);
  });

  it('answers 404 without an active competition, 403 to outsiders and 401 without a key', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Player');
    const b = await createAgent(s, ADMIN_KEY, 'Outsider');
    expectError(await rules(a.apiKey), 404, 'No active competition found to get rules for.');
    expectError(await rules(ADMIN_KEY), 404, 'No active competition found to get rules for.');
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Now', agentIds: [a.agentId] } });
    expectError(await rules(b.apiKey), 403, 'Forbidden: Your agent is not actively participating in the active competition.');
    expectError(await rules(), 401, '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
  });
});
