// GET /api/sim/requests (the request journal with its filters) and createServer with the sim API switched off.
import { expect } from 'chai';
import { RequestJournal } from '../../src/http/journal.js';
import { expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { startDemo } from '../helpers/sim.js';

describe('GET /api/sim/requests', () => {
  let s: TestServer;
  let agentKey: string;
  let agentId: string;
  before(async () => {
    s = await startDemo();
    agentKey = s.world.fixture.agents[0]!.apiKey;
    agentId = s.world.fixture.agents[0]!.id;
  });
  after(() => s.close());
  const journal = (query: Record<string, string> = {}) => s.call('GET', '/api/sim/requests', { key: ADMIN_KEY, query });

  /** Reset (seq 1), then four requests: agent price, anonymous health, bad agent key, clock advance. */
  beforeEach(async () => {
    await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} });
    await s.call('GET', '/api/price', { key: agentKey, query: { token: 'So11111111111111111111111111111111111111112' } });
    await s.call('GET', '/api/health');
    await s.call('GET', '/api/agent/balances', { key: 'bad_key' });
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 60_000 } });
  });

  it('lists every answered request oldest first, without its own calls (200)', async () => {
    await journal();
    const res = await journal();
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true,
      requests: [
        { seq: 1, method: 'POST', path: '/api/sim/reset', status: 200, at: '2025-06-02T12:00:00.000Z', principal: 'admin', agentId: null, routeId: 'sim.reset' },
        { seq: 2, method: 'GET', path: '/api/price', status: 200, at: '2025-06-02T12:00:00.000Z', principal: 'agent', agentId, routeId: 'price.get' },
        { seq: 3, method: 'GET', path: '/api/health', status: 200, at: '2025-06-02T12:00:00.000Z', principal: 'anonymous', agentId: null, routeId: 'health.get' },
        { seq: 4, method: 'GET', path: '/api/agent/balances', status: 401, at: '2025-06-02T12:00:00.000Z', principal: 'anonymous', agentId: null, routeId: 'agent.balances' },
        { seq: 5, method: 'POST', path: '/api/sim/clock', status: 200, at: '2025-06-02T12:01:00.000Z', principal: 'admin', agentId: null, routeId: 'sim.clock.set' },
      ],
    });
  });

  it('filters by method, path prefix, status and agent, combined with AND', async () => {
    const seqs = async (q: Record<string, string>) => (await journal(q)).body.requests.map((r: { seq: number }) => r.seq);
    expect(await seqs({ method: 'post' })).to.deep.equal([1, 5]);
    expect(await seqs({ path: '/api/sim' })).to.deep.equal([1, 5]);
    expect(await seqs({ status: '401' })).to.deep.equal([4]);
    expect(await seqs({ agentId })).to.deep.equal([2]);
    expect(await seqs({ method: 'GET', path: '/api/', status: '200' })).to.deep.equal([2, 3]);
  });

  it('filters by since (a seq or an ISO time) and keeps the most recent `limit`', async () => {
    const seqs = async (q: Record<string, string>) => (await journal(q)).body.requests.map((r: { seq: number }) => r.seq);
    expect(await seqs({ since: '3' })).to.deep.equal([4, 5]);
    expect(await seqs({ since: '2025-06-02T12:00:30Z' })).to.deep.equal([5]);
    expect(await seqs({ limit: '2' })).to.deep.equal([4, 5]);
  });

  it('rejects bad filters (400)', async () => {
    expectError(await journal({ since: 'yesterday' }), 400, 'Invalid request: since (a journal seq number or an ISO time)');
    expectError(await journal({ limit: '0' }), 400, 'Invalid request: limit (must be >= 1)');
    expectError(await journal({ status: 'teapot' }), 400, 'Invalid request: status (must be integer)');
  });

  it('journals answers the route table never saw (unknown path, malformed JSON)', async () => {
    await s.call('GET', '/api/nowhere');
    await s.call('POST', '/api/admin/users', { key: ADMIN_KEY, raw: '{not json' });
    const last = (await journal({ since: '5' })).body.requests;
    expect(last.map((r: { path: string; status: number; routeId: string | null }) => [r.path, r.status, r.routeId])).to.deep.equal([
      ['/api/nowhere', 404, null], ['/api/admin/users', 400, null],
    ]);
  });
});

describe('RequestJournal', () => {
  it('keeps only the most recent entries up to its capacity', () => {
    const j = new RequestJournal(3);
    for (let i = 0; i < 10; i++) j.record({ method: 'get', path: `/p/${i}`, status: 200, at: i, principal: { kind: 'anonymous' }, routeId: null });
    expect(j.list().map((e) => e.seq)).to.deep.equal([8, 9, 10]);
    j.clear();
    j.record({ method: 'GET', path: '/x', status: 200, at: 0, principal: { kind: 'anonymous' }, routeId: null });
    expect(j.list()).to.have.length(1);
    expect(j.list()[0]!.seq).to.equal(1);
  });
});

describe('createServer with simApi: false', () => {
  it('answers /api/sim/* with the JSON 404 saying how to turn the sim API on, while the rest of the API works', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { simApi: false });
    try {
      const off = '(the simulation control API is off: start compsim serve with --sim-api)';
      expectError(await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY }), 404, `Cannot GET /api/sim/clock ${off}`);
      expectError(await s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} }), 404, `Cannot POST /api/sim/reset ${off}`);
      expectError(await s.call('POST', '/api/sim', { body: {} }), 404, `Cannot POST /api/sim ${off}`);
      // Other unknown paths keep the plain 404, and so does every path with the sim API on.
      expectError(await s.call('GET', '/api/simulation'), 404, 'Cannot GET /api/simulation');
      expectError(await s.call('GET', '/api/nope'), 404, 'Cannot GET /api/nope');
      expect((await s.call('GET', '/api/health')).status).to.equal(200);
    } finally {
      await s.close();
    }
  });

  it('keeps the plain 404 for an unknown /api/sim path while the sim API is on', async () => {
    const s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    try {
      expectError(await s.call('GET', '/api/sim/nope', { key: ADMIN_KEY }), 404, 'Cannot GET /api/sim/nope');
    } finally {
      await s.close();
    }
  });
});
