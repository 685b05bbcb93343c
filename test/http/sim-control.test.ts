// Simulation control API: reset to the baseline, the virtual clock with its jobs, and the admin-only guard.
import { expect } from 'chai';
import { resetBody } from '../../src/http/resources/sim/request.js';
import { RESETTABLE_OPTIONS } from '../../src/world/world.js';
import { createAgent, expectError } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { startDemo } from '../helpers/sim.js';

const SOL = 'So11111111111111111111111111111111111111112';

describe('POST /api/sim/reset', () => {
  let s: TestServer;
  beforeEach(async () => { s = await startDemo(); });
  afterEach(() => s.close());
  const reset = (body: unknown = {}) => s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body });

  it('returns to the seeded baseline: created agents disappear, fixture agents and keys stay (200)', async () => {
    const baseline = await s.world.dump();
    const fixtureKey = s.world.fixture.agents[0]!.apiKey;
    await createAgent(s, ADMIN_KEY, 'Intruder');
    await s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body: { advanceMs: 3_600_000 } });
    const res = await reset();
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, seed: 2025, now: '2025-06-02T12:00:00.000Z', adminKey: ADMIN_KEY });
    const agents = await s.call('GET', '/api/admin/agents', { key: ADMIN_KEY });
    expect(agents.body.agents.map((a: { name: string }) => a.name)).to.have.members(['Momentum Max', 'Mean Reverter', 'HODL Hannah']);
    expect((await s.call('GET', '/api/price', { key: fixtureKey, query: { token: SOL } })).status).to.equal(200);
    expect(await s.world.dump()).to.deep.equal(baseline);
  });

  it('rebuilds with another seed and options, keeping the admin key, and a plain reset goes back (200)', async () => {
    const before = await s.world.dump();
    const oldKey = s.world.fixture.agents[0]!.apiKey;
    const res = await reset({ seed: 7, options: { startTime: '2026-01-01T00:00:00Z', slippage: 'none', snapshotIntervalMs: 60_000 } });
    expect(res.body).to.deep.equal({ success: true, seed: 7, now: '2026-01-01T00:00:00.000Z', adminKey: ADMIN_KEY });
    expect(s.world.config).to.include({ slippage: 'none', snapshotIntervalMs: 60_000 });
    expect(s.world.fixture.agents[0]!.apiKey).to.not.equal(oldKey);
    expect((await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY })).body).to.deep.equal({ success: true, now: '2026-01-01T00:00:00.000Z' });
    expect((await reset()).body.seed).to.equal(2025);
    expect(await s.world.dump()).to.deep.equal(before);
  });

  it("keeps the caller's key when the world was created without an admin (200)", async () => {
    const bare = await startTestServer();
    try {
      const setup = await bare.call('POST', '/api/admin/setup', { body: { username: 'root', password: 'password123', email: 'root@example.com' } });
      const key = setup.body.admin.apiKey as string;
      const res = await bare.call('POST', '/api/sim/reset', { key, body: { seed: 5 } });
      expect(res.body).to.include({ success: true, seed: 5, adminKey: key });
      expect((await bare.call('GET', '/api/admin/agents', { key })).status).to.equal(200);
    } finally {
      await bare.close();
    }
  });

  it('accepts exactly the resettable world options', () => {
    const props = (resetBody.properties as { options: { properties: Record<string, unknown> } }).options.properties;
    expect(Object.keys(props)).to.have.members([...RESETTABLE_OPTIONS]);
  });

  it('names an option that cannot be replaced (400)', async () => {
    expectError(await reset({ options: { clock: 'system' } }), 400, 'Invalid request: options.clock (must NOT have additional properties)');
  });

  it('rejects a bad option value and leaves the world as it was (400)', async () => {
    const agent = await createAgent(s, ADMIN_KEY, 'Survivor');
    expectError(await reset({ options: { maxTradePercentage: 500 } }), 400, 'Invalid request: options.maxTradePercentage (must be between 1 and 100)');
    expect((await s.call('GET', `/api/admin/agents/${agent.agentId}`, { key: ADMIN_KEY })).status).to.equal(200);
  });

  it('requires an admin key (401)', async () => {
    expectError(await s.call('POST', '/api/sim/reset', { body: {} }), 401, 'Admin authentication required. Use Authorization: Bearer YOUR_ADMIN_API_KEY');
    const agentKey = s.world.fixture.agents[0]!.apiKey;
    expectError(await s.call('POST', '/api/sim/reset', { key: agentKey, body: {} }), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });
});

