// Trade rules: cross-chain policies, chain discovery, trading constraints and exemptions, maximum size, burns, slippage modes.
import { expect } from 'chai';
import { baseSlippage, slippageForBias } from '../../src/domain/trading/slippage.js';
import { expectError } from '../helpers/actors.js';
import { startArena, TOK, usdcOnly, type Arena } from '../helpers/trading.js';

const MULTI = {
  paperTradingInitialBalances: [
    { specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 },
    { specificChain: 'eth', tokenSymbol: 'usdc', amount: 1000 },
    { specificChain: 'base', tokenSymbol: 'usdc', amount: 1000 },
  ],
};

describe('POST /api/trade/execute: cross-chain policies', () => {
  const xparent = 'Cross-parent chain trading is disabled. Both tokens must be on the same parent blockchain.';
  const xchain = 'Cross-chain trading is disabled. Both tokens must be on the same blockchain.';
  let a: Arena;
  afterEach(() => a.s.close());

  it('disallowAll (default): refuses svm -> evm, and two different specific chains when both are given', async () => {
    a = await startArena(MULTI);
    const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.WETH, amount: '10' });
    expectError(res, 400, xchain);
    expect(res.body.details).to.deep.equal({ rule: 'crossChain', tradingType: 'disallowAll', fromChain: 'svm', toChain: 'evm' });
    expectError(await a.trade({ fromToken: TOK.BASE_USDC, toToken: TOK.WETH, amount: '10', fromSpecificChain: 'base', toSpecificChain: 'eth' }), 400, xchain);
  });

  it('disallowAll: lets base USDC -> eth WETH through when the client names no specific chains (upstream subtlety)', async () => {
    a = await startArena(MULTI);
    const res = await a.trade({ fromToken: TOK.BASE_USDC, toToken: TOK.WETH, amount: '30' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.transaction).to.include({ fromSpecificChain: 'base', toSpecificChain: 'eth', fromChain: 'evm', toChain: 'evm', toAmount: 0.01 });
    // Only one side given: still allowed.
    expect((await a.trade({ fromToken: TOK.BASE_USDC, toToken: TOK.WETH, amount: '30', fromSpecificChain: 'base' })).status).to.equal(200);
  });

  it('disallowXParent: refuses svm -> evm but allows base -> eth with both chains given', async () => {
    a = await startArena({ ...MULTI, tradingType: 'disallowXParent' });
    expectError(await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.WETH, amount: '10' }), 400, xparent);
    const res = await a.trade({ fromToken: TOK.BASE_USDC, toToken: TOK.WETH, amount: '30', fromSpecificChain: 'base', toSpecificChain: 'eth' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  });

  it('allow: svm USDC -> eth WETH goes through', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow' });
    const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.WETH, amount: '30' });
    expect(res.status).to.equal(200);
    expect(res.body.transaction).to.include({ fromChain: 'svm', toChain: 'evm', fromSpecificChain: 'svm', toSpecificChain: 'eth' });
  });

  it('uses the parent chains the client gives instead of detecting them', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow' });
    // An EVM address declared svm is priced on svm only: no price.
    expectError(await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.WETH, amount: '10', toChain: 'svm' }), 400, 'Unable to determine price for tokens');
    expectError(await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.WETH, amount: '10', toChain: 'btc' }), 400,
      'Invalid request: toChain (must be equal to one of the allowed values: evm, svm)');
  });
});

