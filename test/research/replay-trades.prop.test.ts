// Recorded trades from CSV: the same trades as the JSON form of the same rows, in time order, ties in file order.
import { expect } from 'chai';
import fc from 'fast-check';
import { parseTrades, ReplayInputError, type ReplayTrade } from '../../src/research/replay-input.js';

const T0 = Date.UTC(2025, 5, 2, 12);

/** The outcome of parsing: the trades, or the error's message without its location (file and line or index differ by form). */
function outcome(parse: () => ReplayTrade[]): ReplayTrade[] | string {
  try {
    return parse();
  } catch (err) {
    expect(err).to.be.instanceOf(ReplayInputError);
    return (err as Error).message.replace(/^t\.(csv:\d+|json: trades\[\d+\])/, '<at>');
  }
}

describe('recorded trades from CSV', () => {
  it('match the JSON form of the same rows, for any header (unknown, repeated and __proto__ names included)', () => {
    const name = fc.constantFrom('timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason', 'fromChain', 'toSpecificChain', 'venue', '__proto__');
    const base = ['timestamp', 'agent', 'fromToken', 'toToken', 'amount'];
    const header = fc.oneof(fc.constant(base), fc.array(name, { minLength: 1, maxLength: 3 }).map((extra) => [...base, ...extra]), fc.array(name, { minLength: 1, maxLength: 7 }));
    const cell = fc.oneof(fc.constantFrom('a', 'b', 'x', 'y', '1', '2.5', ''), fc.integer({ min: 0, max: 5 }).map((m) => String(T0 + m * 60_000)));
    const doc = header.chain((h) => fc.tuple(fc.constant(h), fc.array(fc.array(cell, { minLength: h.length, maxLength: h.length }).filter((r) => r.join(',') !== ''), { minLength: 1, maxLength: 8 })));
    // (A CSV line that is empty is skipped, so no row is all empty cells.)
    fc.assert(fc.property(doc, ([h, rows]) => {
      const csv = [h.join(','), ...rows.map((r) => r.join(','))].join('\n');
      // As JSON.parse would make each row: every name an own member, the last of a repeated one winning.
      const json = JSON.stringify(rows.map((r) => Object.fromEntries(h.map((k, i) => [k, r[i]]))));
      const fromCsv = outcome(() => parseTrades(csv, 't.csv'));
      expect(fromCsv).to.deep.equal(outcome(() => parseTrades(json, 't.json')));
      if (typeof fromCsv === 'string') return;
      // Time order, ties in file order: each row parsed on its own, then sorted stably by time.
      const one = rows.map((r, i) => ({ t: parseTrades(`${h.join(',')}\n${r.join(',')}`, 't.csv')[0]!, i }));
      expect(fromCsv).to.deep.equal(one.sort((a, b) => a.t.timestamp - b.t.timestamp || a.i - b.i).map((x) => x.t));
    }), { seed: 20261123, numRuns: 1500 });
  });
});