describe('/api/sim/clock', () => {
  let s: TestServer;
  let spring: string;
  let summer: string;
  before(async () => {
    s = await startDemo();
    [spring, summer] = s.world.fixture.competitions.map((c) => c.id) as [string, string];
  });
  after(() => s.close());
  beforeEach(() => s.call('POST', '/api/sim/reset', { key: ADMIN_KEY, body: {} }));
  const clock = (body: unknown) => s.call('POST', '/api/sim/clock', { key: ADMIN_KEY, body });
  const status = (id: string) => s.world.deps.store.read((tx) => tx.get('competitions', id)).then((c) => c!.status);

  it('answers the virtual time (200)', async () => {
    expect((await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY })).body).to.deep.equal({ success: true, now: '2025-06-02T12:00:00.000Z' });
  });

  it('advances and runs the due portfolio snapshots in order, answering counts per kind, the jobs on request (200)', async () => {
    const res = await clock({ advanceMs: 11 * 60_000 });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, now: '2025-06-02T12:11:00.000Z', ran: { snapshot: 2 } });
    const detailed = await clock({ advanceMs: 11 * 60_000, details: true });
    expect(detailed.body).to.deep.equal({
      success: true, now: '2025-06-02T12:22:00.000Z', ran: { snapshot: 2 },
      jobs: [
        { kind: 'snapshot', competitionId: spring, at: '2025-06-02T12:15:00.000Z' },
        { kind: 'snapshot', competitionId: spring, at: '2025-06-02T12:20:00.000Z' },
      ],
    });
  });

  it('lists at most 1000 jobs with details, and says how many it left out (200)', async () => {
    const res = await clock({ set: '2025-06-06T12:00:00Z', details: true });
    expect(res.body.ran).to.deep.equal({ snapshot: 2016, start: 1 });
    expect(res.body.jobs).to.have.length(1000);
    expect(res.body.jobsOmitted).to.equal(1017);
  });

  it('refuses a move that would create more snapshot rows than one request may, before running anything (400)', async () => {
    // A competition without an end date, two participants: 10 years of 5-minute rounds.
    const agents = [await createAgent(s, ADMIN_KEY, 'Long A'), await createAgent(s, ADMIN_KEY, 'Long B')];
    const started = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Forever', agentIds: agents.map((a) => a.agentId) } });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    // 1,051,200 (or 1,007,856) rounds x 2, plus the demo's two competitions up to their ends: 2,015 rounds x 3 and x 2.
    const cases = [[{ advanceMs: 10 * 365 * 24 * 3_600_000 }, 'advanceMs', 2_112_475], [{ set: '2035-01-01T00:00:00Z' }, 'set', 2_025_787]] as const;
    for (const [body, where, rows] of cases) {
      expectError(await clock(body), 400, `Invalid request: ${where} (the move would create ${rows} portfolio snapshot rows `
        + '(competitions x participants x snapshot rounds), more than the 500000 one request may create: move the clock in smaller steps)');
    }
    expect((await s.call('GET', '/api/sim/clock', { key: ADMIN_KEY })).body.now).to.equal('2025-06-02T12:00:00.000Z');
  });

  it('sets the time forward, auto-starting and auto-ending competitions (200)', async () => {
    const started = await clock({ set: '2025-06-03T12:00:00Z', details: true });
    expect(started.body.now).to.equal('2025-06-03T12:00:00.000Z');
    expect(started.body.jobs).to.deep.include({ kind: 'start', competitionId: summer, at: '2025-06-03T12:00:00.000Z' });
    expect(await status(summer)).to.equal('active');
    const ended = await clock({ set: '2025-06-09T12:00:00.000Z', details: true });
    expect(ended.body.ran.end).to.equal(1);
    expect(await status(spring)).to.equal('ended');
  });

  it('refuses to move time backwards (400)', async () => {
    expectError(await clock({ set: '2025-06-01T00:00:00Z' }), 400,
      'Invalid request: set (time only moves forward: 2025-06-01T00:00:00.000Z is before now, 2025-06-02T12:00:00.000Z)');
  });

  it('wants exactly one of advanceMs and set (400)', async () => {
    expectError(await clock({}), 400, 'Invalid request: body (give exactly one of advanceMs or set)');
    expectError(await clock({ advanceMs: 1, set: '2025-07-01T00:00:00Z' }), 400, 'Invalid request: body (give exactly one of advanceMs or set)');
  });

  it('rejects a negative or non-numeric advance and a bad time (400)', async () => {
    expectError(await clock({ advanceMs: -5 }), 400, 'Invalid request: advanceMs (must be >= 0)');
    expectError(await clock({ advanceMs: '60000' }), 400, 'Invalid request: advanceMs (must be number)');
    expectError(await clock({ set: 'tomorrow' }), 400, 'Invalid request: set (invalid datetime)');
  });
});
