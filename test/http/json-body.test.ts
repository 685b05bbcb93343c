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

/** A request stream carrying `bytes` with JSON headers. */
function request(bytes: Buffer, headers: Record<string, string> = {}): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(req, { headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers } });
  // Two chunks, split inside a multi-byte character when there is one.
  const cut = Math.min(bytes.length, 3);
  setImmediate(() => {
    req.write(bytes.subarray(0, cut));
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

describe('plain JSON request bodies (src/json-body.ts)', () => {
  for (const text of TEXTS) {
    it(`reads ${JSON.stringify(text)} as co-body does`, async () => {
      const bytes = Buffer.from(text, 'utf8');
      const mine = readPlainBody(request(bytes), 1024 * 1024);
      expect(mine).to.not.equal(null);
      const theirs = coBody.json(request(bytes), { limit: '1mb', strict: true, returnRawBody: true }).then((r) => r.parsed);
      expect(await outcome(mine!)).to.deep.equal(await outcome(theirs));
    });
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
