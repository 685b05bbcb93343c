// The price source: `price()` is `quote()`'s price, and quotes follow the layering rule (override, tape, feed, then faults) whatever was looked up before.
import { expect } from 'chai';
import fc from 'fast-check';
import { Catalogue, key, readTokensFile, type CatalogueToken } from '../../src/adapters/prices/catalogue.js';
import { FaultTable } from '../../src/adapters/faults/fault-table.js';
import { buildFeed, interpolate, type FeedDef } from '../../src/adapters/prices/feeds.js';
import { FeedPriceSource } from '../../src/adapters/prices/price-source.js';
import type { FaultSpec } from '../../src/ports/faults.js';
import type { PriceOverride, SpecificChain, TokenMeta } from '../../src/ports/prices.js';

const cat = new Catalogue(readTokensFile());
const T0 = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;

/** A few tokens of every kind, on their own chain and on another. */
const TOKENS: [string, SpecificChain][] = [
  ['So11111111111111111111111111111111111111112', 'svm'],
  ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'svm'],
  ['1nc1nerator11111111111111111111111111111111', 'svm'],
  ['0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'eth'],
  ['0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'eth'],
  ['0x000000000000000000000000000000000000dEaD', 'eth'],
  ['0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed', 'base'],
  ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'base'],
  ['0x1111111111111111111111111111111111111111', 'polygon'],
  ['Unlisted1111111111111111111111111111111111', 'svm'],
];
const CHAINS: SpecificChain[] = ['svm', 'eth', 'base', 'polygon'];

/** An address with the case of each letter chosen by `flips` (EVM lookups ignore case, svm ones do not). */
const spell = (address: string, flips: readonly boolean[]) =>
  [...address].map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');

const token = fc.tuple(fc.constantFrom(...TOKENS), fc.constantFrom(...CHAINS), fc.boolean(), fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([[address, own], other, sameChain, flips, respell]) => ({ address: respell ? spell(address, flips) : address, chain: sameChain ? own : other }));
const instant = fc.integer({ min: -48, max: 96 }).map((h) => T0 + h * HOUR + 17);
const FEEDS: FeedDef[] = [
  { kind: 'constant' },
  { kind: 'randomWalk', stepMs: 600_000, volatility: 0.01 },
  { kind: 'tape', tapes: { [`svm:${TOKENS[0]![0]}`]: [[T0, 100], [T0 + 10 * HOUR, 200]] } },
];
const feed = fc.constantFrom(...FEEDS);
const override = fc.tuple(token, fc.double({ min: 0, max: 1e6, noNaN: true }), fc.option(fc.constantFrom('OVR', 'X'), { nil: undefined }))
  .map(([t, price, symbol]): PriceOverride => ({ address: t.address, specificChain: t.chain, price, ...(symbol ? { symbol } : {}) }));
const tape = fc.tuple(token, fc.array(fc.tuple(instant, fc.double({ min: 0, max: 1e4, noNaN: true })), { minLength: 1, maxLength: 4 }));
const fault = fc.tuple(token, fc.boolean(), fc.oneof(
  fc.constant({ kind: 'priceMissing' as const }),
  fc.constant({ kind: 'priceZero' as const }),
  instant.map((at) => ({ kind: 'priceStale' as const, at })),
  fc.constantFrom('pairAge', 'volume', 'liquidity', 'fdv', 'all').map((metric) => ({ kind: 'constraintFail' as const, metric })),
)).map(([t, onChain, f]): FaultSpec => ({ ...f, token: t.address, ...(onChain ? { specificChain: t.chain } : {}) }) as FaultSpec);

/** One world's price layers, and the lookups asked of it (twice each, in order). */
const setup = fc.record({
  feed,
  overrides: fc.array(override, { maxLength: 3 }),
  tapes: fc.array(tape, { maxLength: 2 }),
  faults: fc.array(fault, { maxLength: 4 }),
  asks: fc.array(fc.tuple(token, instant), { minLength: 1, maxLength: 12 }),
});

