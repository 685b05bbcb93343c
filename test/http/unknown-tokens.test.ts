// World option unknownTokens: `refuse` gives upstream's answers for a token it cannot price; `synthetic` prices any valid address from the seed, kept by snapshots and dumps.
import { expect } from 'chai';
import type { WorldOptions } from '../../src/world/config.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { TOK } from '../helpers/trading.js';

const ODD_EVM = '0x1234567890abcdef1234567890abcdef12345678';
const ODD_SVM = 'HoDLxWbTwtkvt6B9cMdQUFRzkFpL5M8eX1AFJcgiYT5m';
const USDC_1000 = [{ specificChain: 'eth', tokenSymbol: 'usdc', amount: 1000 }, { specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }];

async function world(extra: WorldOptions = {}) {
  const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', ...extra });
  const a = await createAgent(s, ADMIN_KEY, 'Explorer');
  const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Odd Cup', agentIds: [a.agentId], paperTradingInitialBalances: USDC_1000 } });
  expect(start.status, JSON.stringify(start.body)).to.equal(200);
  const cid = start.body.competition.id as string;
  const price = (token: string, query: Record<string, string> = {}) => s.call('GET', '/api/price', { key: a.apiKey, query: { token, ...query } });
  const trade = (body: Record<string, unknown>) => s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { competitionId: cid, reason: 'odd', ...body } });
  return { s, a, cid, price, trade };
}

