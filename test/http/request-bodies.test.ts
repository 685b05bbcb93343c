// Request bodies: compsim serve (koa-bodyparser), the msw handlers and the in-process target read every body alike, however its bytes arrive.
import { expect } from 'chai';
import { connect } from 'node:net';
import { setupServer } from 'msw/node';
import { handlers } from '../../src/http/adapters/msw.js';
import { IN_PROCESS_ADMIN_KEY } from '../../src/world/in-process-target.js';
import type { Scenario } from '../../src/harness/types.js';
import { createWorld } from '../../src/world/world.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';
import { checkedInProcessTarget, checkMswAnswers } from '../helpers/answers.js';

const TEXTS = [
  '', '   ', '{}', '[]', '{"a":1,"b":[1,2,{"c":"d"}]}', ' \n\t{"a":"é€😀"}', '\uFEFF{"bom":true}', '"string"', '1', 'null', 'true',
  '{"a":', '{a:1}', '{"__proto__":{"x":1}}', '{"a":{"__proto__":1}}', '{"\\u005f_proto__":1}', '{"proto":"__proto"}', '{"x":"\\u0041"}',
  '[{"__proto__":null}]', '{"a":1}garbage',
  JSON.stringify({ walletAddress: `0x${'1'.repeat(40)}`, agentName: 'Plain' }),
  JSON.stringify({ walletAddress: `0x${'2'.repeat(40)}`, agentName: 'Deep', metadata: JSON.parse(`${'{"a":'.repeat(130)}1${'}'.repeat(130)}`) }),
];

describe('request bodies', () => {
  const msw = setupServer();
  checkMswAnswers(msw);
  before(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  after(() => msw.close());

  it('answers every body text the same through compsim serve and the msw handlers (400 for what is not strict JSON, and its own message for a __proto__ key)', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    msw.resetHandlers(...handlers(world, { baseUrl: 'https://api.example' }));
    try {
      const snap = await s.world.snapshot();
      const mswSnap = await world.snapshot();
      const invalid = { status: 400, body: { success: false, error: 'Invalid JSON in request body' } };
      // Well-formed JSON with a __proto__ key is refused with a message that says so.
      const protoKey = { status: 400, body: { success: false, error: 'Invalid request body: a "__proto__" key is not allowed (at any depth)' } };
      for (const raw of TEXTS) {
        await s.world.restore(snap);
        await world.restore(mswSnap);
        const served = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, raw });
        const res = await fetch('https://api.example/api/admin/users', { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: raw });
        expect({ status: res.status, body: await res.json() as unknown }, raw).to.deep.equal({ status: served.status, body: served.body });
        if (raw.includes('proto__') || raw.includes('u005f')) expect({ status: served.status, body: served.body }, raw).to.deep.equal(protoKey);
        if (['"string"', '1', 'null', 'true', '   ', '{"a":', '{a:1}', '{"a":1}garbage'].includes(raw)) {
          expect({ status: served.status, body: served.body }, raw).to.deep.equal(invalid);
        }
      }
    } finally {
      await s.close();
    }
  });

  // The msw handlers once read bodies with a copy of koa-bodyparser's rules that differed from it here;
  // every door now runs koa-bodyparser itself, so each case answers what compsim serve answers.
  it('reads a body by its content type exactly as compsim serve does: no type or an unknown one is not JSON, forms nest as qs reads them (msw)', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const world = await createWorld({ admin: { apiKey: ADMIN_KEY } });
    msw.resetHandlers(...handlers(world, { baseUrl: 'https://api.example' }));
    const wallet = `0x${'5'.repeat(40)}`;
    const json = JSON.stringify({ walletAddress: wallet, agentName: 'Typed' });
    const cases: [string | undefined, string][] = [
      [undefined, json], ['application/vnd.compsim+json', json], ['application/json', json],
      ['application/x-www-form-urlencoded', `walletAddress=${wallet}&agentName=Form&agentMetadata[a][b]=1`],
    ];
    try {
      const snap = await s.world.snapshot();
      const mswSnap = await world.snapshot();
      const seen: [number, unknown][] = [];
      for (const [type, text] of cases) {
        await s.world.restore(snap);
        await world.restore(mswSnap);
        // Bytes, so that fetch adds no content type of its own.
        const init = (): RequestInit => ({ method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(type ? { 'content-type': type } : {}) }, body: new TextEncoder().encode(text) });
        const served = await fetch(`${s.url}/api/admin/users`, init());
        const mocked = await fetch('https://api.example/api/admin/users', init());
        const answer = [served.status, await served.json()] as [number, unknown];
        expect([mocked.status, await mocked.json()], String(type)).to.deep.equal(answer);
        seen.push(answer);
      }
      expect(seen.map(([status]) => status)).to.deep.equal([400, 400, 201, 201]);
      expect(seen[0]![1]).to.deep.equal({ success: false, error: 'Wallet address is required' });
      expect(await world.deps.store.read((tx) => tx.all('agents').map((a) => a.metadata))).to.deep.equal([{ a: { b: '1' } }]);
    } finally {
      await s.close();
    }
  });

  it('gives the in-process target the answers compsim serve gives for the same JSON bodies', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, seed: 7, startTime: '2025-01-01T00:00:00.000Z' });
    const target = checkedInProcessTarget();
    await target.begin({ doc: { seed: 7, startTime: '2025-01-01T00:00:00.000Z', world: {} } } as unknown as Scenario);
    try {
      const bodies: unknown[] = [
        { walletAddress: `0x${'3'.repeat(40)}`, agentName: 'Copy', n: -0, list: [1, 'x', null, { y: true }] },
        { walletAddress: `0x${'4'.repeat(40)}`, agentName: 'Odd', gone: undefined, nan: NaN },
        JSON.parse('{"walletAddress":"0x1","__proto__":{"admin":true}}'), [1, 2], { big: 'x'.repeat(1024 * 1024) },
      ];
      for (const body of bodies) {
        const served = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body });
        const res = await target.send({ method: 'POST', path: '/api/admin/users', headers: { authorization: `Bearer ${IN_PROCESS_ADMIN_KEY}` }, query: {}, body: body as never });
        expect(res.status).to.equal(served.status);
        // Ids and keys come from each world's own seed; the shapes and the errors must agree.
        if (served.status >= 400) expect(res.body).to.deep.equal(served.body);
        else expect(Object.keys(res.body as object)).to.deep.equal(Object.keys(served.body as object));
      }
    } finally {
      await target.close();
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
