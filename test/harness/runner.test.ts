// The scenario runner: reset, actors, interpolation, captures, sim steps, failures, the response log and its hash.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inProcessTarget } from '../../src/world/in-process-target.js';
import { canonicalJson } from '../../src/harness/log.js';
import { actorWallet, runScenario } from '../../src/harness/runner.js';
import { loadScenario, parseScenario } from '../../src/harness/schema.js';
import type { Target, TargetRequest, TargetResponse } from '../../src/harness/targets.js';
import type { Json } from '../../src/harness/types.js';
import { httpTarget } from '../../src/harness/targets.js';
import { ADMIN_KEY, startTestServer } from '../helpers/server.js';

const BOOT_KEY = 'aaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbb';
const ROOT = join(import.meta.dirname, '..', '..');

/** A scripted target: records requests, answers through `reply` (default: 200 {success:true}). */
class FakeTarget implements Target {
  readonly label = 'fake';
  readonly requests: TargetRequest[] = [];
  constructor(private readonly reply: (req: TargetRequest, n: number) => TargetResponse | undefined = () => undefined) {}
  begin = async () => ({ adminKey: BOOT_KEY });
  send = async (req: TargetRequest): Promise<TargetResponse> => {
    this.requests.push(req);
    if (req.path === '/api/sim/reset') return { status: 200, body: { success: true, seed: 1, now: '2025-01-01T00:00:00.000Z', adminKey: BOOT_KEY } };
    if (req.path === '/api/admin/users') {
      const name = (req.body as { agentName: string }).agentName;
      return { status: 201, body: { success: true, user: { id: `user-${name}` }, agent: { id: `agent-${name}`, apiKey: `key-${name}` } } };
    }
    return this.reply(req, this.requests.length) ?? { status: 200, body: { success: true } };
  };
  close = async () => undefined;
}

function scenario(steps: unknown[], extra: Record<string, unknown> = {}) {
  return parseScenario(JSON.stringify({ seed: 5, startTime: '2025-01-01T00:00:00Z', world: { slippage: 'none' }, steps, ...extra }), 'mem.scenario.json');
}