/** The layering rule written out: override, else tape, else the catalogue token's feed price; then each price fault in order. */
function expected(
  s: { feed: FeedDef; overrides: PriceOverride[]; tapes: [{ address: string; chain: SpecificChain }, [number, number][]][]; faults: FaultTable },
  address: string, chain: SpecificChain, at: number,
) {
  const tok: CatalogueToken | undefined = cat.find(address, chain);
  const base = (t: number): number | null => {
    const o = s.overrides.findLast((x) => key(x.address, x.specificChain) === key(address, chain));
    if (o) return o.price;
    const tp = s.tapes.findLast(([x]) => key(x.address, x.chain) === key(address, chain));
    if (tp) return interpolate([...tp[1]].sort((a, b) => a[0] - b[0]), t);
    if (!tok) return null;
    const p = buildFeed(s.feed, 9, T0)(tok, chain, t);
    return p === null || !Number.isFinite(p) ? null : p;
  };
  let price = base(at);
  for (const f of s.faults.priceFaults(address, chain)) {
    if (price === null || f.kind === 'priceMissing') return null;
    if (f.kind === 'priceZero') price = 0;
    if (f.kind === 'priceStale') price = base(f.at);
  }
  if (price === null) return null;
  const o = s.overrides.findLast((x) => key(x.address, x.specificChain) === key(address, chain));
  let meta: Pick<TokenMeta, 'pairCreatedAt' | 'volume24h' | 'liquidityUsd' | 'fdv'> | null = tok ? {
    pairCreatedAt: tok.pairAgeHours !== undefined ? at - tok.pairAgeHours * HOUR : tok.pairCreatedAt,
    volume24h: tok.volume24h, liquidityUsd: tok.liquidityUsd, fdv: tok.fdv,
  } : null;
  for (const f of s.faults.priceFaults(address, chain)) {
    if (f.kind !== 'constraintFail' || meta === null) continue;
    if (f.metric === 'pairAge') meta = { ...meta, pairCreatedAt: at };
    else if (f.metric === 'volume') meta = { ...meta, volume24h: 0 };
    else if (f.metric === 'liquidity') meta = { ...meta, liquidityUsd: 0 };
    else if (f.metric === 'fdv') meta = { ...meta, fdv: 0 };
    else meta = { pairCreatedAt: null, volume24h: null, liquidityUsd: null, fdv: null };
  }
  return { price, symbol: o?.symbol ?? tok?.symbol ?? 'UNKNOWN', meta };
}

describe('price source', () => {
  it('price() is quote()\'s price, and both follow the layering rule, asked once or again', () => {
    fc.assert(fc.property(setup, (s) => {
      const faults = new FaultTable();
      const source = new FeedPriceSource(cat, buildFeed(s.feed, 9, T0), faults);
      for (const o of s.overrides) source.overrides.set(o);
      for (const [t, points] of s.tapes) source.tapes.load({ [`${t.chain}:${t.address}`]: points });
      for (const f of s.faults) faults.add(f);
      const tapes = s.tapes.map(([t, points]) => [t, points] as [{ address: string; chain: SpecificChain }, [number, number][]]);
      for (const [t, at] of [...s.asks, ...s.asks]) {
        const want = expected({ feed: s.feed, overrides: s.overrides, tapes, faults }, t.address, t.chain, at);
        const q = source.quote(t.address, t.chain, at);
        expect(source.price(t.address, t.chain, at), `${t.chain}:${t.address}`).to.equal(q === null ? null : q.price);
        if (want === null) {
          expect(q).to.equal(null);
          continue;
        }
        expect(q).to.include({ price: want.price, symbol: want.symbol, specificChain: t.chain, at });
        const m = q!.meta;
        expect(m && { pairCreatedAt: m.pairCreatedAt, volume24h: m.volume24h, liquidityUsd: m.liquidityUsd, fdv: m.fdv }).to.deep.equal(want.meta);
      }
    }), { seed: 20261124, numRuns: 400 });
  });

  it('answers from a changed table after overrides and tapes change, not from what it looked up before', () => {
    const source = new FeedPriceSource(cat, buildFeed({ kind: 'constant' }, 1, T0));
    const [sol] = TOKENS[0]!;
    const weth = TOKENS[3]![0];
    source.overrides.set({ address: weth, specificChain: 'eth', price: 1 });
    expect(source.price(weth.toLowerCase(), 'eth', T0)).to.equal(1);
    expect(source.price(sol, 'svm', T0)).to.equal(150);
    source.overrides.set({ address: sol, specificChain: 'svm', price: 2 });
    expect(source.price(sol, 'svm', T0)).to.equal(2);
    source.overrides.clear(weth.toUpperCase().replace('0X', '0x'));
    expect(source.price(weth.toLowerCase(), 'eth', T0)).to.equal(3000);
    // With a tape loaded, asking for WETH remembers that it has none; loading its tape must not find that answer.
    source.tapes.load({ [`svm:${sol}`]: [[T0, 5]] });
    expect(source.price(weth, 'eth', T0)).to.equal(3000);
    source.tapes.load({ [`eth:${weth.toLowerCase()}`]: [[T0, 7]] });
    expect(source.price(weth, 'eth', T0)).to.equal(7);
    const saved = source.tapes.capture();
    source.tapes.clear();
    expect(source.price(weth, 'eth', T0)).to.equal(3000);
    source.tapes.apply(saved);
    expect(source.price(weth, 'eth', T0)).to.equal(7);
    source.overrides.apply([]);
    expect(source.price(sol, 'svm', T0)).to.equal(5);
  });
});
