// The subset matcher: plain values, each operator passing and failing with its message, and the readable body diff.
import { expect } from 'chai';
import { bodyDiff, lineDiff } from '../../src/harness/diff.js';
import { checkMatcher, match } from '../../src/harness/matcher.js';

/** Messages of a match (empty = match). */
const msgs = (expected: unknown, actual: unknown) => match(expected, actual).map((m) => `${m.path}: ${m.message}`);

describe('scenario matcher', () => {
  it('matches objects as subsets, arrays element-wise with equal length, scalars exactly', () => {
    expect(msgs({ a: 1 }, { a: 1, b: 2 })).to.deep.equal([]);
    expect(msgs({ a: { b: [1, { c: 'x' }] } }, { a: { b: [1, { c: 'x', d: 0 }] } })).to.deep.equal([]);
    expect(msgs({ a: 1 }, { a: 2 })).to.deep.equal(['body.a: expected 1, got 2']);
    expect(msgs({ a: 1 }, {})).to.deep.equal(['body.a: expected 1, got (absent)']);
    expect(msgs([1, 2], [1])).to.deep.equal(['body: expected 2 elements, got 1', 'body[1]: expected 2, got (absent)']);
    expect(msgs({ a: {} }, { a: [] })).to.deep.equal(['body.a: expected an object, got array []']);
    expect(msgs([], {})).to.deep.equal(['body: expected an array, got object {}']);
    expect(msgs(null, null)).to.deep.equal([]);
    expect(msgs('1', 1)).to.deep.equal(['body: expected "1", got 1']);
    expect(msgs({ 'odd key': 1 }, {})).to.deep.equal(['body["odd key"]: expected 1, got (absent)']);
  });

  it('$approx: within the default, absolute ($tol) or relative ($rel) tolerance', () => {
    expect(msgs({ $approx: 0.3 }, 0.1 + 0.2)).to.deep.equal([]);
    expect(msgs({ $approx: 100, $tol: 0.5 }, 100.4)).to.deep.equal([]);
    expect(msgs({ $approx: 100, $rel: 0.01 }, 100.9)).to.deep.equal([]);
    expect(msgs({ $approx: 100, $tol: 0.5 }, 101)).to.deep.equal(['body: expected 100 ±0.5, got 101 (off by 1)']);
    expect(msgs({ $approx: 100, $rel: 0.001 }, 101)).to.deep.equal(['body: expected 100 ±0.1%, got 101 (off by 1)']);
    expect(msgs({ $approx: 100 }, '100')).to.deep.equal(['body: expected a number near 100, got "100"']);
    expect(msgs({ $approx: 'x' }, 1)).to.deep.equal(['body: $approx operand is not a number: "x"']);
  });

  it('$absent: the key must not be there (a null value is still present)', () => {
    expect(msgs({ teamId: { $absent: true } }, { agentId: 'a' })).to.deep.equal([]);
    expect(msgs({ teamId: { $absent: true } }, { teamId: 't' })).to.deep.equal(['body.teamId: expected the key to be absent, got "t"']);
    expect(msgs({ teamId: { $absent: true } }, { teamId: null })).to.deep.equal(['body.teamId: expected the key to be absent, got null']);
    expect(checkMatcher({ $absent: false }, 'x')).to.deep.equal(['x.$absent: must be true']);
    expect(checkMatcher({ $absent: true, $type: 'string' }, 'x')).to.deep.equal(['x.$absent: goes alone (an absent key has no value to test)']);
  });

  it('$type: JSON types, integer, and lists of types', () => {
    expect(msgs({ a: { $type: 'string' }, b: { $type: 'integer' }, c: { $type: ['null', 'object'] }, d: { $type: 'array' } }, { a: 'x', b: 3, c: null, d: [] })).to.deep.equal([]);
    expect(msgs({ $type: 'integer' }, 1.5)).to.deep.equal(['body: expected type integer, got number 1.5']);
    expect(msgs({ $type: ['string', 'null'] }, 0)).to.deep.equal(['body: expected type string or null, got number 0']);
    expect(msgs({ a: { $type: 'string' } }, {})).to.deep.equal(['body.a: expected {"$type":"string"}, got (absent)']);
  });

  it('$regex: strings matching an unanchored JavaScript expression', () => {
    expect(msgs({ $regex: '^[0-9a-f]{16}_[0-9a-f]{16}$' }, '0123456789abcdef_fedcba9876543210')).to.deep.equal([]);
    expect(msgs({ $regex: 'cup' }, 'The cup')).to.deep.equal([]);
    expect(msgs({ $regex: '^x$' }, 'y')).to.deep.equal(['body: expected a string matching /^x$/, got "y"']);
    expect(msgs({ $regex: 'x' }, 5)).to.deep.equal(['body: expected a string matching /x/, got 5']);
  });

  it('$any: true means present with any value; a list means any one of the matchers', () => {
    expect(msgs({ a: { $any: true } }, { a: null })).to.deep.equal([]);
    expect(msgs({ a: { $any: true } }, {})).to.deep.equal(['body.a: expected a value, got (absent)']);
    expect(msgs({ $any: [1, { $type: 'string' }] }, 'x')).to.deep.equal([]);
    expect(msgs({ $any: [1, { $type: 'string' }] }, 2)).to.deep.equal(['body: expected any of [1,{"$type":"string"}], got 2']);
  });

  it('$len: the length of an array or string, as a number or a matcher', () => {
    expect(msgs({ $len: 2 }, [1, 2])).to.deep.equal([]);
    expect(msgs({ $len: { $gte: 3 } }, 'abcd')).to.deep.equal([]);
    expect(msgs({ $len: 2 }, [1])).to.deep.equal(['body: expected length 2, got 1']);
    expect(msgs({ $len: { $gt: 5 } }, [1])).to.deep.equal(['body: expected length {"$gt":5}, got 1']);
    expect(msgs({ $len: 1 }, 7)).to.deep.equal(['body: expected an array or string for $len, got number']);
  });

  it('$gt, $gte, $lt, $lte: number bounds, combinable', () => {
    expect(msgs({ $gt: 1, $lte: 2 }, 2)).to.deep.equal([]);
    expect(msgs({ $gte: 1 }, 0)).to.deep.equal(['body: expected a number >= 1, got 0']);
    expect(msgs({ $lt: 1 }, 1)).to.deep.equal(['body: expected a number < 1, got 1']);
    expect(msgs({ $gt: 0, $lt: 10 }, 'five')).to.deep.equal(['body: expected a number > 0, got "five"']);
  });

  it('combines operators in one object: all must hold', () => {
    expect(msgs({ $type: 'string', $regex: '^a', $len: 3 }, 'abc')).to.deep.equal([]);
    expect(msgs({ $type: 'string', $len: 3 }, 'abcd')).to.deep.equal(['body: expected length 3, got 4']);
  });

  it('reports every mismatch with its path', () => {
    expect(msgs({ a: 1, b: { c: [{ d: 'x' }] }, e: { $type: 'number' } }, { a: 2, b: { c: [{ d: 'y' }] }, e: 'no' })).to.deep.equal([
      'body.a: expected 1, got 2', 'body.b.c[0].d: expected "x", got "y"', 'body.e: expected type number, got string "no"',
    ]);
  });
});

