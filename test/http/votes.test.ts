// Admin vote casting (every rejection in order) and the voting-state functions the competition views use.
import { expect } from 'chai';
import { competitionListVotingState, competitionVotingState } from '../../src/domain/competitions/votes.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError } from '../helpers/actors.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const HOUR = 3_600_000;
const WINDOW = { votingStartDate: new Date(T0 + HOUR).toISOString(), votingEndDate: new Date(T0 + 2 * HOUR).toISOString() };

type Actor = Awaited<ReturnType<typeof createAgent>>;

describe('POST /api/admin/competitions/{competitionId}/votes', () => {
  let s: TestServer;
  let candidate: Actor;
  let voter: Actor;
  let cid: string;
  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    candidate = await createAgent(s, ADMIN_KEY, 'Candidate');
    voter = await createAgent(s, ADMIN_KEY, 'Voter');
    cid = (await createCompetition(s, ADMIN_KEY, { name: 'Vote Cup', ...WINDOW })).id;
    await s.call('POST', `/api/admin/competitions/${cid}/agents/${candidate.agentId}`, { key: ADMIN_KEY });
  });
  afterEach(() => s.close());
  const vote = (body: unknown, competitionId = cid, key = ADMIN_KEY) => s.call('POST', `/api/admin/competitions/${competitionId}/votes`, { key, body });
  const setStatus = (status: 'ending' | 'ended') => s.world.deps.store.transact((tx) => {
    tx.put('competitions', { ...(tx.get('competitions', cid))!, status });
  });

  it("casts a user's vote inside the window (201)", async () => {
    await s.world.setTime(T0 + HOUR + 5);
    const res = await vote({ userId: voter.userId, votedAgentId: candidate.agentId });
    expect(res.status).to.equal(201);
    const v = res.body.vote;
    expect(res.body).to.deep.equal({
      success: true, message: 'Vote cast successfully',
      vote: { id: v.id, userId: voter.userId, agentId: candidate.agentId, competitionId: cid, createdAt: '2025-01-01T01:00:00.005Z' },
    });
    const stored = await s.world.deps.store.read((tx) => tx.get('votes', v.id));
    expect(stored).to.deep.equal({ id: v.id, userId: voter.userId, agentId: candidate.agentId, competitionId: cid, createdAt: T0 + HOUR + 5 });
  });

  it("casts an agent owner's vote when given agentId (201), and an agent may vote for itself", async () => {
    await s.world.setTime(T0 + HOUR);
    const res = await vote({ agentId: candidate.agentId, votedAgentId: candidate.agentId });
    expect(res.status).to.equal(201);
    expect(res.body.vote.userId).to.equal(candidate.userId);
  });

  it('accepts votes on both window bounds and rejects just outside them (400 with ISO instants)', async () => {
    const third = await createAgent(s, ADMIN_KEY, 'Third');
    await s.world.setTime(T0 + HOUR - 1);
    expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }), 400, 'Voting has not started yet. Voting begins on 2025-01-01T01:00:00.000Z');
    await s.world.setTime(T0 + HOUR);
    expect((await vote({ userId: voter.userId, votedAgentId: candidate.agentId })).status).to.equal(201);
    await s.world.setTime(T0 + 2 * HOUR);
    expect((await vote({ userId: candidate.userId, votedAgentId: candidate.agentId })).status).to.equal(201);
    await s.world.setTime(T0 + 2 * HOUR + 1);
    expectError(await vote({ userId: third.userId, votedAgentId: candidate.agentId }), 400, 'Voting has ended. Voting ended on 2025-01-01T02:00:00.000Z');
  });

  it('requires exactly one of userId and agentId, and a votedAgentId (400)', async () => {
    const msg = 'Invalid request: body (provide exactly one of userId or agentId)';
    expectError(await vote({ votedAgentId: candidate.agentId }), 400, msg);
    expectError(await vote({ userId: voter.userId, agentId: voter.agentId, votedAgentId: candidate.agentId }), 400, msg);
    expectError(await vote({ userId: voter.userId }), 400, 'Invalid request: votedAgentId (required)');
    expectError(await vote({ userId: 'me', votedAgentId: candidate.agentId }), 400, 'Invalid request: userId (invalid UUID)');
    expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }, 'x'), 400, 'Invalid request: competitionId (invalid UUID)');
  });

  it('requires an admin key (401)', async () => {
    expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }, cid, voter.apiKey), 401,
      'Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.');
  });

  it('rejects an unknown voter: user or agent (404)', async () => {
    await s.world.setTime(T0 + HOUR);
    expectError(await vote({ userId: MISSING, votedAgentId: candidate.agentId }), 404, `User '${MISSING}' does not exist`);
    expectError(await vote({ agentId: MISSING, votedAgentId: candidate.agentId }), 404, `Voting agent '${MISSING}' does not exist`);
    // The voter stands in for upstream's authenticated user, so it is resolved first.
    expectError(await vote({ userId: MISSING, votedAgentId: MISSING }, MISSING), 404, `User '${MISSING}' does not exist`);
  });

  it('rejects an unknown competition or voted agent (404)', async () => {
    await s.world.setTime(T0 + HOUR);
    expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }, MISSING), 404, 'Competition not found');
    expectError(await vote({ userId: voter.userId, votedAgentId: MISSING }), 404, 'Agent not found');
    expectError(await vote({ userId: voter.userId, votedAgentId: MISSING }, MISSING), 404, 'Competition not found');
  });

  it('rejects a voted agent that is not, or no longer, actively participating (400)', async () => {
    await s.world.setTime(T0 + HOUR);
    expectError(await vote({ userId: candidate.userId, votedAgentId: voter.agentId }), 400, 'Agent is not actively participating in this competition');
    await s.call('DELETE', `/api/competitions/${cid}/agents/${candidate.agentId}`, { key: candidate.apiKey });
    expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }), 400, 'Agent is not actively participating in this competition');
  });

  it('rejects competitions whose status does not allow voting (400), before the window check', async () => {
    await s.world.setTime(T0 + 3 * HOUR);
    for (const status of ['ending', 'ended'] as const) {
      await setStatus(status);
      expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }), 400, `Competition status does not allow voting: ${status}`);
    }
  });

  it('accepts votes in an active competition (201)', async () => {
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: cid } });
    await s.world.setTime(T0 + HOUR);
    expect((await vote({ userId: voter.userId, votedAgentId: candidate.agentId })).status).to.equal(201);
  });

  it('rejects competitions without both voting dates (400)', async () => {
    const none = (await createCompetition(s, ADMIN_KEY, { name: 'No votes' })).id;
    const half = (await createCompetition(s, ADMIN_KEY, { name: 'Half', votingStartDate: WINDOW.votingStartDate })).id;
    for (const id of [none, half]) {
      await s.call('POST', `/api/admin/competitions/${id}/agents/${candidate.agentId}`, { key: ADMIN_KEY });
      expectError(await vote({ userId: voter.userId, votedAgentId: candidate.agentId }, id), 400, 'voting is not enabled for this competition');
    }
  });

  it('allows one vote per user per competition, for any agent (409)', async () => {
    const other = await createAgent(s, ADMIN_KEY, 'Other');
    await s.call('POST', `/api/admin/competitions/${cid}/agents/${other.agentId}`, { key: ADMIN_KEY });
    await s.world.setTime(T0 + HOUR);
    expect((await vote({ agentId: voter.agentId, votedAgentId: candidate.agentId })).status).to.equal(201);
    expectError(await vote({ userId: voter.userId, votedAgentId: other.agentId }), 409, 'You have already voted in this competition');
    expect(await s.world.deps.store.read((tx) => tx.count('votes'))).to.equal(1);
  });
});

