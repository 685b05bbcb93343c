// The response log's one-pass canonical writer against a straightforward reference: a JSON round trip, a redacted copy, then sort and join.
import { expect } from 'chai';
import fc from 'fast-check';
import { ADMIN_KEY_PLACEHOLDER, ResponseLog, canonicalJson, type LogEntry } from '../../src/sim/scenario/log.js';
import { createHash } from 'node:crypto';

/** Reference: copy with every secret replaced in string values, then canonical JSON by map, filter, sort and join. */
function referenceRedact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, k) => s.split(k).join(ADMIN_KEY_PLACEHOLDER), value);
  if (Array.isArray(value)) return value.map((v) => referenceRedact(v, secrets));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceRedact(v, secrets)]));
  return value;
}

function referenceCanonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : referenceCanonical(v))).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const SECRETS = ['aaaa_bbbb', 'k3y'];

/** Adds `entry` to `log` and returns the line it wrote (lines hold no raw newline: JSON escapes them). */
function addLine(log: ResponseLog, entry: LogEntry): string {
  const before = log.text().length;
  log.add(entry);
  const text = log.text();
  expect(text.endsWith('\n')).to.equal(true);
  return text.slice(before, -1);
}

/** What a value becomes on the wire (what the in-process target's answers go through); `undefined` when JSON has no text for it. */
function roundTrip(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** A value with a `toJSON` that answers with the key it was called with, so a wrong key shows. */
class Stamp {
  constructor(readonly n: number) {}
  toJSON(key: string): unknown {
    return this.n % 3 === 0 ? undefined : { key, n: this.n, at: new Date(this.n * 86_400_000) };
  }
}

/**
 * Values of every JSON kind plus what the writer must treat as JSON.stringify does: undefined,
 * NaN, -0, functions, symbols, Dates and other toJSON values, boxed primitives, odd keys,
 * secrets inside strings, lone surrogates.
 */
const leaf = fc.oneof(
  fc.string(), fc.string({ unit: 'binary' }), fc.string({ minLength: 20, maxLength: 40 }), fc.string({ unit: 'binary', minLength: 20, maxLength: 40 }),
  fc.constantFrom(`${'x'.repeat(24)}"`, `${'y'.repeat(30)}\\`, `${'z'.repeat(23)}\u007f`, 'é'.repeat(30), `${'w'.repeat(26)}\n`, `token aaaa_bbbb ${'v'.repeat(20)}`),
  fc.constantFrom('Bearer aaaa_bbbb', 'k3yk3y', 'x aaaa_bbbb y k3y', '\u2028"\\', '\ud800', 'a\udc00b', 'say q"t\n now'),
  fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY),
  fc.constantFrom(() => 1, Symbol('s')), fc.integer({ min: 0, max: 20_000 }).map((d) => new Date(d * 86_400_000)), fc.nat(9).map((n) => new Stamp(n)),
  fc.constantFrom(Object(7), Object('k3y'), Object(false)),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('holes'), tie('obj')),
  arr: fc.array(tie('node'), { maxLength: 5 }),
  holes: fc.sparseArray(tie('node'), { maxLength: 5 }),
  obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto', 'k3y', 'b', 'a', '10', '2', 'toJSON_')), tie('node'), { maxKeys: 6 }),
})).node;

