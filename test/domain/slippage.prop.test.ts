// Slippage: upstream's curve (reference §1.3 table) and properties of the seeded max-of-two-uniforms draw.
import { expect } from 'chai';
import fc from 'fast-check';
import { SeededIds } from '../../src/adapters/ids/seeded-ids.js';
import { baseSlippage, EXPECTED_BIAS, slippageForBias, slippageFraction } from '../../src/domain/trading/slippage.js';

describe('slippage curve', () => {
  it('matches the reference table of base slippage and ranges (percent, 3 significant digits)', () => {
    // [usd, base %, low %, high %] from reference §1.3
    const table: [number, number, number, number][] = [
      [100, 0.05, 0.05, 0.06], [1000, 0.277, 0.263, 0.333], [5000, 1.054, 1.001, 1.264], [10000, 1.67, 1.586, 2.004],
      [50000, 3.645, 3.463, 4.374], [100000, 4.628, 4.396, 5.553], [1e6, 8.06, 7.66, 9.67],
    ];
    const near = (x: number, y: number) => Math.abs(x - y) <= Math.max(0.0015, y * 0.002);
    for (const [usd, base, lo, hi] of table) {
      expect(near(baseSlippage(usd) * 100, base), `base ${usd}`).to.equal(true);
      expect(near(slippageForBias(usd, 0) * 100, lo), `low ${usd}: ${slippageForBias(usd, 0) * 100}`).to.equal(true);
      expect(near(slippageForBias(usd, 1) * 100, hi), `high ${usd}: ${slippageForBias(usd, 1) * 100}`).to.equal(true);
    }
  });

  it('has no slippage for a zero-value trade or in mode none, and refuses non-finite values', () => {
    expect(slippageFraction(0, 'upstream', () => 0.5)).to.equal(0);
    expect(slippageFraction(1e6, 'none', () => 0.5)).to.equal(0);
    expect(() => slippageFraction(Number.POSITIVE_INFINITY, 'upstream', () => 0.5)).to.throw(RangeError);
    expect(() => slippageFraction(-1, 'upstream', () => 0.5)).to.throw(RangeError);
  });

  it('uses the mean bias 2/3 in mode expected and draws nothing', () => {
    let draws = 0;
    expect(slippageFraction(10000, 'expected', () => (draws++, 0))).to.equal(slippageForBias(10000, EXPECTED_BIAS));
    expect(draws).to.equal(0);
  });
});

describe('slippage draws from the seeded RNG (property)', () => {
  it('always lies between the bias-0 and bias-1 bounds, inside [0.0005, 0.15]', () => {
    fc.assert(fc.property(fc.double({ min: 0.01, max: 1e9, noNaN: true }), fc.integer(), (usd, seed) => {
      const ids = new SeededIds(seed);
      const s = slippageFraction(usd, 'upstream', () => ids.random());
      return s >= slippageForBias(usd, 0) && s <= slippageForBias(usd, 1) && s >= 0.0005 && s <= 0.15;
    }), { seed: 42, numRuns: 2000 });
  });

  it('draws exactly two uniforms per trade and is reproducible from the seed', () => {
    fc.assert(fc.property(fc.integer(), fc.double({ min: 1, max: 1e7, noNaN: true }), (seed, usd) => {
      const a = new SeededIds(seed);
      const b = new SeededIds(seed);
      const sa = slippageFraction(usd, 'upstream', () => a.random());
      const u1 = b.random();
      const u2 = b.random();
      return sa === slippageForBias(usd, Math.max(u1, u2)) && a.random() === b.random();
    }), { seed: 7, numRuns: 500 });
  });

  it('skews towards the high end: the mean multiplier over many draws is close to 0.95 + 0.25 x 2/3', () => {
    const ids = new SeededIds('distribution');
    const usd = 20000; // base well inside the clamps, so the multiplier is exact
    let sum = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) sum += slippageFraction(usd, 'upstream', () => ids.random()) / baseSlippage(usd);
    expect(Math.abs(sum / n - (0.95 + 0.25 * EXPECTED_BIAS))).to.be.lessThan(0.002);
  });
});
