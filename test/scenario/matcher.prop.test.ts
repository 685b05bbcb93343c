// The runner's fast expectation check: `matches` agrees with `match`, the answer view with the JSON round trip, and shared interpolation with the copying one.
import { expect } from 'chai';
import fc from 'fast-check';
import { interpolate, interpolateShared } from '../../src/sim/scenario/interpolate.js';
import { match, matches } from '../../src/sim/scenario/matcher.js';
import { answerView, type TargetResponse } from '../../src/sim/scenario/targets.js';
import type { Json } from '../../src/sim/scenario/types.js';

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

function answer(sent: unknown): TargetResponse {
  const text = JSON.stringify(sent);
  return { status: 200, sent, body: text === undefined ? undefined : (JSON.parse(text) as Json) };
}

describe('scenario matcher: the fast check and the answer view', () => {
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

  it('views an answer that is plain JSON data as itself, without a copy', () => {
    const sent = { success: true, transaction: { id: 'x', amount: 1.5, tags: ['a', null], nested: { n: 0 } } };
    expect(answerView(answer(sent))).to.equal(sent);
    const withNullProto = Object.assign(Object.create(null) as object, { a: 1 });
    expect(answerView(answer(withNullProto))).to.equal(withNullProto);
  });

  it('falls back to the parsed body for anything its JSON text would change', () => {
    class Row {
      a = 1;
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const hole: unknown[] = [1];
    hole[2] = 3;
    let deep: unknown = 1;
    for (let i = 0; i < 400; i++) deep = { d: deep };
    const cases: unknown[] = [
      { a: undefined }, { a: Number.NaN }, { a: Infinity }, { a: -0 }, { a: new Date(0) }, { a: () => 1 }, { a: 1n === 1n ? Symbol('s') : 0 },
      { toJSON: () => 'x' }, new Row(), hole, JSON.parse('{"__proto__": 1}'), [undefined], deep,
    ];
    for (const sent of cases) {
      const res: TargetResponse = { status: 200, sent, body: { parsed: true } };
      expect(answerView(res), String(JSON.stringify(sent)).slice(0, 40)).to.deep.equal({ parsed: true });
    }
    expect(answerView({ status: 200, sent: cycle, body: { parsed: true } })).to.deep.equal({ parsed: true });
    expect(answerView({ status: 200, body: { only: 'body' } })).to.deep.equal({ only: 'body' });
    expect(answerView({ status: 200, sent: 'text', body: 'text' })).to.equal('text');
  });

  it('falls back while Object.prototype has an enumerable member', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 1;
    try {
      expect(answerView({ status: 200, sent: { a: 1 }, body: { parsed: true } })).to.deep.equal({ parsed: true });
    } finally {
      delete proto.polluted;
    }
    expect(answerView({ status: 200, sent: { a: 1 }, body: { parsed: true } })).to.deep.equal({ a: 1 });
  });

  it('gives every expectation the verdict it has on the parsed body', () => {
    const odd = fc.constantFrom<unknown>(undefined, Number.NaN, -0, Infinity, new Date(0), [1, undefined]);
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, odd, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keys, tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(fc.property(json, value, (e, sent) => {
      const res = answer(sent);
      expect(matches(e, answerView(res))).to.equal(matches(e, res.body));
    }), { numRuns: 3000, seed: SEED });
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
