// The response log's one-pass canonical writer against a straightforward reference: redact a copy, then sort and join.
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

/** Values of every JSON kind plus what the writer must treat as JSON.stringify would: undefined, NaN, -0, odd keys, secrets inside strings. */
const leaf = fc.oneof(
  fc.string(), fc.constantFrom('Bearer aaaa_bbbb', 'k3yk3y', 'x aaaa_bbbb y k3y', '\u2028"\\'), fc.double(), fc.integer(), fc.boolean(),
  fc.constant(null), fc.constant(undefined), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj')),
  arr: fc.array(tie('node'), { maxLength: 5 }),
  obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto', 'k3y', 'b', 'a', '10', '2')), tie('node'), { maxKeys: 6 }),
})).node;

describe('response log', () => {
  it('writes what redacting a copy and sorting keys by map, filter and join writes, for any value', () => {
    fc.assert(fc.property(value, (v) => {
      expect(canonicalJson(v)).to.equal(referenceCanonical(v));
      const log = new ResponseLog();
      for (const s of SECRETS) log.redactKey(s);
      const entry = { at: 'steps[0]', request: { method: 'GET', path: '/x', body: v }, response: { status: 200, body: v } } as unknown as LogEntry;
      expect(log.add(entry)).to.equal(referenceCanonical(referenceRedact(entry, SECRETS)));
    }), { seed: 20261125, numRuns: 400 });
  });

  it('hashes the lines as the SHA-256 of its text, at any point', () => {
    const log = new ResponseLog();
    for (let i = 0; i < 5; i++) {
      log.add({ at: `steps[${i}]`, request: { method: 'GET', path: `/p/${i}` }, response: { status: 200, body: { i } } });
      expect(log.hash()).to.equal(createHash('sha256').update(log.text()).digest('hex'));
    }
    expect(log.text().split('\n')).to.have.length(6);
  });
});