describe('scenario body diff', () => {
  it('shows only the expected keys, with - expected and + actual lines', () => {
    const diff = bodyDiff({ success: false, error: 'Insufficient balance' }, { success: false, error: 'Trade exceeds maximum size', details: { rule: 'x' } });
    expect(diff).to.deep.equal(['  {', '    "success": false,', '-   "error": "Insufficient balance"', '+   "error": "Trade exceeds maximum size"', '  }']);
  });

  it('shows the actual value where an operator holds, the operator where it fails, and lengths for $len', () => {
    expect(bodyDiff({ id: { $type: 'string' }, n: { $gt: 5 } }, { id: 'abc', n: 1 })).to.deep.equal([
      '  {', '    "id": "abc",', '-   "n": {', '-     "$gt": 5', '-   }', '+   "n": 1', '  }',
    ]);
    expect(bodyDiff({ list: { $len: 3 } }, { list: [1, 2] })).to.deep.equal([
      '  {', '    "list": {', '-     "$len": 3', '+     "$len": 2', '    }', '  }',
    ]);
  });

  it('leaves keys absent from the actual body out of the + side, and shows extra array elements', () => {
    expect(bodyDiff({ a: 1, b: 2 }, { a: 1 })).to.deep.equal(['  {', '-   "a": 1,', '-   "b": 2', '+   "a": 1', '  }']);
    expect(bodyDiff([1], [1, 2])).to.deep.equal(['  [', '-   1', '+   1,', '+   2', '  ]']);
    expect(bodyDiff({ a: 1 }, undefined)).to.deep.equal(['- {', '-   "a": 1', '- }', '+ (no body)']);
  });

  it('line diff keeps common lines', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc')).to.deep.equal(['  a', '- b', '+ x', '  c']);
  });
});
