// The response log: its canonical lines against a straightforward reference (redacted copy, then map, filter, sort and join), and its hash.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { ADMIN_KEY_PLACEHOLDER, ResponseLog, canonicalJson, type LogEntry } from '../../src/harness/log.js';

/** Reference: copy with every secret replaced in string values (keys kept). */
function referenceRedact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((s, k) => s.split(k).join(ADMIN_KEY_PLACEHOLDER), value);
  if (Array.isArray(value)) return value.map((v) => referenceRedact(v, secrets));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceRedact(v, secrets)]));
  return value;
}

/** Reference: canonical JSON by map, filter, sort and join (an object rebuilt in sorted order would not do: integer keys come first). */
function referenceCanonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : referenceCanonical(v))).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const SECRETS = ['aaaa_bbbb', 'k3y'];

/**
 * JSON data plus what may sit in a body before it crosses the wire and that the log must write as
 * JSON.stringify does: undefined members, non-finite numbers and -0; odd keys (numeric ones come
 * first in an object's own order), secrets inside strings, characters JSON escapes, lone surrogates.
 */
const leaf = fc.oneof(
  fc.string(), fc.string({ unit: 'binary' }),
  fc.constantFrom('Bearer aaaa_bbbb', 'k3yk3y', 'x aaaa_bbbb y k3y', '\u2028"\\', '\ud800', 'a\udc00b', 'say q"t\n now', 'é€😀'),
  fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom(Number.NaN, -0, Number.NEGATIVE_INFINITY),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj')),
  arr: fc.array(tie('node'), { maxLength: 5 }),
  obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto', 'k3y', 'b', 'a', '10', '2', 'é', 'q"\\', 'n\n', '\ud800')), tie('node'), { maxKeys: 6 }),
})).node;

/** Reference: copy with every secret replaced in keys and string values (an answer's text is redacted wherever the key appears in it). */
function referenceRedactAll(value: unknown, secrets: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => referenceRedactAll(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [referenceRedact(k, secrets), referenceRedactAll(v, secrets)]));
  }
  return referenceRedact(value, secrets);
}

/** The answer a server sends of `v`: its JSON text. */
const answerOf = (v: unknown) => ({ status: 200, text: JSON.stringify(v) ?? '', json: true });

/** An entry whose request body is `v` and whose answer is `v` as JSON text (the log types the request as JSON; here it may hold what JSON drops). */
const entryOf = (v: unknown, at = 'steps[0]') => ({ at, request: { method: 'GET', path: '/x', body: v }, response: answerOf(v) }) as unknown as LogEntry;

/** Reference: the line of {@link entryOf}`(v)` with `secrets` redacted. */
function referenceLine(v: unknown, secrets: readonly string[]): string {
  const text = JSON.stringify(referenceRedactAll(v, secrets));
  const request = referenceCanonical(referenceRedact({ method: 'GET', path: '/x', body: v }, secrets));
  return `{"at":"steps[0]","request":${request},"response":{${text === undefined ? '' : `"body":${text},`}"status":200}}\n`;
}