describe('scenario runner', () => {
  it('runs a scenario without world in a world with every default (no options sent with the reset)', async () => {
    const sc = parseScenario(JSON.stringify({
      seed: 5, startTime: '2025-01-01T00:00:00Z',
      steps: [{ call: 'GET /api/sim/clock', as: 'admin', expect: { status: 200, body: { now: '2025-01-01T00:00:00.000Z' } } }],
    }), 'no-world.scenario.json');
    const fake = new FakeTarget();
    await runScenario(sc, fake);
    expect(fake.requests[0]!.body).to.deep.equal({ seed: 5, options: { startTime: '2025-01-01T00:00:00Z' } });
    const r = await runScenario(sc, inProcessTarget());
    expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
  });

  it('with checkExpectations false lets every answer pass and goes on, but still needs the values it captures', async () => {
    const target = new FakeTarget((req) => (req.path === '/api/x' ? { status: 400, body: { success: false, error: 'no' } } : undefined));
    const steps = [
      { call: 'GET /api/x', expect: { status: 200, body: { success: true } } },
      { call: 'GET /api/y', expect: { body: { success: false } } },
    ];
    const checked = await runScenario(scenario(steps), target);
    expect([checked.ok, checked.stepsPassed, checked.failure?.at]).to.deep.equal([false, 0, 'steps[0]']);
    const unchecked = await runScenario(scenario(steps), target, { checkExpectations: false });
    expect([unchecked.ok, unchecked.stepsPassed, unchecked.requests]).to.deep.equal([true, 2, 3]);
    const capture = await runScenario(scenario([{ call: 'GET /api/x', save: { v: 'missing.field' } }]), target, { checkExpectations: false });
    expect([capture.ok, capture.failure?.message]).to.deep.equal([false, "save v: no 'missing.field' in the response body"]);
  });

  it('resets the target with seed, start time and world, then registers declared actors', async () => {
    const t = new FakeTarget();
    const r = await runScenario(scenario([], { actors: { alice: {}, bob: { register: { agentName: 'Bob Bot', email: 'b@x.io' } }, fixed: { key: 'k-fixed' } } }), t);
    expect(r.ok).to.equal(true);
    expect(t.requests[0]).to.deep.equal({
      method: 'POST', path: '/api/sim/reset', query: {}, headers: { authorization: `Bearer ${BOOT_KEY}` },
      body: { seed: 5, options: { startTime: '2025-01-01T00:00:00Z', slippage: 'none' } },
    });
    expect(t.requests.slice(1).map((q) => q.body)).to.deep.equal([
      { walletAddress: actorWallet('alice'), agentName: 'alice' },
      { walletAddress: actorWallet('bob'), agentName: 'Bob Bot', email: 'b@x.io' },
    ]);
    expect(actorWallet('alice')).to.match(/^0x[0-9a-f]{40}$/);
    expect(r.requests).to.equal(3);
  });

  it('sends calls as actors, interpolates saved values and registers actors from responses', async () => {
    const t = new FakeTarget((req): TargetResponse | undefined => {
      if (req.path === '/api/admin/agents') return { status: 201, body: { agent: { id: 'agent-carol', apiKey: 'key-carol' } } };
      if (req.path === '/api/comp') return { status: 200, body: { competition: { id: 'c-9', size: 3 } } };
      return undefined;
    });
    const r = await runScenario(scenario([
      { call: 'POST /api/admin/agents', as: 'admin', body: { n: 1 }, expect: { status: 201 }, actor: { name: 'carol', key: 'agent.apiKey', id: 'agent.id' } },
      { call: 'GET /api/comp', save: { cup: 'competition', size: 'competition.size' } },
      { call: 'POST /api/x/${cup.id}?q=1', as: 'carol', query: { page: 2 }, headers: { 'X-Trace': '${carol.id}' }, body: { size: '${size}', who: 'key ${alice.key}', ids: ['${alice.id}', '${alice.userId}'] } },
      { call: 'GET /api/y', as: 'alice', body: { dropped: true } },
    ], { actors: { alice: {} } }), t);
    expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
    const [, , , , call, get] = t.requests;
    expect(call).to.deep.equal({
      method: 'POST', path: '/api/x/c-9', query: { q: '1', page: '2' }, headers: { authorization: 'Bearer key-carol', 'x-trace': 'agent-carol' },
      body: { size: 3, who: 'key key-alice', ids: ['agent-alice', 'user-alice'] },
    });
    expect(get).to.deep.equal({ method: 'GET', path: '/api/y', query: {}, headers: { authorization: 'Bearer key-alice' } });
    // The log names actors instead of sending keys.
    const line = JSON.parse(r.log.trim().split('\n')[4]!);
    expect(line.request).to.deep.equal({ method: 'POST', path: '/api/x/c-9', query: { q: '1', page: '2' }, as: 'carol', headers: { 'x-trace': 'agent-carol' }, body: call!.body });
  });

  it('turns sim steps into /api/sim calls and keeps snapshot and fault ids by name; notes send nothing', async () => {
    let n = 0;
    const t = new FakeTarget((req) => (req.method === 'POST' && (req.path === '/api/sim/snapshots' || req.path === '/api/sim/faults') ? { status: 200, body: { success: true, id: `id-${++n}` } } : undefined));
    const r = await runScenario(scenario([
      { advance: '1h30m' }, { setTime: '2025-01-02T00:00:00+01:00' }, { note: 'nothing sent' },
      { setPrice: { token: 'T', price: 2 } }, { setPrice: [{ token: 'T', specificChain: 'svm', price: 3 }] }, { setPrice: 'clear' },
      { fault: { kind: 'priceMissing', token: 'T' }, name: 'outage' }, { fault: { kind: 'latency', path: '/api', ms: 1 } }, { fault: { remove: 'outage' } },
      { snapshot: 'fork' }, { restore: 'fork' }, { fault: { remove: 'fault7' } },
    ]), t);
    expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
    expect(t.requests.slice(1).map((q) => `${q.method} ${q.path} ${JSON.stringify(q.body ?? null)}`)).to.deep.equal([
      'POST /api/sim/clock {"advanceMs":5400000}',
      'POST /api/sim/clock {"set":"2025-01-01T23:00:00.000Z"}',
      'POST /api/sim/prices {"prices":[{"token":"T","price":2}]}',
      'POST /api/sim/prices {"prices":[{"token":"T","specificChain":"svm","price":3}]}',
      'DELETE /api/sim/prices null',
      'POST /api/sim/faults {"kind":"priceMissing","token":"T"}',
      'POST /api/sim/faults {"kind":"latency","path":"/api","ms":1}',
      'DELETE /api/sim/faults/id-1 null',
      'POST /api/sim/snapshots null',
      'POST /api/sim/snapshots/id-3/restore null',
      'DELETE /api/sim/faults/id-2 null',
    ]);
    expect(t.requests.slice(1).every((q) => q.headers.authorization === `Bearer ${BOOT_KEY}`)).to.equal(true);
  });

  it('stops at the first failing step with the request, the response, the mismatches and a diff', async () => {
    const t = new FakeTarget((req) => (req.path === '/api/bad' ? { status: 400, body: { success: false, error: 'nope' } } : undefined));
    const r = await runScenario(scenario([
      { call: 'GET /api/ok' },
      { call: 'POST /api/bad', as: 'admin', body: { a: 1 }, expect: { status: 200, body: { success: true } } },
      { call: 'GET /api/never' },
    ]), t);
    expect(r.ok).to.equal(false);
    expect(r.stepsPassed).to.equal(1);
    expect(t.requests.map((q) => q.path)).to.not.include('/api/never');
    expect(r.failure).to.deep.include({ at: 'steps[1]', index: 1, verb: 'call', message: 'status: expected status 200, got 400; body.success: expected true, got false' });
    expect(r.failure!.request).to.deep.equal({ method: 'POST', path: '/api/bad', as: 'admin', body: { a: 1 } });
    expect(r.failure!.response).to.deep.equal({ status: 400, body: { success: false, error: 'nope' } });
    expect(r.failure!.diff).to.deep.equal(['  {', '-   "success": true', '+   "success": false', '  }']);
  });

  it('requires a 2xx without expect.status, and fails clearly on unknown actors, variables, snapshots and paths', async () => {
    const t = new FakeTarget((req) => (req.path === '/api/missing' ? { status: 404, body: { success: false } } : undefined));
    const fail = async (steps: unknown[]) => (await runScenario(scenario(steps), t)).failure!.message;
    expect(await fail([{ call: 'GET /api/missing' }])).to.equal('status: expected a 2xx status, got 404');
    expect(await fail([{ call: 'GET /api/ok', as: 'zoe' }])).to.equal("unknown actor 'zoe' (known: admin)");
    expect(await fail([{ call: 'GET /api/${cup.id}' }])).to.equal(`unknown variable 'cup' in "GET /api/\${cup.id}" (known: admin)`);
    expect(await fail([{ restore: 'never' }])).to.equal("no snapshot named 'never' (known: none)");
    expect(await fail([{ call: 'GET /api/ok', save: { x: 'data.id' } }])).to.equal("save x: no 'data.id' in the response body");
    expect(await fail([{ call: 'GET /api/ok', save: { admin: 'success' } }])).to.equal("save: 'admin' is an actor");
  });

  it('explains a target without the sim API', async () => {
    const t: Target = { label: 'plain', begin: async () => ({ adminKey: BOOT_KEY }), send: async () => ({ status: 404, body: { error: 'Cannot POST /api/sim/reset' } }), close: async () => undefined };
    const r = await runScenario(scenario([{ call: 'GET /api/health' }]), t);
    expect(r.failure).to.deep.include({ at: 'reset', verb: 'reset' });
    expect(r.failure!.message).to.equal('reset failed with status 404: does the target serve the sim API (compsim serve --sim-api) and accept this admin key?');
  });

  it('redacts the admin key in the canonical log, so the hash does not depend on it', async () => {
    const run = async (key: string) => {
      const t: Target = {
        label: 'k', begin: async () => ({ adminKey: key }), close: async () => undefined,
        send: async (req): Promise<TargetResponse> => ({ status: 200, body: req.path === '/api/sim/reset' ? { success: true, adminKey: key } : { echo: req.headers.authorization ?? null } }),
      };
      return runScenario(scenario([{ call: 'GET /api/a', headers: { authorization: `Bearer ${key}` } }, { call: 'GET /api/b', as: 'admin' }]), t);
    };
    const [a, b] = [await run('1111111111111111_1111111111111111'), await run('2222222222222222_2222222222222222')];
    expect(a.log).to.equal(b.log);
    expect(a.hash).to.equal(b.hash).and.to.match(/^[0-9a-f]{64}$/);
    expect(a.log).to.include('"authorization":"Bearer <admin-key>"').and.not.include('1111');
  });

  it('writes canonical JSON: sorted keys, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 'x'], u: undefined })).to.equal('{"a":[{"c":null,"d":2},"x"],"b":1}');
  });
});

