// Auth matrix: every protected route × {no key, malformed, unknown, old key after reset, deactivated, other agent's key, admin key}; no agent reads or changes another's private data.
import { expect } from 'chai';
import type { RouteDef } from '../../src/http/route.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import { ROUTES } from '../../src/http/resources/index.js';
import type { StoreSnapshot } from '../../src/ports/store.js';
import { Driver } from '../property/driver.js';
import { buildFuzzWorld, type Pools } from '../property/hostile.js';
import { TOKENS } from '../property/model.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

const PROTECTED = ROUTES.filter((r) => r.auth === 'key' || r.auth === 'admin');

/** The route's path with the victim's (agent A's) ids and existing ids of every other kind. */
function victimPath(route: RouteDef, p: Pools): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'competitionId') return p.competitions[0]!;
    if (name === 'agentId') return p.agents.a.id;
    if (name === 'teamId') return p.teamId ?? p.agents.a.id;
    if (route.path.startsWith('/api/sim/snapshots')) return p.snapshots[0]!;
    if (route.path.startsWith('/api/sim/faults')) return p.faults[0]!;
    if (route.path.includes('arenas')) return p.arenas[0]!;
    return 'pos-1';
  });
}

/** A query and body that get past validation on most routes (unknown keys are allowed everywhere). */
function requestParts(route: RouteDef, p: Pools): { query: Record<string, string>; body?: unknown } {
  const competitionId = p.competitions[0]!;
  if (route.method === 'GET') return { query: { competitionId, token: TOKENS.SOL.address, fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: '1' } };
  return {
    query: {},
    body: {
      competitionId, agentId: p.agents.a.id, fromToken: TOKENS.USDC.address, toToken: TOKENS.SOL.address, amount: '1', reason: 'auth matrix', description: 'changed', name: 'changed',
      requestPrompt: 'p', responseModel: 'm', responseOutput: 'o', signature: `0x${'ab'.repeat(65)}`,
    },
  };
}

/** Everything private to an agent: its row, balances, registrations and trades. */
async function privateRows(s: TestServer, agentId: string): Promise<string> {
  return s.world.deps.store.read((tx) => JSON.stringify([
    tx.get('agents', agentId), (tx.all('balances')).filter((b) => b.agentId === agentId), (tx.all('competitionAgents')).filter((r) => r.agentId === agentId),
    (tx.all('trades')).filter((t) => t.agentId === agentId),
  ]));
}

