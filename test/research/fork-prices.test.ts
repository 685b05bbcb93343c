// compsim fork's price tape: exact fill prices, the pivoted least-squares solve, prices recovered from portfolio values.
import { expect } from 'chai';
import { derivePrices, fromPrice, pivotedSolve, toPrice, type SourceTrade, type TokenFacts } from '../../src/research/fork-prices.js';

const T0 = Date.UTC(2025, 5, 2, 12);
const MIN = 60_000;

/** A small catalogue: two volatile tokens and two stablecoins on one chain. */
const CATALOGUE: Record<string, TokenFacts> = {
  SOL: { key: 'svm:SOL', defaultPrice: 150, kind: 'wrapped' },
  JUP: { key: 'svm:JUP', defaultPrice: 0.8, kind: 'token' },
  USDC: { key: 'svm:USDC', defaultPrice: 1, kind: 'stable' },
  USDT: { key: 'svm:USDT', defaultPrice: 1, kind: 'stable' },
};
const token = (address: string, chain: string) => (chain === 'svm' ? CATALOGUE[address] : undefined);

function trade(i: number, agentId: string, at: number, from: string, to: string, fromAmount: number, fromUsd: number, toUsd: number): SourceTrade {
  const usd = fromAmount * fromUsd;
  return { id: `t${i}`, agentId, timestamp: at, fromToken: from, toToken: to, fromAmount, toAmount: usd / toUsd, tradeAmountUsd: usd, fromSpecificChain: 'svm', toSpecificChain: 'svm' };
}

