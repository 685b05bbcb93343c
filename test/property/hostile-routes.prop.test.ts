// Hostile input over every route of the registry (in-process and over HTTP): never a 5xx, always the error envelope, and a rejected request changes nothing.
import { expect } from 'chai';
import { connect } from 'node:net';
import fc from 'fast-check';
import { ROUTES } from '../../src/http/resources/index.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { budget, figures, reportFigures, SEEDS, timed } from './budget.js';
import { Driver } from './driver.js';
import { fuzzRoutes, inProcess, type Finding, type Transport } from './fuzz.js';
import { answerProblem, buildFuzzWorld, NOBODY, requestArb, type Pools } from './hostile.js';

const show = (found: Map<string, Finding>) => [...found.values()].map((f) => `${f.key}\n    ${f.detail.slice(0, 500)}`).join('\n');

/** The HTTP transport over a test server: query arrays become repeated parameters, bodies JSON text. */
function overHttp(s: TestServer): Transport {
  let n = 0;
  const send = async (method: string, path: string, query: Record<string, unknown>, headers: Record<string, string>, body: string | undefined) => {
    n += 1;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) qs.append(k, String(x));
    const q = qs.toString();
    const res = await fetch(`${s.url}${path}${q ? `?${q}` : ''}`, { method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch { /* not JSON: the envelope check reports it */ }
    return { status: res.status, body: parsed };
  };
  const jsonText = (b: unknown) => {
    try {
      return JSON.stringify(b);
    } catch {
      return `${'['.repeat(20_000)}${']'.repeat(20_000)}`; // too deep for JSON.stringify: send the text of such a body
    }
  };
  // Header values must be bytes without control characters; anything else cannot even be sent.
  const headerOk = (v: string) => /^[\u0020-\u007e\u0080-\u00ff]*$/.test(v);
  return {
    world: s.world, admin: ADMIN_KEY, count: () => n,
    send: (r) => send(r.method, r.path, r.query, r.headers, r.body === undefined ? undefined : JSON.stringify(r.body)) as ReturnType<Transport['send']>,
    plain: (r) => {
      const auth = (r.headers as Record<string, string>).authorization;
      const headers: Record<string, string> = auth !== undefined && headerOk(auth) ? { authorization: auth } : {};
      // Keep the URL under Node's 16 KB header limit (longer ones are answered by the HTTP parser: see the serve test).
      const query = Object.fromEntries(Object.entries(r.query ?? {}).map(([k, v]) => [k, [v].flat().map((x) => String(x).slice(0, 1500))]));
      return send(r.method, r.path, query, headers, r.body === undefined || r.method === 'GET' || r.method === 'HEAD' ? undefined : jsonText(r.body));
    },
  };
}

describe('hostile input over every route of the registry (property)', function () {
  this.timeout(budget(120_000, 3_600_000));
  const inFig = figures('hostile input, in-process (every route)');
  const httpFig = figures('hostile input over HTTP (every route, raw bodies)');
  after(() => reportFigures([inFig, httpFig]));

  it('never answers 5xx, always {success:false, error} on errors, and a rejected request changes nothing (in-process)', async () => {
    const found = await timed(inFig, async () => fuzzRoutes(await inProcess(), ROUTES, budget(8, 800, 2), SEEDS.hostile, inFig));
    inFig.findings.push(...found.keys());
    expect(found.size, show(found)).to.equal(0);
  });

  it('covers every route of the registry', () => {
    // Only the choice of route matters here: placeholder ids will do.
    const agent = { id: NOBODY, key: 'k_k', userId: NOBODY, email: 'e@x.example' };
    const pools: Pools = {
      admin: 'k_k', agents: { a: agent, b: agent, c: agent, d: agent }, teamKey: null, teamId: null, oldKey: 'k_k', deactivatedKey: 'k_k',
      competitions: [NOBODY], users: [NOBODY], arenas: ['default-paper-arena'], snapshots: ['snap-1'], faults: ['fault-1'],
    };
    const seen = new Set(fc.sample(requestArb(pools), { seed: SEEDS.hostile, numRuns: 30 * ROUTES.length }).map((r) => r.route?.id));
    expect(ROUTES.filter((r) => !seen.has(r.id)).map((r) => r.id)).to.deep.equal([]);
  });

  describe('over HTTP', () => {
    let s: TestServer;
    beforeEach(async () => {
      // Latency faults a fuzzed request may add must not make the test wait on wall time.
      s = await startTestServer({ seed: 'hostile', startTime: '2025-06-02T12:00:00.000Z', admin: { apiKey: ADMIN_KEY } }, { delay: async () => {} });
    });
    afterEach(() => s.close());

    it('never answers 5xx, always the envelope, and rejected requests change nothing (schema-driven requests)', async () => {
      const found = await timed(httpFig, () => fuzzRoutes(overHttp(s), ROUTES, budget(2, 60, 1), SEEDS.http, httpFig));
      httpFig.findings.push(...found.keys());
      expect(found.size, show(found)).to.equal(0);
    });

    it('answers raw hostile bodies, content types, methods, paths and headers with a 4xx envelope and no state change', async () => {
      await buildFuzzWorld(overHttp(s).send, ADMIN_KEY);
      const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
      const bodies: [string, string][] = [
        ['{', 'application/json'], ['{"a":', 'application/json'], ['nul', 'application/json'], ['NaN', 'application/json'], ['"text"', 'application/json'],
        ['42', 'application/json'], ['null', 'application/json'], ['[]', 'application/json'], ['{"amount":NaN}', 'application/json'],
        ['{"amount":Infinity}', 'application/json'], ['{"amount":1e999}', 'application/json'], ['{"a":1,"a":2}', 'application/json'],
        ['{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', 'application/json'], [deep(200), 'application/json'],
        [`{"metadata":${deep(100_000)}}`, 'application/json'], [`{"name":"${'x'.repeat(1_100_000)}"}`, 'application/json'],
        ['\u00ff\u00fe{}', 'application/json'], ['{"a":"\\ud800"}', 'application/json'], ['a[b][c][d][e][f][g]=1&amount=NaN', 'application/x-www-form-urlencoded'],
        ['amount=1&amount=2&fromToken[]=x', 'application/x-www-form-urlencoded'], ['<xml/>', 'application/xml'], ['{}', 'text/plain'],
        ['{}', 'application/json; charset=utf-16'], ['{}', 'application/json; charset=latin1'], ['--x\r\n\r\n', 'multipart/form-data; boundary=x'],
      ];
      const keys = [ADMIN_KEY, undefined];
      const targets = ROUTES.filter((r) => r.method !== 'GET').map((r) => r.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000'));
      const failures: string[] = [];
      const check = async (what: string, fn: () => Promise<Response>) => {
        const before = await s.world.deps.store.snapshot();
        const res = await fn();
        const text = await res.text();
        let body: unknown = text;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch { /* reported below */ }
        httpFig.requests += 1;
        // A HEAD answer has no body by definition: only its status counts.
        const problem = res.status >= 500 || (res.status >= 400 && !what.startsWith('HEAD')) ? answerProblem(res.status, body) : null;
        if (problem) failures.push(`${what} -> ${res.status} ${problem}`);
        if (res.status >= 400) {
          const changed = Driver.diff(before, await s.world.deps.store.snapshot());
          if (changed.length > 0) failures.push(`${what} -> ${res.status} but changed ${changed.join(', ')}`);
        } else if (res.status < 300) await s.world.deps.store.restore(before);
      };
      const stride = budget(7, 1, 21);
      for (const [i, path] of targets.entries()) {
        for (const [j, [body, type]] of bodies.entries()) {
          if ((i + j) % stride !== 0) continue;
          for (const key of keys) {
            await check(`POST/PUT ${path} ${type} ${body.slice(0, 60)}`, () => fetch(`${s.url}${path}`, {
              method: ROUTES.find((r) => r.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000') === path && r.method !== 'GET')!.method,
              headers: { 'content-type': type, ...(key ? { authorization: `Bearer ${key}` } : {}) }, body,
            }));
          }
        }
      }
      const odd: [string, string, Record<string, string>][] = [
        ['PATCH', '/api/trade/execute', {}], ['HEAD', '/api/health', {}], ['OPTIONS', '/api/trade/execute', { origin: 'http://x', 'access-control-request-method': 'POST' }],
        ['GET', '/api/%', {}], ['GET', '/api/competitions/%E0%A4%A', {}], ['GET', `/api/${'a/'.repeat(2000)}`, {}], ['GET', '/api/competitions?limit=1&limit=2&status[]=x', {}],
        ['GET', '/api/agents?__proto__[x]=1&constructor=1', {}], ['GET', '/api/price?token=%00', { authorization: `Bearer ${ADMIN_KEY}` }],
        ['GET', '/api/admin/agents', { authorization: `Bearer ${ADMIN_KEY}, Bearer x` }], ['GET', '/api/agent/balances', { authorization: `Bearer ${'k'.repeat(8000)}` }],
        ['POST', '/api/trade/execute', { 'content-encoding': 'gzip', 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` }],
        ['GET', '/api/sim/dump', { authorization: 'Bearer ' }], ['DELETE', '/api/sim/faults/..%2F..%2Fetc', { authorization: `Bearer ${ADMIN_KEY}` }],
      ];
      for (const [method, path, headers] of odd) {
        const withBody = method === 'POST' && headers['content-type'] !== undefined;
        await check(`${method} ${path.slice(0, 80)}`, () => fetch(`${s.url}${path}`, { method, headers, ...(withBody ? { body: 'not gzip {}' } : {}) }).catch(() => new Response(null, { status: 599 })));
      }
      expect(failures, failures.slice(0, 20).join('\n')).to.deep.equal([]);
    });
  });

});

describe('regressions found by the hostile-input fuzzers', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
  });
  afterEach(() => s.close());
  const nest = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nest(depth - 1) });

  it('refuses a body nested deeper than 128 levels (400) and stores nothing; 128 levels are accepted (was a 500 on every later read)', async () => {
    const deep = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, raw: `{"walletAddress":"0x${'1'.repeat(40)}","agentName":"deep","agentMetadata":${'['.repeat(10_000)}${']'.repeat(10_000)}}` });
    expect(deep.status).to.equal(400);
    expect(deep.body).to.deep.equal({ success: false, error: 'Invalid JSON in request body: nested deeper than 128 levels' });
    expect((await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY })).body.agents).to.deep.equal([]);
    const ok = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, body: { walletAddress: `0x${'2'.repeat(40)}`, agentName: 'fine', agentMetadata: nest(126) } });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 200)).to.equal(201);
    expect((await s.call('GET', '/api/sim/dump', { key: ADMIN_KEY })).status).to.equal(200);
    expect((await s.call('PUT', `/api/admin/agents/${ok.body.agent.id}`, { key: ADMIN_KEY, body: { metadata: nest(128) } })).status).to.equal(400);
  });

  it('answers a corrupt gzip, deflate or brotli body with 400 "Invalid request body encoding" (was a 500)', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, raw: 'not compressed', headers: { 'content-encoding': encoding } });
      expect(res.status, encoding).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, error: 'Invalid request body encoding' });
    }
  });

  it('refuses a paging parameter that only coerces to Infinity ("1e400", 400 nines) with 400 (was 200 with offset: null)', async () => {
    for (const [path, offset] of [['/api/competitions', '9'.repeat(400)], ['/api/agents', '1e400'], ['/api/arenas', 'Infinity']]) {
      const res = await s.call('GET', path!, { query: { offset: offset! } });
      expect(res.status, path).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, error: 'Invalid request: offset (must be a finite number)' });
    }
    expect((await s.call('GET', '/api/agents', { query: { offset: '1e3' } })).body.pagination.offset).to.equal(1000);
  });

  it('compsim serve answers a request its HTTP parser refuses (headers over 16 KB) with a JSON 431 (was an empty body)', async () => {
    const { serve } = await import('../../src/cli/main.js');
    const { parseServeArgs } = await import('../../src/cli/args.js');
    const server = await serve(parseServeArgs(['--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']), { write: () => true } as unknown as NodeJS.WritableStream);
    try {
      const res = await fetch(`${server.url}/api/agents?filter=${'a'.repeat(20_000)}`);
      expect(res.status).to.equal(431);
      expect(await res.json()).to.deep.equal({ success: false, error: 'Request header fields too large' });
      expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
  it('compsim serve answers CONNECT like any unknown route: JSON 404 (was no answer at all)', async () => {
    const { serve } = await import('../../src/cli/main.js');
    const { parseServeArgs } = await import('../../src/cli/args.js');
    const server = await serve(parseServeArgs(['--port', '0', '--host', '127.0.0.1', '--log-level', 'silent']), { write: () => true } as unknown as NodeJS.WritableStream);
    try {
      const { port } = new URL(server.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer.split('\r\n')[0]).to.equal('HTTP/1.1 404 Not Found');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).to.deep.equal({ success: false, error: 'Cannot CONNECT example.com:443' });
      expect((await fetch(`${server.url}/api/health`)).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });
});
