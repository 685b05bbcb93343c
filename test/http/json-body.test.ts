// The server's own reading of plain JSON bodies gives exactly koa-bodyparser's (co-body's) results and errors.
import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { readPlainBody } from '../../src/json-body.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';

/** co-body as koa-bodyparser loads it, with the options createServer gives it. */
const coBody = createRequire(createRequire(import.meta.url).resolve('koa-bodyparser'))('co-body') as {
  json(req: unknown, opts: Record<string, unknown>): Promise<{ parsed: unknown }>;
};

/**
 * A request stream carrying `bytes` with JSON headers, in one chunk or in two (split inside a
 * multi-byte character when there is one): arriving `later` (after the reader started), or already
 * `buffered` and complete when it starts, as Node's parser leaves a body that came with the head.
 */
function request(bytes: Buffer, headers: Record<string, string> = {}, chunks: 1 | 2 = 2, when: 'later' | 'buffered' = 'later'): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(req, { headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers } });
  const cut = chunks === 1 ? bytes.length : Math.min(bytes.length, 3);
  const send = () => {
    if (cut > 0) req.write(bytes.subarray(0, cut));
    req.end(bytes.subarray(cut));
    req.complete = true;
  };
  if (when === 'buffered') send();
  else setImmediate(send);
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
      it(`reads ${JSON.stringify(bytes.toString('latin1'))} in ${chunks} chunk(s) as co-body does, arriving later or already buffered`, async () => {
        const theirs = await outcome(coBody.json(request(bytes, {}, chunks), { limit: '1mb', strict: true, returnRawBody: true }).then((r) => r.parsed));
        for (const when of ['later', 'buffered'] as const) {
          const mine = readPlainBody(request(bytes, {}, chunks, when), 1024 * 1024);
          expect(mine).to.not.equal(null);
          expect(await outcome(mine!), when).to.deep.equal(theirs);
        }
      });
    }
  }

  it('takes a buffered, complete body in one read, and still checks a length that does not match', async () => {
    const bytes = Buffer.from('{"a":[1,2,3]}');
    const req = request(bytes, {}, 2, 'buffered') as IncomingMessage & PassThrough;
    let listened = 0;
    const on = req.on.bind(req);
    req.on = ((event: string, fn: (...args: unknown[]) => void) => {
      if (event === 'data') listened += 1;
      return on(event, fn);
    }) as typeof req.on;
    expect(await readPlainBody(req, 1024)).to.deep.equal({ a: [1, 2, 3] });
    expect(listened).to.equal(0);
    for (const header of [String(bytes.length + 4), String(bytes.length - 1)]) {
      const short = request(bytes, { 'content-length': header }, 1, 'buffered');
      expect(await outcome(readPlainBody(short, 1024)!), header).to.deep.equal({ status: 400, name: 'Error', message: 'request size did not match content length' });
    }
  });

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

  it('reads bodies over real sockets however the bytes arrive: with the head, after it, split, or pipelined', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const { port, hostname } = new URL(s.url);
    /** Sends `writes` on one keep-alive connection (each after the last was flushed) and returns the statuses and agent names of `n` answers. */
    const exchange = (writes: Buffer[], n: number) => new Promise<[number, string][]>((resolve, reject) => {
      const sock = connect(Number(port), hostname);
      let got = Buffer.alloc(0);
      const answers: [number, string][] = [];
      sock.on('data', (d: Buffer) => {
        got = Buffer.concat([got, d]);
        for (;;) {
          const end = got.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = got.subarray(0, end).toString('latin1');
          const size = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (got.length < end + 4 + size) return;
          const body = JSON.parse(got.subarray(end + 4, end + 4 + size).toString('utf8')) as { agent?: { name?: string }; error?: string };
          answers.push([Number(head.split(' ')[1]), body.agent?.name ?? body.error ?? '']);
          got = got.subarray(end + 4 + size);
          if (answers.length === n) {
            sock.end();
            resolve(answers);
            return;
          }
        }
      });
      sock.on('error', reject);
      const next = (i: number) => {
        if (i < writes.length) sock.write(writes[i]!, () => setImmediate(() => next(i + 1)));
      };
      next(0);
    });
    const post = (name: string) => {
      const body = Buffer.from(JSON.stringify({ walletAddress: `0x${Buffer.from(name).toString('hex').padEnd(40, '0').slice(0, 40)}`, agentName: name }));
      const head = Buffer.from(`POST /api/admin/users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      return { head, body };
    };
    try {
      const one = post('Together é');
      expect(await exchange([Buffer.concat([one.head, one.body])], 1)).to.deep.equal([[201, 'Together é']]);
      const two = post('After');
      expect(await exchange([two.head, two.body], 1)).to.deep.equal([[201, 'After']]);
      const three = post('Split ü');
      const cut = three.body.indexOf(Buffer.from('ü')) + 1;
      expect(await exchange([Buffer.concat([three.head, three.body.subarray(0, cut)]), three.body.subarray(cut)], 1)).to.deep.equal([[201, 'Split ü']]);
      const [a, b] = [post('Piped A'), post('Piped B')];
      expect(await exchange([Buffer.concat([a.head, a.body, b.head, b.body])], 2)).to.deep.equal([[201, 'Piped A'], [201, 'Piped B']]);
      const bad = post('x');
      const broken = Buffer.from('{"walletAddress": ');
      const head = Buffer.from(bad.head.toString('latin1').replace(/Content-Length: \d+/, `Content-Length: ${broken.length}`), 'latin1');
      expect(await exchange([Buffer.concat([head, broken])], 1)).to.deep.equal([[400, 'Invalid JSON in request body']]);
    } finally {
      await s.close();
    }
  });
});