describe('POST /api/trade/execute: prices and chain discovery', () => {
  let a: Arena;
  beforeEach(async () => { a = await startArena(MULTI); });
  afterEach(() => a.s.close());

  it('finds an EVM token on the first chain of the discovery order that prices it (AERO: base)', async () => {
    const res = await a.trade({ fromToken: TOK.BASE_USDC, toToken: TOK.AERO, amount: '10' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.transaction).to.include({ toSpecificChain: 'base', toTokenSymbol: 'AERO' });
  });

  it('prices an EVM token with an explicit specific chain only there (no fallback)', async () => {
    expectError(await a.trade({ fromToken: TOK.ETH_USDC, toToken: TOK.WETH, amount: '10', toSpecificChain: 'polygon' }), 400, 'Unable to determine price for tokens');
    expectError(await a.trade({ fromToken: TOK.ETH_USDC, toToken: TOK.WETH, amount: '10', toSpecificChain: 'no-such-chain' }), 400, 'Unable to determine price for tokens');
  });

  it('matches EVM balance rows case-insensitively and overwrites symbol and chain of the receiving row', async () => {
    const res = await a.trade({ fromToken: TOK.ETH_USDC.toLowerCase(), toToken: TOK.WETH, amount: '30' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    await a.trade({ fromToken: TOK.WETH, toToken: TOK.ETH_USDC.toUpperCase().replace('0X', '0x'), amount: '0.005' });
    const rows = await a.balances();
    const usdc = rows.find((r) => r.tokenAddress === TOK.ETH_USDC)!;
    expect(usdc).to.include({ amount: 985, symbol: 'USDC', specificChain: 'eth' }); // stored symbol was "usdc" (as the admin wrote it)
    expect(rows.filter((r) => r.tokenAddress.toLowerCase() === TOK.ETH_USDC.toLowerCase())).to.have.length(1);
  });
});

describe('POST /api/trade/execute: trading constraints (to-token only)', () => {
  let a: Arena;
  afterEach(() => a.s.close());
  const buy = (toToken: string, fromToken: string = TOK.ETH_USDC) => a.trade({ fromToken, toToken, amount: '10' });

  it('refuses tokens below each default minimum with upstream\'s messages', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow' });
    const res = await buy(TOK.SHIB);
    expectError(res, 400, 'Token has insufficient 24h volume ($20,000, minimum: $100,000)');
    expect(res.body.details).to.deep.equal({
      rule: 'tradingConstraint', constraint: 'minimum24hVolumeUsd', token: TOK.SHIB, specificChain: 'eth', minimum: 100000, value: 20000,
    });
    expectError(await buy(TOK.BRETT), 400, 'Token has insufficient liquidity ($40,000, minimum: $100,000)');
    expectError(await buy(TOK.BONK), 400, 'Token has insufficient FDV ($500,000, minimum: $1,000,000)');
    expectError(await buy(TOK.DEGEN), 400, 'Token pair is too young (24.00 hours old, minimum: 168 hours)');
    expectError(await buy(TOK.WIF), 400, 'Cannot get token pair creation time, minimum age is: 168 hours');
    expect((await buy(TOK.UNI)).status).to.equal(200);
  });

  it('skips a constraint whose threshold is 0 and checks the rest in order', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow', tradingConstraints: { minimumPairAgeHours: 0, minimumFdvUsd: 0 } });
    expect((await buy(TOK.BONK)).status).to.equal(200);
    expect((await buy(TOK.DEGEN)).status).to.equal(200);
    expectError(await buy(TOK.WIF), 400, 'Cannot get token 24h volume data');
  });

  it('exempts the chain\'s USDC/USDT (any case) and the table\'s tokens as written (case-sensitive)', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow', tradingConstraints: { minimum24hVolumeUsd: 1e15 } });
    const msg = 'Token has insufficient 24h volume ($500,000,000, minimum: $1,000,000,000,000,000)';
    expect((await buy(TOK.WETH)).status).to.equal(200);
    expectError(await buy(TOK.WETH.toLowerCase()), 400, msg);
    expect((await buy(TOK.SVM_USDT)).status).to.equal(200);
    expect((await buy(TOK.BASE_USDC.toLowerCase(), TOK.ETH_USDC)).status).to.equal(200);
  });

  it('applies constraints to the to-token only (selling a failing token is fine)', async () => {
    a = await startArena({ ...MULTI, tradingType: 'allow', tradingConstraints: { minimumFdvUsd: 0 } });
    expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.BONK, amount: '10' })).status).to.equal(200);
    const s = await a.s.call('PUT', `/api/admin/competition/${a.competitionId}`, { key: '0123456789abcdef_fedcba9876543210', body: { tradingConstraints: { minimumFdvUsd: 1000000 } } });
    expect(s.status).to.equal(200);
    expect((await a.trade({ fromToken: TOK.BONK, toToken: TOK.SVM_USDC, amount: '100' })).status).to.equal(200);
  });
});