describe('scenario runner in-process', () => {
  it('gives the byte-identical log and hash on three runs of the same scenario', async () => {
    const sc = loadScenario(join(ROOT, 'scenarios', 'simulation', 'fork-and-compare.scenario.json'));
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await runScenario(sc, inProcessTarget()));
    expect(runs.every((r) => r.ok)).to.equal(true);
    expect(runs[1]!.log).to.equal(runs[0]!.log);
    expect(runs[2]!.log).to.equal(runs[0]!.log);
    expect(new Set(runs.map((r) => r.hash)).size).to.equal(1);
  });

  it('keeps only the hash with keepLog: false: the same hash, and reading the log says it was not kept', async () => {
    const sc = loadScenario(join(ROOT, 'scenarios', 'simulation', 'fork-and-compare.scenario.json'));
    const kept = await runScenario(sc, inProcessTarget());
    const hashOnly = await runScenario(sc, inProcessTarget(), { keepLog: false });
    expect(hashOnly.ok).to.equal(true);
    expect(hashOnly.requests).to.equal(kept.requests);
    expect(hashOnly.hash).to.equal(kept.hash);
    expect(() => hashOnly.log).to.throw('the response log keeps only its hash (keepText: false)');
  });

  it('gives identical logs with seeded upstream slippage, and a different log for another seed', async () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'scenarios', 'trading', 'execute-and-quote.scenario.json'), 'utf8')) as Record<string, Json>;
    doc.world = { slippage: 'upstream' };
    const steps = (doc.steps as Json[]).slice(0, 2);
    const run = async (seed: number) => runScenario(parseScenario(JSON.stringify({ ...doc, seed, steps }), 'slip.scenario.json'), inProcessTarget());
    const [a, b, c] = [await run(10), await run(10), await run(11)];
    expect(a.ok && b.ok && c.ok, JSON.stringify(a.failure ?? c.failure)).to.equal(true);
    expect(a.hash).to.equal(b.hash);
    expect(c.hash).to.not.equal(a.hash);
  });

  it('keeps saved values across a restore while the world rewinds', async () => {
    const r = await runScenario(scenario([
      { call: 'GET /api/health', save: { before: 'timestamp' } },
      { snapshot: 'zero' }, { advance: '1h' },
      { call: 'GET /api/health', expect: { body: { timestamp: '2025-01-01T01:00:00.000Z' } }, save: { later: 'timestamp' } },
      { restore: 'zero' },
      { call: 'GET /api/health', expect: { body: { timestamp: '${before}' } } },
      { note: '${later} is still known after the restore' },
      { setTime: '${later}' },
      { call: 'GET /api/health', expect: { body: { timestamp: '${later}', uptime: 3600 } } },
    ]), inProcessTarget());
    expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
  });

  it('reports a failing answer as plain status and body, the same body it matched, saved and logged', async () => {
    const r = await runScenario(scenario([
      { call: 'GET /api/health', save: { stamp: 'timestamp' } },
      { call: 'GET /api/health', expect: { status: 200, body: { timestamp: '${stamp}', status: 'down' } } },
    ]), inProcessTarget());
    expect(r.ok).to.equal(false);
    const response = r.failure!.response!;
    expect(Object.keys(response)).to.deep.equal(['status', 'body']);
    expect(response).to.deep.include({ status: 200 });
    expect(response.body).to.include({ status: 'ok', timestamp: '2025-01-01T00:00:00.000Z' });
    expect(JSON.parse(JSON.stringify(r.failure)).response).to.deep.equal(response);
    const logged = JSON.parse(r.log.trim().split('\n').at(-1)!) as { response: { body: Json } };
    expect(canonicalJson(logged.response.body)).to.equal(canonicalJson(response.body));
  });
});