describe('voting state (domain: competitionVotingState / competitionListVotingState)', () => {
  let s: TestServer;
  let candidate: Actor;
  let voter: Actor;
  let cid: string;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    candidate = await createAgent(s, ADMIN_KEY, 'Candidate');
    voter = await createAgent(s, ADMIN_KEY, 'Voter');
    cid = (await createCompetition(s, ADMIN_KEY, { name: 'State Cup', ...WINDOW })).id;
    await s.call('POST', `/api/admin/competitions/${cid}/agents/${candidate.agentId}`, { key: ADMIN_KEY });
  });
  after(() => s.close());
  const states = (userId: string, now: number) => s.world.deps.store.read((tx) => {
    const comp = (tx.get('competitions', cid))!;
    return { detail: competitionVotingState(tx, comp, userId, now), list: competitionListVotingState(tx, comp, userId, now) };
  });

  it('reports the window before and inside it, then the vote once cast', async () => {
    const early = await states(voter.userId, T0);
    const reason = 'Voting has not started yet. Voting begins on 2025-01-01T01:00:00.000Z';
    expect(early.detail).to.deep.equal({ canVote: false, reason, info: { hasVoted: false } });
    expect(early.list).to.deep.equal(early.detail);
    const open = await states(voter.userId, T0 + HOUR);
    expect(open.detail).to.deep.equal({ canVote: true, info: { hasVoted: false } });
    expect(open.list).to.deep.equal(open.detail);
    await s.world.setTime(T0 + HOUR + 7);
    await s.call('POST', `/api/admin/competitions/${cid}/votes`, { key: ADMIN_KEY, body: { userId: voter.userId, votedAgentId: candidate.agentId } });
    const voted = await states(voter.userId, T0 + HOUR + 8);
    const info = { hasVoted: true, agentId: candidate.agentId, votedAt: T0 + HOUR + 7 };
    expect(voted.detail).to.deep.equal({ canVote: false, reason: 'You have already voted in this competition', info });
    // The list variant does not turn canVote off after the user voted (upstream).
    expect(voted.list).to.deep.equal({ canVote: true, info });
    const late = await states(voter.userId, T0 + 3 * HOUR);
    expect(late.detail).to.deep.equal({ canVote: false, reason: 'Voting has ended. Voting ended on 2025-01-01T02:00:00.000Z', info });
    // Another user is unaffected by this vote.
    expect((await states(candidate.userId, T0 + HOUR)).detail).to.deep.equal({ canVote: true, info: { hasVoted: false } });
  });

  it('reports a status that does not allow voting (detail info carries only hasVoted)', async () => {
    await s.world.deps.store.transact((tx) => { tx.put('competitions', { ...(tx.get('competitions', cid))!, status: 'ended' }); });
    const ended = await states(voter.userId, T0 + HOUR);
    const reason = 'Competition status does not allow voting (ended)';
    expect(ended.detail).to.deep.equal({ canVote: false, reason, info: { hasVoted: true } });
    expect(ended.list).to.deep.equal({ canVote: false, reason, info: { hasVoted: true, agentId: candidate.agentId, votedAt: T0 + HOUR + 7 } });
  });
});