describe('auth matrix over every protected route', function () {
  this.timeout(120_000);
  let s: TestServer;
  let p: Pools;
  let baseline: StoreSnapshot;

  before(async () => {
    s = await startTestServer({ seed: 'auth-matrix', startTime: '2025-06-02T12:00:00.000Z', admin: { apiKey: ADMIN_KEY } }, { delay: async () => {} });
    p = await buildFuzzWorld(async (r) => {
      const res = await s.call(r.method, r.path, { headers: r.headers, query: r.query, ...(r.body !== undefined ? { body: r.body } : {}) });
      return { status: res.status, body: res.body };
    }, ADMIN_KEY);
    baseline = await s.world.deps.store.snapshot();
  });
  after(() => s.close());

  /** Sends the route's request with an authorization header; the world is restored afterwards. */
  async function send(route: RouteDef, authorization: string | undefined) {
    const { query, body } = requestParts(route, p);
    const before = await s.world.deps.store.snapshot();
    const res = await s.call(route.method, victimPath(route, p), { query, headers: authorization !== undefined ? { authorization } : {}, ...(body !== undefined ? { body } : {}) });
    const after = await s.world.deps.store.snapshot();
    await s.world.deps.store.restore(baseline);
    return { res, before, after };
  }

  const unchanged = async (before: StoreSnapshot, after: StoreSnapshot) => Driver.diff(before, after);

  it('covers the registry: every key or admin route is in the matrix', () => {
    expect(PROTECTED.length).to.be.greaterThan(60);
    expect(PROTECTED.map((r) => r.id)).to.include.members(['trade.execute', 'agent.balances', 'admin.agents.list', 'sim.dump', 'account.profile.get']);
  });

  for (const [label, header] of [
    ['no key', () => undefined], ['a malformed header (Bearer without a key)', () => 'Bearer'], ['a malformed header (lower-case scheme)', () => `bearer ${p.agents.a.key}`],
    ['a malformed header (Basic)', () => `Basic ${p.agents.a.key}`], ['a malformed header (trailing text)', () => `Bearer ${p.agents.a.key} x`],
    ['an unknown key', () => 'Bearer 0123456789abcdef_0123456789abcdef'], ["an agent's old key after its reset", () => `Bearer ${p.oldKey}`],
    ["a deactivated agent's key", () => `Bearer ${p.deactivatedKey}`],
  ] as [string, () => string | undefined][]) {
    it(`refuses ${label} on every protected route (401, envelope, nothing changes)`, async () => {
      const failures: string[] = [];
      for (const route of PROTECTED) {
        const { res, before, after } = await send(route, header());
        if (res.status !== 401) failures.push(`${route.method} ${route.path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        else if (res.body?.success !== false || typeof res.body?.error !== 'string') failures.push(`${route.method} ${route.path}: not the envelope`);
        const changed = await unchanged(before, after);
        if (changed.length > 0) failures.push(`${route.method} ${route.path} changed ${changed.join(', ')}`);
      }
      expect(failures, failures.join('\n')).to.deep.equal([]);
    });
  }

  it("refuses an agent's key on every admin route (401 or 403, nothing changes)", async () => {
    const failures: string[] = [];
    for (const route of PROTECTED.filter((r) => r.auth === 'admin')) {
      const { res, before, after } = await send(route, `Bearer ${p.agents.b.key}`);
      if (res.status !== 401 && res.status !== 403) failures.push(`${route.method} ${route.path} -> ${res.status}`);
      if ((await unchanged(before, after)).length > 0) failures.push(`${route.method} ${route.path} changed the world`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it("never shows agent A's key, email or balances to agent B, and B's key never changes A's rows (every route)", async () => {
    const { a, b } = p.agents;
    const victim = await privateRows(s, a.id);
    const failures: string[] = [];
    for (const route of ROUTES) {
      const { query, body } = requestParts(route, p);
      const res = await s.call(route.method, victimPath(route, p), { key: b.key, query, ...(body !== undefined ? { body } : {}) });
      const text = JSON.stringify(res.body ?? null);
      if (res.status >= 500) failures.push(`${route.method} ${route.path} -> ${res.status}`);
      if (text.includes(a.key)) failures.push(`${route.method} ${route.path} shows A's key`);
      if (text.includes(a.email)) failures.push(`${route.method} ${route.path} shows A's email`);
      const rows = [res.body?.balances, res.body?.trades].filter(Array.isArray).flat() as { agentId?: string }[];
      if (['agent.balances', 'agent.trades', 'account.balances', 'account.trades', 'agent.perps.positions'].includes(route.id) && rows.some((r) => r.agentId === a.id)) {
        failures.push(`${route.method} ${route.path} lists A's rows`);
      }
      if (typeof res.body?.agentId === 'string' && ['agent.balances', 'agent.trades'].includes(route.id) && res.body.agentId !== b.id) failures.push(`${route.method} ${route.path} answers for ${res.body.agentId}`);
      if ((await privateRows(s, a.id)) !== victim) failures.push(`${route.method} ${route.path} with B's key changed A's private rows`);
      await s.world.deps.store.restore(baseline);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it("refuses B's key on A's own join and leave (403 Agent API key does not match agent ID in URL)", async () => {
    for (const method of ['POST', 'DELETE']) {
      const res = await s.call(method, `/api/competitions/${p.competitions[1]}/agents/${p.agents.a.id}`, { key: p.agents.b.key });
      expect(res.status).to.equal(403);
      expect(res.body.error).to.equal('Agent API key does not match agent ID in URL');
    }
  });

  it('lets the admin key through every admin route (never 401/403) and never answers it 5xx', async () => {
    const failures: string[] = [];
    for (const route of PROTECTED) {
      const { res } = await send(route, `Bearer ${ADMIN_KEY}`);
      if (res.status >= 500) failures.push(`${route.method} ${route.path} -> ${res.status}`);
      if (route.auth === 'admin' && (res.status === 401 || res.status === 403)) failures.push(`${route.method} ${route.path} -> ${res.status} ${res.body?.error}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('answers an admin key 401 on exactly the agent-only routes, and the document lists the admin key on every other key route', async () => {
    const doc = buildOpenApi(ROUTES, { version: 'test' });
    const failures: string[] = [];
    for (const route of PROTECTED.filter((r) => r.auth === 'key')) {
      const { res, before, after } = await send(route, `Bearer ${ADMIN_KEY}`);
      const schemes = (doc.paths[route.path]![route.method.toLowerCase()]!.security as Record<string, string[]>[]).flatMap((x) => Object.keys(x));
      const expected = route.id.startsWith('auth.') ? 'Agent authentication required' : 'Authentication required';
      if (route.agentOnly) {
        if (res.status !== 401 || res.body?.error !== expected) failures.push(`${route.id} (agent only) -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
        if (schemes.includes('adminKey')) failures.push(`${route.id}: the document lists the admin key`);
        if ((await unchanged(before, after)).length > 0) failures.push(`${route.id} changed the world`);
      } else {
        if (res.status === 401) failures.push(`${route.id} -> 401 ${res.body?.error}`);
        if (!schemes.includes('adminKey')) failures.push(`${route.id}: the document leaves out the admin key`);
      }
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
    expect(ROUTES.filter((r) => r.agentOnly).map((r) => r.id).sort()).to.deep.equal([
      'account.resetApiKey', 'agent.balances', 'agent.perps.account', 'agent.perps.positions', 'agent.profile.get', 'agent.profile.update',
      'agent.resetApiKey', 'agent.trades', 'auth.nonce', 'auth.verify', 'competitions.agents.join', 'competitions.agents.leave',
      'eigenai.badge', 'eigenai.signatures.submit', 'eigenai.submissions', 'inferai.badge', 'inferai.signatures.submit', 'inferai.submissions', 'trade.execute',
    ]);
  });

  it("answers B's own data to B's key: balances and trades carry B's id only (and A's own profile shows A's email to A)", async () => {
    const own = await s.call('GET', '/api/agent/profile', { key: p.agents.a.key });
    expect(JSON.stringify(own.body)).to.include(p.agents.a.email); // the leak check above can see an email
    for (const path of ['/api/agent/balances', '/api/agent/trades']) {
      const res = await s.call('GET', path, { key: p.agents.b.key, query: { competitionId: p.competitions[0]! } });
      expect(res.status, path).to.equal(200);
      expect(res.body.agentId).to.equal(p.agents.b.id);
      for (const row of [...(res.body.balances ?? []), ...(res.body.trades ?? [])]) expect(row.agentId).to.equal(p.agents.b.id);
    }
  });
});
