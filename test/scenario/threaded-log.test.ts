// The response log written on a worker thread: the same lines, text and hash as the log written in place, whatever the entries, keys and buffer edges.
import { expect } from 'chai';
import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { join } from 'node:path';
import { inProcessTarget } from '../../src/cli/in-process-target.js';
import { ResponseLog, serveThreadedLog, ThreadedLog, type LogEntry } from '../../src/sim/scenario/log.js';
import { runScenario } from '../../src/sim/scenario/runner.js';
import { loadScenario } from '../../src/sim/scenario/schema.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SECRETS = ['aaaa_bbbb', 'k3y', 'q"t\n', 'é😀'];

/** Strings that hold the secrets (so a key that takes effect a line early or late shows), and every other JSON kind. */
const leaf = fc.oneof(
  fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...SECRETS.map((s) => `x ${s} y`), 'say q"t\n now', '\ud800', 'a\udc00b', '\u2028'),
  fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom(Number.NaN, -0, Number.POSITIVE_INFINITY),
  fc.integer({ min: 0, max: 20_000 }).map((d) => new Date(d * 86_400_000)), fc.constantFrom(Object(7), Object('k3y'), Object(false), () => 1),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj')),
  arr: fc.sparseArray(tie('node'), { maxLength: 4 }),
  obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('__proto__', 'k3y', 'b', 'a', '10')), tie('node'), { maxKeys: 5 }),
})).node;

/** A member JSON cannot write: the entry holding it must leave no trace in either log. */
const boom = { toJSON: () => { throw new Error('boom'); } };

type Op = { add: unknown } | { key: string };
const ops = fc.array(fc.oneof(
  { weight: 6, arbitrary: value.map((v) => ({ add: v })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(boom, 10n).map((v) => ({ add: { v } })) },
  { weight: 1, arbitrary: fc.constantFrom(...SECRETS, '').map((key) => ({ key })) },
), { maxLength: 40 });

function entry(i: number, body: unknown): LogEntry {
  return { at: `steps[${i}]`, request: { method: 'POST', path: '/p', body: body as LogEntry['request']['body'] }, response: { status: 200, body } };
}

/** The error `f` throws (its message), or null. */
function thrown(f: () => void): string | null {
  try {
    f();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('threaded response log', () => {
  it('writes the lines, text and hash the log written in place writes, keys taking effect from the same line', async () => {
    await fc.assert(fc.asyncProperty(ops, fc.boolean(), async (list, keepText) => {
      const inPlace = new ResponseLog();
      const threaded = new ThreadedLog(keepText);
      for (const [i, op] of list.entries()) {
        if ('key' in op) {
          inPlace.redactKey(op.key);
          threaded.redactKey(op.key);
          continue;
        }
        const e = entry(i, op.add);
        const refused = thrown(() => inPlace.add(e));
        expect(thrown(() => threaded.add(e))).to.equal(refused);
        expect(threaded.size).to.equal(inPlace.size);
      }
      expect(await threaded.finish()).to.equal(inPlace.hash());
      if (keepText) expect(threaded.text()).to.equal(inPlace.text());
      else expect(() => threaded.text()).to.throw('the response log keeps only its hash (keepText: false)');
    }), { seed: 20261124, numRuns: 12 });
  });

  it('redacts a key from the line after it, not from the lines before', async () => {
    const inPlace = new ResponseLog();
    const threaded = new ThreadedLog(true);
    for (const log of [inPlace, threaded]) {
      log.add(entry(0, { s: 'x aaaa_bbbb y' }));
      log.redactKey('aaaa_bbbb');
      log.add(entry(1, { s: 'x aaaa_bbbb y' }));
    }
    expect(await threaded.finish()).to.equal(inPlace.hash());
    expect(threaded.text()).to.equal(inPlace.text());
    expect(threaded.text().split('\n').map((l) => l.includes('aaaa_bbbb'))).to.deep.equal([true, false, false]);
  });

  it('keeps every line across its 1 MB hand-off buffers, a line larger than one and non-ASCII text included', async () => {
    const inPlace = new ResponseLog();
    const threaded = new ThreadedLog(true);
    const big = 'é€😀'.repeat(200_000);
    for (let i = 0; i < 4000; i++) {
      // Lines of up to 2.7 KB of 1-4 byte characters: some end a buffer with fewer bytes left than they need, though more than their length.
      const body = i === 2000 ? { big } : { i, text: 'x'.repeat(i % 997), note: i % 2 === 0 ? 'ÿ€😀'.repeat(i % 300) : 'plain' };
      inPlace.add(entry(i, body));
      threaded.add(entry(i, body));
    }
    expect(await threaded.finish()).to.equal(inPlace.hash());
    const text = threaded.text();
    expect(Buffer.byteLength(text)).to.be.greaterThan(4 << 20);
    expect(text).to.equal(inPlace.text());
  });

  it('refuses entries once finished, and has its text only then', async () => {
    const log = new ThreadedLog(true);
    log.add(entry(0, { a: 1 }));
    expect(() => log.text()).to.throw('the text of a threaded response log is there once finish() has settled');
    const hash = await log.finish();
    expect(log.text()).to.equal('{"at":"steps[0]","request":{"body":{"a":1},"method":"POST","path":"/p"},"response":{"body":{"a":1},"status":200}}\n');
    expect(() => log.add(entry(1, {}))).to.throw('the response log is finished');
    expect(() => log.redactKey('k')).to.throw('the response log is finished');
    await log.finish().then(() => expect.fail('finished twice'), (err: Error) => expect(err.message).to.equal('the response log is finished'));
    expect(hash).to.match(/^[0-9a-f]{64}$/);
  });

  it('answers a line that is not JSON with why, instead of a hash', async () => {
    const { port1, port2 } = new MessageChannel();
    serveThreadedLog(port2, false);
    const answer = new Promise<unknown>((resolve) => port1.once('message', resolve));
    const lines = Buffer.from('{"at":"a"}\n{"at":\n');
    const buffer = lines.buffer.slice(lines.byteOffset, lines.byteOffset + lines.length);
    port1.postMessage({ kind: 'lines', buffer, length: lines.length });
    port1.postMessage({ kind: 'end' });
    const first = (await answer) as { kind: string; message: string };
    port1.close();
    expect(first.kind).to.equal('failed');
    expect(first.message).to.match(/JSON/);
  });

  it('gives a scenario run the same hash, log and result on a thread as in place', async () => {
    const sc = loadScenario(join(ROOT, 'scenarios/simulation/snapshots-leaderboard.scenario.json'));
    const inPlace = await runScenario(sc, inProcessTarget(), { threadedLog: false });
    const threaded = await runScenario(sc, inProcessTarget(), { threadedLog: true });
    const hashOnly = await runScenario(sc, inProcessTarget(), { threadedLog: true, keepLog: false });
    expect(inPlace.ok).to.equal(true);
    expect(threaded.requests).to.equal(inPlace.requests).and.to.be.greaterThan(10);
    expect(threaded.hash).to.equal(inPlace.hash);
    expect(threaded.log).to.equal(inPlace.log);
    expect(hashOnly.hash).to.equal(inPlace.hash);
  });
});
