// Price feeds: constants, tape interpolation, seeded random walk determinism, overrides, catalogue contents.
import { expect } from 'chai';
import { Catalogue, readTokensFile } from '../../src/adapters/prices/catalogue.js';
import { buildFeed, interpolate, WALKS_KEPT } from '../../src/adapters/prices/feeds.js';
import { CHECKPOINT_STEPS, MAX_WALK_STEPS, stepNormal, WalkState } from '../../src/adapters/prices/random-walk.js';
import { FeedPriceSource } from '../../src/adapters/prices/price-source.js';
import { SPECIFIC_CHAINS } from '../../src/ports/prices.js';
import { valuationPrice } from '../../src/domain/trading/prices.js';
import { isTableStablecoin } from '../../src/domain/trading/token-table.js';

const cat = new Catalogue(readTokensFile());
const T0 = Date.UTC(2025, 0, 1);
const SOL = 'So11111111111111111111111111111111111111112';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const source = (def: Parameters<typeof buildFeed>[0], seed: number | string = 1) => new FeedPriceSource(cat, buildFeed(def, seed, T0));

describe('token catalogue (fixtures/tokens.json)', () => {
  it('covers all 12 chains with a wrapped native token and USDC, and USDT where it exists', () => {
    for (const chain of SPECIFIC_CHAINS) {
      const toks = cat.tokens(chain);
      expect(toks.some((t) => t.kind === 'wrapped'), chain).to.equal(true);
      expect(cat.bySymbol(chain, 'USDC'), chain).to.not.equal(undefined);
      expect(cat.bySymbol(chain, 'USDT'), chain).to.not.equal(undefined);
    }
    expect(cat.bySymbol('base', 'USDC')!.address).to.equal('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
  });

  it('lists both burn addresses at price 0 with symbol BURN', () => {
    const s = source({ kind: 'constant' });
    expect(s.quote('0x000000000000000000000000000000000000dEaD', 'eth', T0)).to.include({ price: 0, symbol: 'BURN' });
    expect(s.quote('1nc1nerator11111111111111111111111111111111', 'svm', T0)).to.include({ price: 0, symbol: 'BURN' });
  });

  it('resolves a relative pair age against the quoted instant (an always-young token)', () => {
    const s = source({ kind: 'constant' });
    const q = s.quote('0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed', 'base', T0 + 1e9)!;
    expect(q.meta!.pairCreatedAt).to.equal(T0 + 1e9 - 24 * 3_600_000);
  });
});

describe('price feeds', () => {
  it('constant: prices come from the catalogue, case-insensitively, per chain', () => {
    const s = source({ kind: 'constant' });
    expect(s.quote(WETH.toLowerCase(), 'eth', T0)!.price).to.equal(3000);
    expect(s.quote(WETH, 'polygon', T0)).to.equal(null);
    expect(s.quote('0xnothing', 'eth', T0)).to.equal(null);
  });

  it('tape: interpolates linearly and clamps at the ends', () => {
    expect(interpolate([[0, 10], [100, 20]], 25)).to.equal(12.5);
    expect(interpolate([[0, 10], [100, 20]], -5)).to.equal(10);
    expect(interpolate([[0, 10], [100, 20]], 500)).to.equal(20);
    const s = source({ kind: 'tape', tapes: { [`svm:${SOL}`]: [[T0, 100], [T0 + 60_000, 160]] } });
    expect(s.quote(SOL, 'svm', T0 + 30_000)!.price).to.equal(130);
    expect(s.quote(WETH, 'eth', T0)!.price).to.equal(3000);
  });

  it('random walk: same seed, token and time give the same price, in any call order', () => {
    const a = source({ kind: 'randomWalk' }, 42);
    const b = source({ kind: 'randomWalk' }, 42);
    const times = [T0 + 3_600_000, T0 - 7_200_000, T0 + 90_000, T0];
    const pa = times.map((t) => a.quote(SOL, 'svm', t)!.price);
    const pb = [...times].reverse().map((t) => b.quote(SOL, 'svm', t)!.price).reverse();
    expect(pa).to.deep.equal(pb);
    expect(pa[3]).to.equal(150);
    expect(pa[0]).to.not.equal(150);
    const c = source({ kind: 'randomWalk' }, 43);
    expect(c.quote(SOL, 'svm', T0 + 3_600_000)!.price).to.not.equal(pa[0]);
  });

  it('random walk: the same prices as ever for a seed (the walk is part of every seeded run)', () => {
    const s = source({ kind: 'randomWalk' }, 42);
    const times = [T0 - 7_200_000, T0 + 90_000, T0 + 86_400_000 * 3 + 12_345];
    const prices = [[SOL, 'svm'], [WETH, 'eth'], [WETH.toLowerCase(), 'eth']].flatMap(([a, c]) => times.map((t) => s.price(a!, c as 'svm' | 'eth', t)));
    expect(prices).to.deep.equal([
      146.16196956907908, 150.2410868849084, 152.2147594379135,
      2886.9058466330234, 3009.7386069940057, 3452.9165689656797,
      2886.9058466330234, 3009.7386069940057, 3452.9165689656797,
    ]);
  });

  it('random walk: keeps stablecoins at 1 and is continuous between steps', () => {
    const s = source({ kind: 'randomWalk', stepMs: 60_000, volatility: 0.01 });
    expect(s.quote('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'eth', T0 + 1e7)!.price).to.equal(1);
    const p1 = s.quote(SOL, 'svm', T0 + 59_999)!.price;
    const p2 = s.quote(SOL, 'svm', T0 + 60_000)!.price;
    expect(Math.abs(p1 - p2) / p2).to.be.below(1e-3);
  });

  it('random walk: the sum at each step is the running sum of the step draws, reached in any order', () => {
    // The walk's definition, written out: one draw per step added in step order, from the origin outwards.
    const fwd = [0];
    const back = [0];
    for (let n = 1; n <= 3 * CHECKPOINT_STEPS + 5; n++) {
      fwd.push(fwd[n - 1]! + 1 * 0.003 * stepNormal(12345, n - 1));
      back.push(back[n - 1]! + -1 * 0.003 * stepNormal(12345, -n));
    }
    const steps = [0, 1, CHECKPOINT_STEPS - 1, CHECKPOINT_STEPS, CHECKPOINT_STEPS + 1, 2 * CHECKPOINT_STEPS, 3 * CHECKPOINT_STEPS + 5, -1, -CHECKPOINT_STEPS, -(CHECKPOINT_STEPS + 1), -(3 * CHECKPOINT_STEPS + 5)];
    for (const order of [steps, [...steps].reverse(), [...steps].sort((a, b) => Math.abs(b) - Math.abs(a))]) {
      const w = new WalkState(12345, 0.003);
      for (const k of order) expect(w.at(k), `step ${k}`).to.equal(k >= 0 ? fwd[k] : back[-k]);
    }
  });

  it('random walk: a price at the walk limit holds a bounded number of values per token', () => {
    const w = new WalkState(7, 0.002);
    w.at(MAX_WALK_STEPS);
    w.at(-MAX_WALK_STEPS);
    w.at(MAX_WALK_STEPS + 1);
    // Checkpoints every CHECKPOINT_STEPS steps both ways and one block: a few hundred KB at most, never a value per step.
    expect(w.held()).to.be.at.most(2 * (Math.ceil((MAX_WALK_STEPS + 1) / CHECKPOINT_STEPS) + 1) + CHECKPOINT_STEPS);
  });

  it('random walk: gives the same prices after its cache of walks was full and dropped the first one', () => {
    const feed = buildFeed({ kind: 'randomWalk', volatility: 0.01 }, 5, T0);
    const token = (i: number) => ({
      address: `0x${i.toString(16).padStart(40, '0')}`, symbol: `T${i}`, decimals: 18, specificChain: 'eth' as const, kind: 'token' as const, defaultPrice: 10,
    });
    const at = T0 + 3 * 86_400_000;
    const first = feed(token(1), 'eth', at);
    for (let i = 2; i <= WALKS_KEPT + 10; i++) feed(token(i), 'eth', at);
    expect(feed(token(1), 'eth', at)).to.equal(first);
    expect(first).to.not.equal(10);
  });

  it('overrides win over the feed and can be cleared; capture/apply round-trips them', () => {
    const s = source({ kind: 'constant' });
    s.overrides.set({ address: SOL, specificChain: 'svm', price: 999 });
    expect(s.quote(SOL, 'svm', T0)!.price).to.equal(999);
    const saved = s.overrides.capture();
    s.overrides.clear(SOL);
    expect(s.quote(SOL, 'svm', T0)!.price).to.equal(150);
    s.overrides.apply(saved);
    expect(s.quote(SOL, 'svm', T0)!.price).to.equal(999);
  });
});

describe('valuation prices', () => {
  const s = source({ kind: 'constant' });
  const ZERO = '0x0000000000000000000000000000000000000000';

  it('value the zero address, in any case of its x, as the chain\'s wrapped native token, and nothing near it', () => {
    expect(valuationPrice(s, ZERO, 'eth', T0)).to.equal(3000);
    expect(valuationPrice(s, `0X${ZERO.slice(2)}`, 'eth', T0)).to.equal(3000);
    expect(valuationPrice(s, ZERO, 'polygon', T0)).to.equal(s.price(s.catalogue().tokens('polygon').find((t) => t.kind === 'wrapped')!.address, 'polygon', T0));
    expect(valuationPrice(s, `${ZERO.slice(0, 41)}1`, 'eth', T0)).to.equal(null);
    expect(valuationPrice(s, `1x${ZERO.slice(2)}`, 'eth', T0)).to.equal(null);
    expect(valuationPrice(s, `${ZERO}0`, 'eth', T0)).to.equal(null);
    expect(valuationPrice(s, WETH, 'eth', T0)).to.equal(3000);
  });

  it('exempt the table\'s usdc and usdt of the resolved chain, in any case, and nothing else', () => {
    const usdc = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
    expect(isTableStablecoin(usdc, 'eth')).to.equal(true);
    expect(isTableStablecoin(usdc.toLowerCase(), 'eth')).to.equal(true);
    expect(isTableStablecoin(usdc.toUpperCase().replace('0X', '0x'), 'eth')).to.equal(true);
    expect(isTableStablecoin(usdc, 'base')).to.equal(false);
    expect(isTableStablecoin(`${usdc}0`, 'eth')).to.equal(false);
    expect(isTableStablecoin(WETH, 'eth')).to.equal(false);
    expect(isTableStablecoin('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'svm')).to.equal(true);
    expect(isTableStablecoin('epjfwdd5aufqssqem2qn1xzybapc8g4wegGkZwyTDt1v', 'svm')).to.equal(true);
    expect(isTableStablecoin(SOL, 'svm')).to.equal(false);
    for (const chain of ['constructor', '__proto__', 'toString', 'nowhere']) expect(isTableStablecoin(usdc, chain), chain).to.equal(false);
  });
});
