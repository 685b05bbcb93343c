// Admin participation: add (pending, sandbox, rules), remove, reactivate, and the snapshots listing.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('POST /api/admin/competitions/{competitionId}/agents/{agentId}', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof createAgent>>;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    a = await createAgent(s, ADMIN_KEY, 'Joiner');
  });
  afterEach(() => s.close());
  const add = (cid: string, aid: string) => s.call('POST', `/api/admin/competitions/${cid}/agents/${aid}`, { key: ADMIN_KEY });

  it('adds an agent to a pending competition without touching balances (200)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { name: 'Pend' });
    const res = await add(c.id, a.agentId);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true, message: 'Agent Joiner successfully added to competition Pend',
      agent: { id: a.agentId, name: 'Joiner', handle: a.agent.handle, ownerId: a.userId },
      competition: { id: c.id, name: 'Pend', status: 'pending' },
    });
    expect(await s.world.deps.store.read((tx) => tx.count('balances'))).to.equal(0);
  });

  it('funds and snapshots an agent added to an active sandbox competition (200)', async () => {
    const first = await createAgent(s, ADMIN_KEY, 'First');
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Sandbox', sandboxMode: true, agentIds: [first.agentId] } });
    const cid = start.body.competition.id;
    expect((await add(cid, a.agentId)).status).to.equal(200);
    const snaps = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: a.agentId } });
    expect(snaps.body.snapshots).to.have.length(1);
    expect(snaps.body.snapshots[0].totalValue).to.equal(21100);
  });

  it('rejects unknown ids, duplicates, ended and active non-sandbox competitions', async () => {
    const c = await createCompetition(s, ADMIN_KEY);
    expectError(await add(MISSING, a.agentId), 404, 'Competition not found');
    expectError(await add(c.id, MISSING), 404, 'Agent not found');
    await add(c.id, a.agentId);
    expectError(await add(c.id, a.agentId), 400, 'Agent is already participating in this competition');
    const other = await createAgent(s, ADMIN_KEY, 'Late');
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: c.id } });
    expectError(await add(c.id, other.agentId), 400, 'Cannot add agents to active non-sandbox competitions - this would be unfair to existing participants');
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: c.id } });
    expectError(await add(c.id, other.agentId), 400, 'Cannot add agent to ended competition');
  });

  it('enforces the participant limit and one agent per owner (409)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { maxParticipants: 1 });
    await add(c.id, a.agentId);
    const b = await createAgent(s, ADMIN_KEY, 'Second');
    expectError(await add(c.id, b.agentId), 409, 'Competition has reached maximum participant limit (1)');
    const c2 = await createCompetition(s, ADMIN_KEY);
    await add(c2.id, a.agentId);
    const sibling = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: { id: a.userId }, agent: { name: 'Sibling' } } });
    expectError(await add(c2.id, sibling.body.agent.id), 409,
      'This user already has another agent registered in this competition. Each user can only register one agent per competition.');
  });

  it('requires a wallet for perpetual futures competitions (400)', async () => {
    const c = await createCompetition(s, ADMIN_KEY, { type: 'perpetual_futures' });
    expectError(await add(c.id, a.agentId), 400, 'Agent must have a wallet address to participate in this competition');
  });
});

describe('POST /api/admin/competitions/{competitionId}/agents/{agentId}/remove and /reactivate', () => {
  let s: TestServer;
  let a: Awaited<ReturnType<typeof createAgent>>;
  let cid: string;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    a = await createAgent(s, ADMIN_KEY, 'Player');
    cid = (await createCompetition(s, ADMIN_KEY, { name: 'Rules' })).id;
  });
  afterEach(() => s.close());
  const remove = (aid: string, body: object = { reason: 'cheating' }) => s.call('POST', `/api/admin/competitions/${cid}/agents/${aid}/remove`, { key: ADMIN_KEY, body });
  const reactivate = (c: string, aid: string) => s.call('POST', `/api/admin/competitions/${c}/agents/${aid}/reactivate`, { key: ADMIN_KEY });

  it('disqualifies with reason "Admin removal: <reason>" (200) and reactivates (200)', async () => {
    await s.call('POST', `/api/admin/competitions/${cid}/agents/${a.agentId}`, { key: ADMIN_KEY });
    const res = await remove(a.agentId);
    expect(res.body).to.deep.equal({
      success: true, message: 'Agent Player removed from competition Rules',
      agent: { id: a.agentId, name: 'Player', handle: a.agent.handle }, competition: { id: cid, name: 'Rules' }, reason: 'cheating',
    });
    const reg = await s.world.deps.store.read((tx) => tx.get('competitionAgents', `${cid}:${a.agentId}`));
    expect(reg).to.include({ status: 'disqualified', deactivationReason: 'Admin removal: cheating' });
    expect((await s.world.deps.store.read((tx) => tx.get('competitions', cid)))!.registeredParticipants).to.equal(0);
    const back = await reactivate(cid, a.agentId);
    expect(back.body.message).to.equal('Agent Player reactivated in competition Rules');
    expect((await s.world.deps.store.read((tx) => tx.get('competitionAgents', `${cid}:${a.agentId}`)))!.status).to.equal('active');
  });

  it('rejects removal without a reason or of a non-participant (400)', async () => {
    expectError(await remove(a.agentId, {}), 400, 'Invalid request: reason (required)');
    expectError(await remove(a.agentId), 400, 'Agent is not participating in this competition');
    expectError(await reactivate(cid, a.agentId), 400, 'Agent is not in this competition');
    expectError(await reactivate(MISSING, a.agentId), 404, 'Competition not found');
  });

  it('refuses to reactivate in an ended competition (400)', async () => {
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Done', agentIds: [a.agentId] } });
    const id = start.body.competition.id;
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: id } });
    expectError(await reactivate(id, a.agentId), 400, 'Cannot reactivate agent in ended competition');
  });
});

describe('GET /api/admin/competition/{competitionId}/snapshots', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }); });
  after(() => s.close());

  it('lists snapshots newest first per agent, filtered by agentId (200), with 404/400 rejections', async () => {
    const a = await createAgent(s, ADMIN_KEY, 'Snap');
    const outsider = await createAgent(s, ADMIN_KEY, 'Outsider');
    const res = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Snaps', agentIds: [a.agentId] } });
    const cid = res.body.competition.id;
    await s.world.advance(600_000);
    const snaps = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: a.agentId } });
    expect(snaps.body.snapshots.map((x: { timestamp: string }) => x.timestamp)).to.deep.equal(['2025-01-01T00:10:00.000Z', '2025-01-01T00:05:00.000Z', '2025-01-01T00:00:00.000Z']);
    expectError(await s.call('GET', `/api/admin/competition/${MISSING}/snapshots`, { key: ADMIN_KEY }), 404, 'Competition not found');
    expectError(await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: MISSING } }), 404, 'Agent not found');
    expectError(await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: outsider.agentId } }), 400, 'Agent is not participating in this competition');
  });
});