describe('scenario runner: calls with `at`', () => {
  const steps = [
    { call: 'POST /api/admin/competition/start', as: 'admin', body: { name: 'Cup', agentIds: ['${alice.id}'] }, save: { cup: 'competition' } },
    { call: 'GET /api/sim/clock', as: 'admin', at: '2025-01-01T00:12:00Z', expect: { body: { now: '2025-01-01T00:12:00.000Z' } }, save: { t: 'now' } },
    // The same instant again is no move back; an interpolated instant is read like a literal one.
    { call: 'GET /api/health', at: '${t}', expect: { body: { timestamp: '2025-01-01T00:12:00.000Z' } } },
  ];
  const doc = (more: unknown[] = []) => scenario([...steps, ...more], { actors: { alice: {} }, world: { slippage: 'none', snapshotIntervalMs: 300_000 } });
  const lines = (log: string) => log.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  it('moves the clock first, runs what falls due, and logs the clock answer in the call\'s own line, the same over HTTP', async () => {
    const r = await runScenario(doc(), inProcessTarget());
    expect(r.ok, JSON.stringify(r.failure)).to.equal(true);
    const log = lines(r.log);
    // reset, alice, three calls: no line of its own for a clock move.
    expect(log.map((l) => l.at)).to.deep.equal(['reset', 'actors.alice', 'steps[0]', 'steps[1]', 'steps[2]']);
    const moved = log[3]!.clock as { set: string; status: number; body: { now: string; ran: Record<string, number> } };
    expect(moved).to.include({ set: '2025-01-01T00:12:00.000Z', status: 200 });
    expect(moved.body.now).to.equal('2025-01-01T00:12:00.000Z');
    expect(moved.body.ran).to.deep.equal({ snapshot: 2 });
    expect(log[4]!.clock).to.deep.include({ set: '2025-01-01T00:12:00.000Z', status: 200 });
    expect(log[2]).to.not.have.property('clock');
    expect(log[3]!.request).to.deep.equal({ as: 'admin', method: 'GET', path: '/api/sim/clock' });
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      const served = await runScenario(doc(), httpTarget(s.url, { adminKey: ADMIN_KEY }));
      expect(served.log).to.equal(r.log);
    } finally {
      await s.close();
    }
  });

  it('fails the step, without sending the call, for an instant before the clock or one that is no instant', async () => {
    const back = await runScenario(doc([{ call: 'GET /api/health', at: '2025-01-01T00:11:59.999Z' }]), inProcessTarget());
    expect(back.ok).to.equal(false);
    expect(back.failure).to.include({ at: 'steps[3]', index: 3, verb: 'call' });
    expect(back.failure!.message).to.equal('at: moving the clock to 2025-01-01T00:11:59.999Z, the sim API answered 400 '
      + '{"success":false,"error":"Invalid request: set (time only moves forward: 2025-01-01T00:11:59.999Z is before now, 2025...');
    expect(back.failure!.response).to.deep.equal({
      status: 400,
      body: { success: false, error: 'Invalid request: set (time only moves forward: 2025-01-01T00:11:59.999Z is before now, 2025-01-01T00:12:00.000Z)' },
    });
    expect(back.requests).to.equal(5);
    const bad = await runScenario(doc([{ call: 'GET /api/health', at: 'soon' }]), inProcessTarget());
    expect(bad.failure).to.include({ at: 'steps[3]', message: 'at: not an ISO instant: "soon"' });
    expect(bad.requests).to.equal(5);
  });
});