describe('response log', () => {
  it('writes what a JSON round trip, a redacted copy and sorting keys by map, filter and join write, for any value', () => {
    fc.assert(fc.property(value, (v) => {
      expect(canonicalJson(v)).to.equal(referenceCanonical(roundTrip(v)));
      const log = new ResponseLog();
      for (const s of SECRETS) log.redactKey(s);
      const entry = { at: 'steps[0]', request: { method: 'GET', path: '/x', body: v }, response: { status: 200, body: v } } as unknown as LogEntry;
      expect(addLine(log, entry)).to.equal(referenceCanonical(referenceRedact(roundTrip(entry), SECRETS)));
      // A secret JSON escapes cannot be found in the written line: every string is checked.
      const quoted = new ResponseLog();
      for (const s of [...SECRETS, 'q"t\n']) quoted.redactKey(s);
      expect(addLine(quoted, entry)).to.equal(referenceCanonical(referenceRedact(roundTrip(entry), [...SECRETS, 'q"t\n'])));
    }), { seed: 20261125, numRuns: 600 });
  });

  it('keeps whole lines and the hash when lines cross small buffers, members are dropped at the edge or an entry throws; a hash-only log hashes the same', () => {
    /** A toJSON that throws: the entry it is in must leave no trace. */
    const boom = { toJSON: () => { throw new Error('boom'); } };
    const member = fc.oneof(value, fc.constant(undefined), fc.constant(boom));
    const entries = fc.array(fc.dictionary(fc.constantFrom('a', 'm', 'z', 'zz', 'é'), member, { maxKeys: 4 }), { minLength: 1, maxLength: 12 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 96 }), entries, (chunkBytes, bodies) => {
      const log = new ResponseLog(chunkBytes);
      // Writes every line into the two buffers it reuses: a byte written into a buffer still to be hashed changes the hash.
      const hashOnly = new ResponseLog(chunkBytes, false);
      for (const s of SECRETS) {
        log.redactKey(s);
        hashOnly.redactKey(s);
      }
      const expected: string[] = [];
      for (const [i, body] of bodies.entries()) {
        const entry = { at: `steps[${i}]`, request: { method: 'POST', path: '/p', body }, response: { status: 200, body: { tail: undefined, ...body } } } as unknown as LogEntry;
        let ref: string | undefined;
        try {
          ref = referenceCanonical(referenceRedact(roundTrip(entry), SECRETS));
        } catch {
          ref = undefined;
        }
        if (ref === undefined) {
          expect(() => log.add(entry)).to.throw('boom');
          expect(() => hashOnly.add(entry)).to.throw('boom');
        } else {
          log.add(entry);
          hashOnly.add(entry);
          expected.push(`${ref}\n`);
        }
        expect(log.size).to.equal(expected.length);
        expect(hashOnly.size).to.equal(expected.length);
        // Hashing mid-run must not disturb either log.
        if (i % 3 === 1) expect(hashOnly.hash()).to.equal(log.hash());
      }
      const text = log.text();
      expect(text).to.equal(expected.join(''));
      expect(log.hash()).to.equal(createHash('sha256').update(text).digest('hex'));
      expect(hashOnly.hash()).to.equal(log.hash());
      expect(() => hashOnly.text()).to.throw('the response log keeps only its hash (keepText: false)');
    }), { seed: 20261123, numRuns: 400 });
  });

  it('writes the same text for the same shape seen again, and for many shapes past its memo limits', () => {
    const wide = Array.from({ length: 40 }, (_, i) => Object.fromEntries([['k', i], ...Array.from({ length: i % 7 }, (_, j) => [`f${(i * 7 + j) % 11}`, j])]));
    const first = wide.map((o) => canonicalJson(o));
    for (let i = 0; i < 20_000; i++) canonicalJson({ [`key${i}`]: i, a: 1 });
    expect(wide.map((o) => canonicalJson(o))).to.deep.equal(first);
    expect(first).to.deep.equal(wide.map((o) => referenceCanonical(o)));
  });

  it('refuses a BigInt as JSON.stringify does', () => {
    expect(() => canonicalJson({ a: 1n })).to.throw(TypeError, 'BigInt');
  });

  it('hashes the lines as the SHA-256 of its text, at any point', () => {
    const log = new ResponseLog();
    for (let i = 0; i < 5; i++) {
      log.add({ at: `steps[${i}]`, request: { method: 'GET', path: `/p/${i}` }, response: { status: 200, body: { i } } });
      expect(log.hash()).to.equal(createHash('sha256').update(log.text()).digest('hex'));
    }
    expect(log.text().split('\n')).to.have.length(6);
  });

  it('keeps every line and the hash across its 1 MB buffers, lines larger than a buffer and non-ASCII text included', () => {
    const log = new ResponseLog();
    const lines: string[] = [];
    const big = 'é€😀'.repeat(200_000);
    for (let i = 0; i < 3000; i++) {
      const body = i === 1500 ? { big } : { i, text: 'x'.repeat(i % 997), note: i % 2 === 0 ? 'ÿ€😀' : 'plain' };
      const entry: LogEntry = { at: `steps[${i}]`, request: { method: 'POST', path: '/p' }, response: { status: 200, body } };
      log.add(entry);
      lines.push(referenceCanonical(roundTrip(entry)));
      if (i % 700 === 0) expect(log.hash()).to.equal(createHash('sha256').update(log.text()).digest('hex'));
    }
    const text = log.text();
    expect(Buffer.byteLength(text)).to.be.greaterThan(3 << 20);
    expect(text).to.equal(lines.map((l) => `${l}\n`).join(''));
    expect(log.size).to.equal(3000);
    expect(log.hash()).to.equal(createHash('sha256').update(text).digest('hex'));
  });
});