describe('unknown tokens', () => {
  const open: TestServer[] = [];
  afterEach(async () => { for (const s of open.splice(0)) await s.close(); });
  const make = async (extra: WorldOptions = {}) => {
    const w = await world(extra);
    open.push(w.s);
    return w;
  };

  describe('refuse (default)', () => {
    it('answers GET /api/price for a token it cannot price with 200 {success: false}', async () => {
      const w = await make();
      const res = await w.price(ODD_EVM);
      expect(res.status).to.equal(200);
      expect(res.body.success).to.equal(false);
      expect(res.body.price).to.equal(null);
    });

    it('refuses a trade into it (400 Unable to determine price for tokens)', async () => {
      const w = await make();
      expectError(await w.trade({ fromToken: TOK.ETH_USDC, toToken: ODD_EVM, amount: '10' }), 400, 'Unable to determine price for tokens');
    });
  });

  describe('synthetic', () => {
    it('prices any valid EVM or Solana address, the same on every EVM chain, and says so in health', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      expect((await w.s.call('GET', '/api/health/detailed')).body.unknownTokens).to.equal('synthetic');
      const evm = await w.price(ODD_EVM);
      expect(evm.body).to.include({ success: true, specificChain: 'eth', symbol: 'SYN1234' });
      expect(evm.body.price).to.be.within(0.01, 100);
      expect((await w.price(ODD_EVM, { specificChain: 'base' })).body.price).to.equal(evm.body.price);
      expect((await w.price(ODD_EVM.toUpperCase().replace('0X', '0x'))).body.price).to.equal(evm.body.price);
      const svm = await w.price(ODD_SVM);
      expect(svm.body).to.include({ success: true, specificChain: 'svm', symbol: 'SYNHODL' });
    });

    it('still refuses what is not an address (and the zero address keeps its own rules)', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      expect((await w.price('0x1234')).body.success).to.equal(false);
      expect((await w.price('not-base58-0OIl')).body.success).to.equal(false);
      expectError(await w.trade({ fromToken: TOK.ETH_USDC, toToken: '0x12345', amount: '10' }), 400, 'Unable to determine price for tokens');
    });

    it('derives the price path from the world seed and the address, following the random walk over time', async () => {
      const a = await make({ unknownTokens: 'synthetic', seed: 7 });
      const b = await make({ unknownTokens: 'synthetic', seed: 7 });
      const c = await make({ unknownTokens: 'synthetic', seed: 8 });
      const p0 = (await a.price(ODD_EVM)).body.price as number;
      expect((await b.price(ODD_EVM)).body.price).to.equal(p0);
      expect((await c.price(ODD_EVM)).body.price).to.not.equal(p0);
      await a.s.world.advance(3_600_000);
      await b.s.world.advance(3_600_000);
      const p1 = (await a.price(ODD_EVM)).body.price as number;
      expect(p1).to.not.equal(p0);
      expect((await b.price(ODD_EVM)).body.price).to.equal(p1);
      // A price override wins over the walk, as for catalogue tokens.
      await a.s.call('POST', '/api/sim/prices', { key: ADMIN_KEY, body: { prices: [{ token: ODD_EVM, specificChain: 'eth', price: 2 }] } });
      expect((await a.price(ODD_EVM)).body.price).to.equal(2);
    });

    it('trades into and out of a synthetic token: metadata passes the default constraints, balances value it', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const p = (await w.price(ODD_EVM)).body.price as number;
      const buy = await w.trade({ fromToken: TOK.ETH_USDC, toToken: ODD_EVM, amount: '100' });
      expect(buy.status, JSON.stringify(buy.body)).to.equal(200);
      expect(buy.body.transaction).to.include({ toTokenSymbol: 'SYN1234', toSpecificChain: 'eth' });
      expect(buy.body.transaction.toAmount).to.be.closeTo(100 / p, 1e-9);
      const balances = await w.s.call('GET', '/api/agent/balances', { key: w.a.apiKey, query: { competitionId: w.cid } });
      const row = balances.body.balances.find((r: { tokenAddress: string }) => r.tokenAddress === ODD_EVM);
      expect(row).to.include({ symbol: 'SYN1234', price: p });
      expect(row.value).to.be.closeTo(100, 1e-9);
      const sell = await w.trade({ fromToken: ODD_EVM, toToken: TOK.ETH_USDC, amount: String(buy.body.transaction.toAmount / 2) });
      expect(sell.status, JSON.stringify(sell.body)).to.equal(200);
    });

    it('keeps the option and the synthetic prices through a dump loaded into a world created with refuse', async () => {
      const w = await make({ unknownTokens: 'synthetic', seed: 3 });
      expect((await w.trade({ fromToken: TOK.ETH_USDC, toToken: ODD_EVM, amount: '100' })).status).to.equal(200);
      const p = (await w.price(ODD_EVM)).body.price as number;
      const dump = (await w.s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
      expect(dump.aux.mode).to.deep.equal({ apiVersion: 'spec', unknownTokens: 'synthetic' });

      const other = await startTestServer({ admin: { apiKey: ADMIN_KEY }, seed: 3 });
      open.push(other);
      const loaded = await other.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: dump });
      expect(loaded.status, JSON.stringify(loaded.body)).to.equal(200);
      expect((await other.call('GET', '/api/health/detailed')).body.unknownTokens).to.equal('synthetic');
      const again = await other.call('GET', '/api/price', { key: w.a.apiKey, query: { token: ODD_EVM } });
      expect(again.body).to.include({ success: true, price: p });
      const sell = await other.call('POST', '/api/trade/execute', { key: w.a.apiKey, body: { competitionId: w.cid, fromToken: ODD_EVM, toToken: TOK.ETH_USDC, amount: '1', reason: 'after load' } });
      expect(sell.status, JSON.stringify(sell.body)).to.equal(200);
    });

    it('refuses a dump whose mode is malformed (400) and changes nothing', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const dump = (await w.s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).body;
      dump.aux.mode = { apiVersion: '1999-01', unknownTokens: 'synthetic' };
      const res = await w.s.call('POST', '/api/sim/load', { key: ADMIN_KEY, body: dump });
      expect(res.status).to.equal(400);
      expect(res.body.success).to.equal(false);
      expect(res.body.error).to.match(/aux\.mode\.apiVersion/);
      expect((await w.s.call('GET', '/api/health/detailed')).body.apiVersion).to.equal('spec');
    });

    it('follows snapshots: a restore brings back the mode the snapshot was taken in', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const snap = await w.s.world.snapshot();
      await w.s.world.load({ ...(await w.s.world.dump()), aux: { ...(await w.s.world.dump()).aux, mode: { apiVersion: '2026-08', unknownTokens: 'refuse' } } });
      expect((await w.price(ODD_EVM)).body.success).to.equal(false);
      expect((await w.s.call('GET', '/api/health/detailed')).body.apiVersion).to.equal('2026-08');
      await w.s.world.restore(snap);
      expect((await w.price(ODD_EVM)).body.success).to.equal(true);
      expect((await w.s.call('GET', '/api/health/detailed')).body).to.include({ apiVersion: 'spec', unknownTokens: 'synthetic' });
    });
  });
  describe('synthetic never shadows a listed token', () => {
    const ODD_2 = '0x2222222222222222222222222222222222222222';
    const odd = async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const cheat = (path: string, body: unknown) => w.s.call('POST', path, { key: ADMIN_KEY, body });
      return { ...w, cheat };
    };

    it('prices base USDC asked for without a chain as the listed token on base (200, price 1)', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const res = await w.price(TOK.BASE_USDC);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ success: true, price: 1, chain: 'evm', specificChain: 'base', symbol: 'USDC' });
    });

    it('credits 400 eth USDC for 400 base USDC traded without chains: no money from nothing (200)', async () => {
      const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, slippage: 'none', unknownTokens: 'synthetic' });
      open.push(s);
      const a = await createAgent(s, ADMIN_KEY, 'Bridger');
      const start = await s.call('POST', '/api/admin/competition/start', {
        key: ADMIN_KEY,
        body: { name: 'Bridge Cup', agentIds: [a.agentId], tradingType: 'allow', paperTradingInitialBalances: [{ specificChain: 'base', tokenSymbol: 'usdc', amount: 1000 }, { specificChain: 'eth', tokenSymbol: 'usdc', amount: 1000 }] },
      });
      expect(start.status, JSON.stringify(start.body)).to.equal(200);
      const cid = start.body.competition.id as string;
      const res = await s.call('POST', '/api/trade/execute', { key: a.apiKey, body: { competitionId: cid, fromToken: TOK.BASE_USDC, toToken: TOK.ETH_USDC, amount: '400', reason: 'bridge' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.transaction).to.include({ fromAmount: 400, toAmount: 400, tradeAmountUsd: 400, fromTokenSymbol: 'USDC', fromSpecificChain: 'base', toSpecificChain: 'eth' });
      const balances = await s.call('GET', '/api/agent/balances', { key: a.apiKey, query: { competitionId: cid } });
      const total = (balances.body.balances as { value: number }[]).reduce((sum, b) => sum + b.value, 0);
      expect(total).to.equal(2000);
    });

    it('finds an address that only a manual price or a tape lists on its chain, not as a synthetic token on eth (200)', async () => {
      const w = await odd();
      expect((await w.cheat('/api/sim/prices', { prices: [{ token: ODD_EVM, specificChain: 'base', price: 2 }] })).status).to.equal(200);
      expect((await w.price(ODD_EVM)).body).to.include({ success: true, price: 2, specificChain: 'base' });
      expect((await w.cheat('/api/sim/prices/tape', { tapes: { [`polygon:${ODD_2}`]: [[0, 7]] } })).status).to.equal(200);
      expect((await w.price(ODD_2.toUpperCase().replace('0X', '0x'))).body).to.include({ success: true, price: 7, specificChain: 'polygon' });
      // Once the manual price is gone, nothing lists the address: it is synthetic again, on the first chain.
      expect((await w.s.call('DELETE', '/api/sim/prices', { key: ADMIN_KEY })).status).to.equal(200);
      expect((await w.price(ODD_EVM)).body).to.include({ success: true, specificChain: 'eth', symbol: 'SYN1234' });
    });

    it('gives a listed address no stand-in on a chain that does not list it (200 success false, as without synthetic tokens)', async () => {
      const w = await make({ unknownTokens: 'synthetic' });
      const res = await w.price(TOK.BASE_USDC, { specificChain: 'eth' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ success: false, price: null, specificChain: null });
      expectError(await w.trade({ fromToken: TOK.ETH_USDC, toToken: TOK.AERO, amount: '10', toSpecificChain: 'polygon' }), 400, 'Unable to determine price for tokens');
    });
  });
});