describe('response log', () => {
  it('writes, for any value, what the reference writes of a redacted copy', () => {
    fc.assert(fc.property(value, (v) => {
      expect(canonicalJson(v)).to.equal(referenceCanonical(v));
      const log = new ResponseLog();
      for (const s of SECRETS) log.redactKey(s);
      log.add(entryOf(v));
      expect(log.text()).to.equal(referenceLine(v, SECRETS));
      // A secret JSON would escape is still found: in the request's strings before they are written, in the answer's text as JSON writes it.
      const quoted = new ResponseLog();
      quoted.redactKey('q"t\n');
      quoted.add(entryOf(v));
      expect(quoted.text()).to.equal(referenceLine(v, ['q"t\n']));
    }), { seed: 20261125, numRuns: 600 });
  });

  it('sorts keys at every level, drops undefined members, writes non-finite numbers and holes as null', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 'x'], u: undefined })).to.equal('{"a":[{"c":null,"d":2},"x"],"b":1}');
    expect(canonicalJson({ z: { y: 1, x: { w: 2, v: 3 } }, '10': 0, '9': 0 })).to.equal('{"10":0,"9":0,"z":{"x":{"v":3,"w":2},"y":1}}');
    expect(canonicalJson({ n: Number.NaN, i: Infinity, m: -Infinity, z: -0, l: [undefined, NaN, () => 1], s: sparse })).to.equal('{"i":null,"l":[null,null,null],"m":null,"n":null,"s":[1,null,3],"z":0}');
    expect(canonicalJson(undefined)).to.equal('null');
    expect(() => canonicalJson({ a: 1n })).to.throw(TypeError, 'BigInt');
  });

  it('redacts every admin key given from the string values of requests (not keys) and from the text of answers, from the next line on', () => {
    const log = new ResponseLog();
    log.add({ at: 'before', request: { method: 'GET', path: '/k3y' }, response: { status: 200, text: '', json: false } });
    log.redactKey('k3y');
    log.redactKey('');
    log.redactKey('s3cret');
    log.add({
      at: 'reset', request: { method: 'POST', path: '/p', headers: { authorization: 'Bearer k3y' }, body: { k3y: 'k3yk3y', l: ['s3cret', 'x s3cret k3y'] } },
      response: { status: 200, text: '{"adminKey":"k3y","seen":"s3cret"}', json: true },
    });
    log.add({ at: 'page', request: { method: 'GET', path: '/' }, response: { status: 200, text: '<p>"k3y"</p>', json: false } });
    expect(log.text()).to.equal([
      '{"at":"before","request":{"method":"GET","path":"/k3y"},"response":{"status":200}}',
      `{"at":"reset","request":{"body":{"k3y":"${ADMIN_KEY_PLACEHOLDER.repeat(2)}","l":["<admin-key>","x <admin-key> <admin-key>"]},"headers":{"authorization":"Bearer <admin-key>"},"method":"POST","path":"/p"},"response":{"body":{"adminKey":"<admin-key>","seen":"<admin-key>"},"status":200}}`,
      // Text that is not JSON is written as a JSON string.
      '{"at":"page","request":{"method":"GET","path":"/"},"response":{"body":"<p>\\"<admin-key>\\"</p>","status":200}}',
      '',
    ].join('\n'));
  });

  // The line format of recorded logs and hashes: a change here changes every recorded hash.
  it('writes the request as canonical JSON and each answer as the text it was sent as, and hashes the line', () => {
    const log = new ResponseLog();
    log.redactKey('5ce0a10000000000_00000000000a10ce');
    log.add({
      at: 'steps[7]', clock: { set: '2025-06-02T12:05:00.000Z', status: 200, text: '{"success":true,"now":"2025-06-02T12:05:00.000Z"}', json: true },
      request: { method: 'POST', path: '/api/trade/execute', as: 'alice', query: { x: '1' }, headers: { authorization: 'Bearer 5ce0a10000000000_00000000000a10ce' }, body: { amount: '15', competitionId: 'c-1' } },
      response: { status: 200, text: '{"success":true,"transaction":{"toAmount":0.099,"fromTokenSymbol":"USDC","note":"é€"}}', json: true },
    });
    const line = '{"at":"steps[7]","clock":{"body":{"success":true,"now":"2025-06-02T12:05:00.000Z"},"set":"2025-06-02T12:05:00.000Z","status":200},'
      + '"request":{"as":"alice","body":{"amount":"15","competitionId":"c-1"},"headers":{"authorization":"Bearer <admin-key>"},"method":"POST","path":"/api/trade/execute","query":{"x":"1"}},'
      + '"response":{"body":{"success":true,"transaction":{"toAmount":0.099,"fromTokenSymbol":"USDC","note":"é€"}},"status":200}}\n';
    expect(log.text()).to.equal(line);
    expect(log.hash()).to.equal(createHash('sha256').update(line).digest('hex'));
    expect(log.hash()).to.equal('fe0be7aee0bbd6c23d9e19df47552b6ef15f98b379b972ca857caeaa8c4d311b');
  });

  it('hashes its text, at any point, the same whether or not it keeps the text; the same entries give the same hash', () => {
    fc.assert(fc.property(fc.array(value, { maxLength: 8 }), (bodies) => {
      const logs = [new ResponseLog(), new ResponseLog(), new ResponseLog(false)];
      for (const [i, body] of bodies.entries()) {
        for (const log of logs) log.add(entryOf(body, `steps[${i}]`));
        expect(logs[0]!.hash()).to.equal(createHash('sha256').update(logs[0]!.text()).digest('hex'));
      }
      expect(new Set(logs.map((l) => l.hash())).size).to.equal(1);
      expect(logs.map((l) => l.size)).to.deep.equal([bodies.length, bodies.length, bodies.length]);
      expect(logs[0]!.text().split('\n')).to.have.length(bodies.length + 1);
      expect(() => logs[2]!.text()).to.throw('the response log keeps only its hash (keepText: false)');
    }), { seed: 20261126, numRuns: 200 });
  });

  it('leaves the log as it was when an entry cannot be written', () => {
    const log = new ResponseLog();
    log.add(entryOf({ a: 1 }));
    const [text, hash] = [log.text(), log.hash()];
    expect(() => log.add({ at: 'x', request: { method: 'POST', path: '/x', body: { big: 1n } as never }, response: answerOf({}) })).to.throw(TypeError, 'BigInt');
    expect([log.text(), log.hash(), log.size]).to.deep.equal([text, hash, 1]);
  });
});
