// Tokens the hosted service prices in its own tests: in the catalogue on their own chains, priced and tradable under the trading constraints, found on their chain without specificChain, in every API version and for team keys.
import { expect } from 'chai';
import type { WorldOptions } from '../../src/world/config.js';
import { API_VERSIONS, type ApiVersion } from '../../src/domain/versions.js';
import { createAgent } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';
import { registerTeam, startWithTeams } from './legacy/legacy-helpers.js';

/** The nine tokens, with the catalogue's symbol and constant price. */
const NINE = [
  { symbol: 'RAY', chain: 'svm', address: '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R', price: 2.5 },
  { symbol: 'WETH', chain: 'svm', address: '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs', price: 3000 },
  { symbol: 'GRASS', chain: 'svm', address: 'Grass7B4RdKfBCjTKgSqnXkqjwiGvQyFbuSCUJr3XXjs', price: 1.5 },
  { symbol: 'VVV', chain: 'base', address: '0xacfE6019Ed1A7Dc6f7B508C02d1b04ec88cC21bf', price: 3 },
  { symbol: 'OM', chain: 'base', address: '0x3992B27dA26848C2b19CeA6Fd25ad5568B68AB98', price: 0.2 },
  { symbol: 'AAVE', chain: 'base', address: '0x63706e401c06ac8513145b7687A14804d17f814b', price: 250 },
  { symbol: 'rETH', chain: 'base', address: '0xB6fe221Fe9EeF5aBa221c348bA20A1Bf5e73624c', price: 3400 },
  { symbol: 'VIRTUAL', chain: 'base', address: '0x0b3e328455c4059EEb9e3f84b5543F74E24e7E1b', price: 1.2 },
  { symbol: 'KAITO', chain: 'base', address: '0x98d0baa52b2D063E780DE12F615f963Fe8537553', price: 1.1 },
] as const;

const VVV = NINE[3].address;
/** The base USDC each version's token table starts agents with (USDbC in October 2025). */
const BASE_USDC: Record<ApiVersion, string> = { spec: TOK.BASE_USDC, '2026-08': TOK.BASE_USDC, '2025-10': '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA' };
/** The hosted service's example environment: stricter than its code defaults. */
const STRICT = { minimumPairAgeHours: 2160, minimum24hVolumeUsd: 500000, minimumLiquidityUsd: 500000, minimumFdvUsd: 1000000 };
const START = [{ specificChain: 'base', tokenSymbol: 'usdc', amount: 5000 }, { specificChain: 'svm', tokenSymbol: 'usdc', amount: 5000 }];

describe('tokens the hosted service prices in its tests', () => {
  const open: TestServer[] = [];
  afterEach(async () => { for (const s of open.splice(0)) await s.close(); });
  const serve = async (options: WorldOptions) => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', ...options });
    open.push(s);
    return s;
  };

  for (const version of API_VERSIONS) {
    describe(`API version ${version}`, () => {
      async function arena(world: WorldOptions = {}) {
        const s = await serve({ apiVersion: version, ...world });
        const a = await createAgent(s, ADMIN_KEY, 'Base Trader');
        const start = await s.call('POST', '/api/admin/competition/start', {
          key: ADMIN_KEY, body: { name: 'Base Cup', agentIds: [a.agentId], paperTradingInitialBalances: START, tradingConstraints: STRICT },
        });
        expect(start.status, JSON.stringify(start.body)).to.equal(200);
        const cid = start.body.competition.id as string;
        const trade = (body: Record<string, unknown>) => s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { competitionId: cid, reason: 'listed', ...body } });
        return { s, a, cid, trade };
      }

      it('prices each on its own chain without specificChain (GET /api/price 200)', async () => {
        const { s, a } = await arena();
        for (const t of NINE) {
          const res = await s.call('GET', '/api/price', { key: a.apiKey, query: { token: t.address } });
          expect(res.status, t.symbol).to.equal(200);
          expect(res.body, t.symbol).to.include({ success: true, price: t.price, token: t.address, chain: t.chain === 'svm' ? 'svm' : 'evm', specificChain: t.chain, symbol: t.symbol });
        }
      });

      it('buys each from its chain\'s USDC without chains, under the example environment\'s constraints (200, on its own chain)', async () => {
        const { trade } = await arena();
        for (const t of NINE) {
          const from = t.chain === 'svm' ? TOK.SVM_USDC : BASE_USDC[version];
          const res = await trade({ fromToken: from, toToken: t.address, amount: '100' });
          expect(res.status, `${t.symbol}: ${JSON.stringify(res.body)}`).to.equal(200);
          expect(res.body.success).to.equal(true);
          expect(res.body.transaction).to.include({ toToken: t.address, toTokenSymbol: t.symbol, fromSpecificChain: t.chain, toSpecificChain: t.chain, tradeAmountUsd: 100 });
          expect(res.body.transaction.toAmount).to.be.closeTo(100 / t.price, 1e-9);
        }
      });

      it('keeps a base USDC -> VVV trade without chains on base, with synthetic tokens on as well (200, toSpecificChain base)', async () => {
        for (const unknownTokens of ['refuse', 'synthetic'] as const) {
          const { trade } = await arena({ unknownTokens });
          const res = await trade({ fromToken: BASE_USDC[version], toToken: VVV, amount: '300' });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          expect(res.body.success).to.equal(true);
          expect(res.body.transaction).to.include({ fromChain: 'evm', toChain: 'evm', fromSpecificChain: 'base', toSpecificChain: 'base', toTokenSymbol: 'VVV' });
          expect(res.body.transaction.toAmount).to.equal(100);
        }
      });
    });
  }

  it('lets a team key (the team era\'s table) buy them too, on their own chains (200)', async () => {
    const s = await serve({});
    const team = await registerTeam(s, 'Listed Team');
    await startWithTeams(s, [team.teamId], { paperTradingInitialBalances: START, tradingConstraints: STRICT });
    for (const [from, t] of [[TOK.SVM_USDC, NINE[0]], [BASE_USDC['2025-10'], NINE[3]]] as const) {
      const res = await s.call('POST', '/api/trade/execute', { key: team.apiKey, body: { fromToken: from, toToken: t.address, amount: '100', reason: 'listed' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.transaction).to.include({ toToken: t.address, toSpecificChain: t.chain });
      expect(res.body.transaction.toAmount).to.be.closeTo(100 / t.price, 1e-9);
    }
  });
});
