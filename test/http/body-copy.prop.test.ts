// copyPlainBody: the in-process target's copy of a request body is exactly what parsing its JSON text gives, or it leaves the body to the text path.
import { expect } from 'chai';
import fc from 'fast-check';
import { copyPlainBody, NOT_PLAIN, parseJsonBody } from '../../src/http/body-text.js';

type Read = { value: unknown } | { error: number };

/** The text path with a limit of `limit` bytes: what compsim serve would read from JSON.stringify(v). */
function viaText(v: unknown, limit: number): Read {
  const text = JSON.stringify(v);
  if (text === undefined) return { error: 0 };
  if (Buffer.byteLength(text, 'utf8') > limit) return { error: 413 };
  try {
    return { value: parseJsonBody(text) };
  } catch {
    return { error: 400 };
  }
}

/** Same data, same key order, same prototypes, leaves compared with Object.is (-0 is not 0). */
function identical(a: unknown, b: unknown, path = '$'): string | null {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return Object.is(a, b) ? null : `${path}: ${String(a)} vs ${String(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ`;
  if (Object.getOwnPropertySymbols(a).length !== Object.getOwnPropertySymbols(b).length) return `${path}: symbol keys differ`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) return `${path}: keys ${ka.join(',')} vs ${kb.join(',')}`;
  for (const k of ka) {
    const d = identical((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

const leaf = fc.oneof(
  fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '"', '\\', '\u0001', 'é', '🚀') }),
  fc.double(), fc.integer(), fc.constantFrom(-0, 0, NaN, Infinity, 1e21, 5e-324), fc.boolean(), fc.constant(null),
  fc.constantFrom(undefined, () => 1, Symbol('s'), new Date(0), Object.assign(Object.create(null) as object, { a: 1 }), new Number(2), { toJSON: () => 'x' }, { [Symbol('k')]: 1, a: 2 }),
);
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', '0', '10', '9', 'constructor', 'toString'));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.array(fc.tuple(key, tie('node')), { maxLength: 5 }).map((pairs) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of pairs) {
      if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      else o[k] = v;
    }
    return o;
  }),
})).node;

describe('copyPlainBody (in-process request bodies)', () => {
  it('copies exactly what the JSON text would parse to, or leaves the value to the text path', () => {
    let copied = 0;
    fc.assert(fc.property(value, fc.constantFrom(40, 200, 1 << 20), (v, limit) => {
      const copy = copyPlainBody(v, limit);
      if (copy === NOT_PLAIN) return;
      copied += 1;
      const ref = viaText(v, limit);
      expect(ref, 'the text path refuses what was copied').to.have.property('value');
      expect(identical(copy, (ref as { value: unknown }).value)).to.equal(null);
      if (v !== null && typeof v === 'object') expect(copy).not.to.equal(v);
    }), { seed: 20261123, numRuns: 3000 });
    // The generator reaches the copy often enough for the comparison to mean something.
    expect(copied).to.be.greaterThan(500);
  });

  it('copies the bodies scenarios send (nested objects and arrays, -0 as 0) and leaves the rest to the text path', () => {
    const trade = { competitionId: 'c', fromToken: 'a', toToken: 'b', amount: '15', reason: 'r', n: -0, list: [1, 'x', null, { y: true }] };
    const copy = copyPlainBody(trade, 1 << 20) as typeof trade;
    expect(copy).to.deep.equal({ ...trade, n: 0 });
    expect(Object.is(copy.n, 0)).to.equal(true);
    expect(copy.list).not.to.equal(trade.list);
    for (const v of ['text', 3, null, JSON.parse('{"__proto__": {}}'), { a: undefined }, { a: NaN }, [undefined], { d: new Date(0) }, { big: 'x'.repeat(100) }]) {
      expect(copyPlainBody(v, 500), JSON.stringify(v)).to.equal(NOT_PLAIN);
    }
  });

  it('shares no object with the source, and leaves everything to the text path while Object.prototype has an enumerable member', () => {
    const src = { a: { b: 1, deep: { c: [2] } }, list: [{ d: 3 }], n: null };
    const copy = copyPlainBody(src, 1 << 20) as typeof src;
    expect(copy).to.deep.equal(src);
    expect(copy.a).not.to.equal(src.a);
    expect(copy.a.deep).not.to.equal(src.a.deep);
    expect(copy.a.deep.c).not.to.equal(src.a.deep.c);
    expect(copy.list[0]).not.to.equal(src.list[0]);
    Object.defineProperty(Object.prototype, 'polluted', { value: 0, enumerable: true, configurable: true, writable: true });
    try {
      expect(copyPlainBody({ a: 1 }, 1 << 20)).to.equal(NOT_PLAIN);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(copyPlainBody({ a: 1 }, 1 << 20)).to.deep.equal({ a: 1 });
  });
});
