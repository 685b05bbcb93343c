// The server's own reading of plain JSON bodies gives exactly koa-bodyparser's (co-body's) results and errors.
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { readPlainBody } from '../../src/json-body.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';

/** co-body as koa-bodyparser loads it, with the options createServer gives it. */
const coBody = createRequire(createRequire(import.meta.url).resolve('koa-bodyparser'))('co-body') as {
  json(req: unknown, opts: Record<string, unknown>): Promise<{ parsed: unknown }>;
};

/** A request stream carrying `bytes` with JSON headers, in one chunk or in two (split inside a multi-byte character when there is one). */
function request(bytes: Buffer, headers: Record<string, string> = {}, chunks: 1 | 2 = 2): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(req, { headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers } });
  const cut = chunks === 1 ? bytes.length : Math.min(bytes.length, 3);
  setImmediate(() => {
    if (cut > 0) req.write(bytes.subarray(0, cut));
    req.end(bytes.subarray(cut));
  });
  return req;
}

async function outcome(p: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await p };
  } catch (err) {
    const e = err as Error & { status?: number };
    return { status: e.status, name: e.name, message: e.message };
  }
}

const TEXTS = [
  '', '   ', '{}', '[]', '{"a":1,"b":[1,2,{"c":"d"}]}', ' \n\t{"a":"é€😀"}', '\uFEFF{"bom":true}', '"string"', '1', 'null', 'true',
  '{"a":', '{a:1}', '{"__proto__":{"x":1}}', '{"a":{"__proto__":1}}', '{"\\u005f_proto__":1}', '{"proto":"__proto"}', '{"x":"\\u0041"}',
  '[{"__proto__":null}]', '{"a":1}garbage',
];

/** Bodies that are not valid UTF-8: bad sequences inside a string, and tails cut inside a character or malformed. */
const BAD_UTF8 = [
  Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xe0, 0x80]), Buffer.from('y"}')]),
  Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]),
  Buffer.concat([Buffer.from('{"a":1}'), Buffer.from([0xe0, 0x80])]),
  Buffer.concat([Buffer.from('{"a":1}'), Buffer.from([0xf0, 0x9f])]),
  Buffer.concat([Buffer.from('{"a":1} '), Buffer.from([0xc3])]),
  Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0x82])]),
];

describe('plain JSON request bodies (src/json-body.ts)', () => {
  const bodies = [...TEXTS.map((t) => Buffer.from(t, 'utf8')), ...BAD_UTF8];
  for (const bytes of bodies) {
    for (const chunks of [1, 2] as const) {
      it(`reads ${JSON.stringify(bytes.toString('latin1'))} in ${chunks} chunk(s) as co-body does`, async () => {
        const mine = readPlainBody(request(bytes, {}, chunks), 1024 * 1024);
        expect(mine).to.not.equal(null);
        const theirs = coBody.json(request(bytes, {}, chunks), { limit: '1mb', strict: true, returnRawBody: true }).then((r) => r.parsed);
        expect(await outcome(mine!)).to.deep.equal(await outcome(theirs));
      });
    }
  }

  it('leaves every other shape to koa-bodyparser', () => {
    const body = Buffer.from('{}');
    expect(readPlainBody(request(body, { 'content-type': 'application/json; charset=latin1' }), 1024)).to.equal(null);
    expect(readPlainBody(request(body, { 'content-type': 'Application/JSON' }), 1024)).to.equal(null);
    expect(readPlainBody(request(body, { 'content-encoding': 'gzip' }), 1024)).to.equal(null);
    expect(readPlainBody(request(body, { 'content-length': '5000' }), 1024)).to.equal(null);
    expect(readPlainBody(request(body, { 'content-type': 'application/x-www-form-urlencoded' }), 1024)).to.equal(null);
  });

  it('answers every body the same through the fast path and through koa-bodyparser', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      const snap = await s.world.snapshot();
      const bodies = [
        ...TEXTS, JSON.stringify({ walletAddress: `0x${'1'.repeat(40)}`, agentName: 'Fast' }),
        JSON.stringify({ walletAddress: `0x${'2'.repeat(40)}`, agentName: 'Deep', metadata: JSON.parse(`${'{"a":'.repeat(130)}1${'}'.repeat(130)}`) }),
      ];
      for (const raw of bodies) {
        const answers = [];
        // The first goes through src/json-body.ts, the second (a charset in other case) through koa-bodyparser.
        for (const type of ['application/json', 'application/json; charset=UTF-8']) {
          await s.world.restore(snap);
          const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, raw, headers: { 'content-type': type } });
          answers.push({ status: res.status, body: res.body });
        }
        expect(answers[0], raw).to.deep.equal(answers[1]);
      }
    } finally {
      await s.close();
    }
  });
});