describe('compsim fork: prices', () => {
  it('takes fill prices that give back the recorded amounts exactly', () => {
    // Fills as the server computes them (usd = amount × price, toAmount = usd / toPrice) over a spread of amounts and prices.
    for (let i = 1; i <= 500; i++) {
      const fromAmount = (i * 7919) / 1000 + 1 / i;
      const price = 0.01 + ((i * 104729) % 100_000) / 37;
      const toUsd = 0.5 + ((i * 1299709) % 300_000) / 91;
      const usd = fromAmount * price;
      const toAmount = usd / toUsd;
      const t: SourceTrade = { id: 'x', agentId: 'a', timestamp: T0, fromToken: 'SOL', toToken: 'USDC', fromAmount, toAmount, tradeAmountUsd: usd, fromSpecificChain: 'svm', toSpecificChain: 'svm' };
      expect(fromAmount * fromPrice(t), `from ${i}`).to.equal(usd);
      expect(usd / toPrice(t), `to ${i}`).to.equal(toAmount);
    }
  });

  it('solves a determined system exactly and leaves dependent columns at zero, lower priority last', () => {
    const { x, determined } = pivotedSolve([[1, 2], [3, 4], [5, 6]], [5, 11, 17], [1, 1]);
    expect(determined).to.deep.equal([true, true]);
    expect(x[0]).to.be.closeTo(1, 1e-12);
    expect(x[1]).to.be.closeTo(2, 1e-12);
    // Columns 0 and 1 are the same: the higher priority one takes it all, whatever the norms.
    const dep = pivotedSolve([[1, 5], [1, 5]], [10, 10], [0, 1]);
    expect(dep.determined).to.deep.equal([false, true]);
    expect(dep.x[0]).to.equal(0);
    expect(dep.x[1]).to.be.closeTo(2, 1e-12);
    const none = pivotedSolve([[0, 0]], [0], [1, 1]);
    expect(none).to.deep.equal({ x: [0, 0], determined: [false, false] });
  });

  it('recovers every held price from portfolio values when the holdings tell them apart', () => {
    // Three agents, start 1000 USDC + 10 SOL; they trade into different mixes, then the market moves.
    const start = [{ address: 'USDC', chain: 'svm', amount: 1000 }, { address: 'SOL', chain: 'svm', amount: 10 }];
    const trades = [
      trade(0, 'a', T0 + MIN, 'USDC', 'SOL', 600, 1, 150),
      trade(1, 'b', T0 + 2 * MIN, 'USDC', 'JUP', 400, 1, 0.8),
      trade(2, 'c', T0 + 3 * MIN, 'SOL', 'JUP', 4, 150, 0.8),
    ];
    const truth = (t: number) => ({ SOL: 150 + (t - T0) / MIN, JUP: 0.8 * (1 + (t - T0) / (100 * MIN)), USDC: 1 });
    const holdings = { a: { USDC: 400, SOL: 14, JUP: 0 }, b: { USDC: 600, SOL: 10, JUP: 500 }, c: { USDC: 1000, SOL: 6, JUP: 750 } };
    const T = T0 + 5 * MIN;
    const p = truth(T);
    const value = (h: { USDC: number; SOL: number; JUP: number }) => h.USDC * p.USDC + h.SOL * p.SOL + h.JUP * p.JUP;
    const snapshots = new Map([
      [T0, new Map([['a', 2500], ['b', 2500], ['c', 2500]])],
      [T, new Map(Object.entries(holdings).map(([id, h]) => [id, value(h)]))],
    ]);
    const d = derivePrices({ trades, startRows: start, agents: ['a', 'b', 'c'], snapshots, token });
    const at = (k: string, t: number) => d.tapes[k]!.find((x) => x[0] === t)![1];
    expect(at('svm:SOL', T)).to.be.closeTo(p.SOL, 1e-9);
    expect(at('svm:JUP', T)).to.be.closeTo(p.JUP, 1e-12);
    expect(at('svm:USDC', T)).to.be.closeTo(1, 1e-12);
    // The trades' own prices are on the tape at their instants.
    expect(at('svm:SOL', T0 + MIN)).to.equal(150);
    expect(at('svm:JUP', T0 + 2 * MIN)).to.equal(0.8);
    expect(d.stats.maxRelativeResidual).to.be.below(1e-14);
    expect(d.stats.tradePoints).to.equal(6);
    expect(d.times).to.deep.equal(trades.map((t) => t.timestamp));
    expect(d.unknownTokens).to.deep.equal([]);
  });

  it('puts a drift the values cannot place on the volatile token, not on a stablecoin', () => {
    // Every agent holds the same SOL and USDT and nothing else moves: only the total is known.
    const start = [{ address: 'USDT', chain: 'svm', amount: 5000 }, { address: 'SOL', chain: 'svm', amount: 1 }];
    const T = T0 + 5 * MIN;
    const snapshots = new Map([[T0, new Map([['a', 5150], ['b', 5150]])], [T, new Map([['a', 5160], ['b', 5160]])]]);
    const d = derivePrices({ trades: [], startRows: start, agents: ['a', 'b'], snapshots, token });
    expect(d.tapes['svm:SOL']).to.deep.equal([[T0, 150], [T, 160]]);
    expect(d.tapes['svm:USDT']).to.deep.equal([[T0, 1], [T, 1]]);
    expect(d.stats.undetermined).to.equal(2);
    expect(d.undeterminedTokens).to.deep.equal({ 'svm:USDT': 2 });
  });

  it('moves a trade whose price clashes with another of its instant, keeping the order; lists unknown tokens', () => {
    const trades = [
      trade(0, 'a', T0 + MIN, 'USDC', 'SOL', 100, 1, 150),
      trade(1, 'b', T0 + MIN, 'USDC', 'SOL', 100, 1, 151),
      trade(2, 'a', T0 + MIN, 'USDC', 'SOL', 100, 1, 150),
      trade(3, 'b', T0 + MIN + 1, 'USDC', 'JUP', 10, 1, 0.8),
      { ...trade(4, 'b', T0 + 2 * MIN, 'USDC', 'JUP', 10, 1, 0.8), toToken: 'NOPE' },
    ];
    const d = derivePrices({ trades, startRows: [{ address: 'USDC', chain: 'svm', amount: 1000 }], agents: ['a', 'b'], snapshots: new Map(), token });
    // Trade 1 (151) clashes with trade 0 (150); trade 2 may not run before trade 1 and clashes there
    // too; trade 3 keeps its place after trade 2.
    expect(d.times).to.deep.equal([T0 + MIN, T0 + MIN + 1, T0 + MIN + 2, T0 + MIN + 2, T0 + 2 * MIN]);
    expect(d.stats.movedTrades).to.equal(3);
    expect(d.tapes['svm:SOL']).to.deep.equal([[T0 + MIN, 150], [T0 + MIN + 1, 151], [T0 + MIN + 2, 150]]);
    expect(d.unknownTokens).to.deep.equal(['svm:NOPE']);
  });
});
