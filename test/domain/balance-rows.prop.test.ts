// A trade's balance write: changedBalance gives `{ ...row, ...changes }` (same fields, values and field order) for any row a store can hold.
import { expect } from 'chai';
import fc from 'fast-check';
import { changedBalance, type BalanceChange } from '../../src/domain/trading/trade.js';
import type { Balance } from '../../src/domain/model.js';

/** A row in the domain's own field order. */
const domainRow = fc.record({
  id: fc.nat(), agentId: fc.uuid(), competitionId: fc.uuid(), tokenAddress: fc.string(), amount: fc.double(), symbol: fc.string(),
  specificChain: fc.constantFrom('svm', 'eth', 'base'), createdAt: fc.nat(), updatedAt: fc.nat(),
}).map((r) => r as Balance);

/** A loaded document's row: the same fields shuffled, some missing, or extra ones. */
const oddRow = fc.tuple(domainRow, fc.array(fc.nat(), { minLength: 9, maxLength: 9 }), fc.boolean(), fc.boolean()).map(([row, order, drop, extra]) => {
  const entries = Object.entries(row).map((e, i) => [e, order[i]!] as const).sort((a, b) => a[1] - b[1]).map(([e]) => e);
  const out: Record<string, unknown> = Object.fromEntries(drop ? entries.filter(([k]) => k !== 'symbol') : entries);
  if (extra) out.note = 'kept';
  return out as unknown as Balance;
});

const change: fc.Arbitrary<BalanceChange> = fc.oneof(
  fc.record({ amount: fc.double(), updatedAt: fc.nat() }),
  fc.record({ amount: fc.double(), symbol: fc.string(), specificChain: fc.constantFrom('svm', 'eth'), updatedAt: fc.nat() }) as fc.Arbitrary<BalanceChange>,
);

describe('changedBalance', () => {
  it('equals Object.assign({}, row, changes), field order included, for domain-shaped and loaded rows', () => {
    fc.assert(fc.property(fc.oneof(domainRow, oddRow), change, fc.boolean(), (row, changes, frozen) => {
      const before = JSON.stringify(row);
      if (frozen) Object.freeze(row);
      const out = changedBalance(row, changes);
      const expected = Object.assign({}, row, changes);
      expect(Object.keys(out)).to.deep.equal(Object.keys(expected));
      expect(out).to.deep.equal(expected);
      expect(JSON.stringify(row), 'the row itself is untouched').to.equal(before);
    }), { seed: 20251125, numRuns: 300 });
  });
});