describe('POST /api/trade/execute: maximum trade size', () => {
  let a: Arena;
  afterEach(() => a.s.close());

  it('allows a trade of exactly maxTradePercentage of the live portfolio value and refuses one cent more', async () => {
    a = await startArena({ ...usdcOnly(1000), paperTradingConfig: { maxTradePercentage: 25 } }, 2);
    expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '250' })).status).to.equal(200);
    const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '250.01' }, 1);
    expectError(res, 400, 'Trade exceeds maximum size (25% of portfolio value)');
    expect(res.body.details).to.deep.equal({
      rule: 'maxTradeSize', tradeAmountUsd: 250.01, portfolioValue: 1000, maxTradePercentage: 25, maxTradeValueUsd: 250,
    });
  });

  it('values the portfolio live at current prices (a price rise allows a bigger trade)', async () => {
    a = await startArena({ ...usdcOnly(1000, [{ specificChain: 'svm', tokenSymbol: 'sol', amount: 1 }]), paperTradingConfig: { maxTradePercentage: 10 } });
    expectError(await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '200' }), 400, 'Trade exceeds maximum size (10% of portfolio value)');
    a.s.world.deps.prices.overrides.set({ address: TOK.SOL, specificChain: 'svm', price: 1000 }); // 1000 + 1000 -> max 200
    expect((await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '200' })).status).to.equal(200);
  });
});

describe('POST /api/trade/execute: burns', () => {
  let a: Arena;
  afterEach(() => a.s.close());

  it('burns to the Solana incinerator: nothing received, no balance row, full USD value, constraints skipped', async () => {
    a = await startArena({ ...usdcOnly(1000), tradingConstraints: { minimum24hVolumeUsd: 1e15 } }, 1, { slippage: 'upstream' });
    const res = await a.trade({ fromToken: TOK.SVM_USDC, toToken: '1NC1NERATOR11111111111111111111111111111111', amount: '100' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.transaction).to.include({ toAmount: 0, price: 0, tradeAmountUsd: 100, toTokenSymbol: 'BURN', toSpecificChain: 'svm' });
    expect((await a.balances()).map((r) => r.tokenAddress)).to.deep.equal([TOK.SVM_USDC]);
  });

  it('burns to the EVM dead address on the first chain tried (eth), and cross-chain rules still apply', async () => {
    a = await startArena(MULTI);
    const res = await a.trade({ fromToken: TOK.ETH_USDC, toToken: TOK.EVM_BURN.toLowerCase(), amount: '5' });
    expect(res.status).to.equal(200);
    expect(res.body.transaction).to.include({ toSpecificChain: 'eth', toTokenSymbol: 'BURN', toAmount: 0 });
    expectError(await a.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.EVM_BURN, amount: '5' }), 400,
      'Cross-chain trading is disabled. Both tokens must be on the same blockchain.');
  });
});

describe('POST /api/trade/execute: slippage modes', () => {
  let a: Arena | undefined;
  afterEach(async () => { await a?.s.close(); a = undefined; });

  it('expected: applies the mean multiplier exactly', async () => {
    a = await startArena(usdcOnly(100000), 1, { slippage: 'expected' });
    const res = await a!.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount: '10000' });
    const s = Math.min(0.15, Math.max(0.0005, 0.035 * Math.log10(1 + 10000 / 5000) * (0.95 + 0.25 * (2 / 3))));
    expect(res.body.transaction.toAmount).to.equal((10000 * (1 - s)) / 150);
    expect(res.body.transaction.tradeAmountUsd).to.equal(10000);
  });

  it('upstream: draws within the curve\'s bounds and replays identically from the same seed', async () => {
    const run = async () => {
      const arena = await startArena(usdcOnly(100000), 1, { slippage: 'upstream', seed: 99 });
      const out = [];
      for (const amount of ['100', '1000', '5000', '10000']) out.push((await arena.trade({ fromToken: TOK.SVM_USDC, toToken: TOK.SOL, amount })).body.transaction);
      await arena.s.close();
      return out;
    };
    const first = await run();
    for (const t of first) {
      const slip = 1 - (t.toAmount * 150) / t.tradeAmountUsd;
      expect(slip).to.be.at.least(slippageForBias(t.tradeAmountUsd, 0) - 1e-12);
      expect(slip).to.be.at.most(slippageForBias(t.tradeAmountUsd, 1) + 1e-12);
      expect(slip).to.be.at.least(baseSlippage(t.tradeAmountUsd) * 0.95 - 1e-12);
    }
    expect(await run()).to.deep.equal(first);
  });
});
