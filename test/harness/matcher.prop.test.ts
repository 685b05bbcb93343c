// The runner's fast expectation check: `matches` agrees with `match`, and shared interpolation with the copying one.
import { expect } from 'chai';
import fc from 'fast-check';
import { interpolate, interpolateShared } from '../../src/harness/interpolate.js';
import { match, matches } from '../../src/harness/matcher.js';
import type { Json } from '../../src/harness/types.js';

const SEED = 20261123;
const keys = fc.constantFrom('a', 'b', 'id', 'agent', 'odd key', '$type', '$approx', '$any', '$absent', '$len', '$gt', '$lte', '$regex', '$tol');
const scalar = fc.oneof(fc.constantFrom(0, 1, 2, 0.5, -3, 1e-7, 'x', 'y', '', 'number', 'string', 'integer', 'array', 'object', '^x', true, false, null),
  fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 3 }));
/** JSON values (as parsed: ordinary objects) whose objects often spell matcher operators, so both kinds of expectation come up. */
const json = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keys, tie('node'), { maxKeys: 3, noNullPrototype: true })),
})).node as fc.Arbitrary<Json>;

/** An actual value built from the expected one now and then, so that deep matches are common. */
const pair = fc.tuple(json, json, fc.boolean()).map(([e, other, same]) => [e, same ? structuredClone(e) : other] as const);

describe('scenario matcher: the fast check', () => {
  it('matches() holds exactly when match() finds no mismatch', () => {
    let held = 0;
    fc.assert(fc.property(pair, ([e, a]) => {
      const ok = matches(e, a);
      expect(ok, `${JSON.stringify(e)} vs ${JSON.stringify(a)}`).to.equal(match(e, a).length === 0);
      if (ok) held += 1;
    }), { numRuns: 4000, seed: SEED });
    // Both verdicts came up often enough to mean something.
    expect(held).to.be.greaterThan(800).and.lessThan(3600);
  });

  it('reads a member only when JSON would hold it (own and enumerable)', () => {
    const actual = Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false });
    expect(matches({ hidden: 2 }, actual)).to.equal(false);
    expect(match({ hidden: { $absent: true } }, actual)).to.deep.equal([]);
    expect(matches({ hidden: { $absent: true } }, actual)).to.equal(true);
  });

  it('interpolates shared values as the copying interpolation does, sharing only what refers to nothing', () => {
    const vars = new Map<string, Json>([['cup', { id: 'c-1', n: 2 }]]);
    const withRefs = fc.constantFrom('${cup.id}', 'x ${cup.n} y', '$${literal}', 'plain');
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, withRefs, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keys, tie('node'), { maxKeys: 3, noNullPrototype: true })),
    })).node as fc.Arbitrary<Json>;
    fc.assert(fc.property(value, (v) => {
      const shared = interpolateShared(v, vars);
      expect(shared).to.deep.equal(interpolate(v, vars));
      const refers = JSON.stringify(v).includes('${');
      if (typeof v === 'object' && v !== null) expect(shared === v).to.equal(!refers);
    }), { numRuns: 2000, seed: SEED });
  });
});
