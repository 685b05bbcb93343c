// Agent join and leave: every check in upstream's order, counters, the join window, the rejoin quirk, kept history.
import { expect } from 'chai';
import { DomainError } from '../../src/domain/errors.js';
import { joinCompetition, leaveCompetition } from '../../src/domain/competitions/join-leave.js';
import type { Principal, Trade } from '../../src/domain/model.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { createAgent, createCompetition, expectError, nextWallet } from '../helpers/actors.js';
import { playCup } from '../helpers/rankings.js';

const MISSING = '00000000-0000-4000-8000-000000000000';
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const HOUR = 3_600_000;

type Actor = Awaited<ReturnType<typeof createAgent>>;

const path = (cid: string, aid: string) => `/api/competitions/${cid}/agents/${aid}`;

function setup() {
  const ctx = {} as { s: TestServer; a: Actor };
  beforeEach(async () => {
    ctx.s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    ctx.a = await createAgent(ctx.s, ADMIN_KEY, 'Joiner');
  });
  afterEach(() => ctx.s.close());
  return ctx;
}

async function competitionRow(s: TestServer, cid: string) {
  return (await s.world.deps.store.read((tx) => tx.get('competitions', cid)))!;
}

async function registration(s: TestServer, cid: string, aid: string) {
  return s.world.deps.store.read((tx) => tx.get('competitionAgents', `${cid}:${aid}`));
}

/** Calls a domain function and returns the DomainError it throws (for checks no agent key can reach). */
async function domainError(p: Promise<unknown>): Promise<DomainError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a DomainError');
}

describe('POST /api/competitions/{competitionId}/agents/{agentId}', () => {
  const ctx = setup();
  const join = (cid: string, aid: string, key?: string) => ctx.s.call('POST', path(cid, aid), key === undefined ? {} : { key });

  it('registers the calling agent in a pending competition and counts it (200)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY);
    const res = await join(c.id, a.agentId, a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, message: 'Successfully joined competition' });
    expect(await registration(s, c.id, a.agentId)).to.include({ status: 'active', deactivationReason: null });
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(1);
    expect(await s.world.deps.store.read((tx) => tx.count('balances'))).to.equal(0);
  });

  it('requires a key (401) and rejects an admin key, which has no agent identity (401)', async () => {
    const c = await createCompetition(ctx.s, ADMIN_KEY);
    expectError(await join(c.id, ctx.a.agentId), 401,
      '[AuthMiddleware] Authentication required. No API key provided. Use Authorization: Bearer YOUR_API_KEY');
    expectError(await join(c.id, ctx.a.agentId, ADMIN_KEY), 401, 'Authentication required');
  });

  it('answers non-uuid path ids with 400 naming the parameter', async () => {
    const c = await createCompetition(ctx.s, ADMIN_KEY);
    expectError(await join('nope', ctx.a.agentId, ctx.a.apiKey), 400, 'Invalid UUID');
    expectError(await join(c.id, 'nope', ctx.a.apiKey), 400, 'Invalid UUID');
  });

  it("rejects another agent's id (403) before looking anything up", async () => {
    const other = await createAgent(ctx.s, ADMIN_KEY, 'Other');
    expectError(await join(MISSING, other.agentId, ctx.a.apiKey), 403, 'Agent API key does not match agent ID in URL');
  });

  it('rejects an unknown agent (404, domain-level: no agent key can name one)', async () => {
    const principal: Principal = { kind: 'agent', agentId: MISSING, ownerId: ctx.a.userId, generation: 'current' };
    const c = await createCompetition(ctx.s, ADMIN_KEY);
    const err = await domainError(joinCompetition(ctx.s.world.deps, { principal, competitionId: c.id, agentId: MISSING }));
    expect([err.status, err.message]).to.deep.equal([404, `Agent not found: ${MISSING}`]);
  });

  it('rejects an unknown competition (404 naming the id)', async () => {
    expectError(await join(MISSING, ctx.a.agentId, ctx.a.apiKey), 404, `Competition not found: ${MISSING}`);
  });

  it('enforces the join window with inclusive bounds (403 with ISO instants)', async () => {
    const { s } = ctx;
    const c = await createCompetition(s, ADMIN_KEY, {
      joinStartDate: new Date(T0 + HOUR).toISOString(), joinEndDate: new Date(T0 + 2 * HOUR).toISOString(),
    });
    const [b, d, e] = [await createAgent(s, ADMIN_KEY, 'B'), await createAgent(s, ADMIN_KEY, 'D'), await createAgent(s, ADMIN_KEY, 'E')];
    expectError(await join(c.id, ctx.a.agentId, ctx.a.apiKey), 403, 'Competition joining opens at 2025-01-01T01:00:00.000Z');
    await s.world.setTime(T0 + HOUR - 1);
    expectError(await join(c.id, ctx.a.agentId, ctx.a.apiKey), 403, 'Competition joining opens at 2025-01-01T01:00:00.000Z');
    await s.world.setTime(T0 + HOUR);
    expect((await join(c.id, ctx.a.agentId, ctx.a.apiKey)).status).to.equal(200);
    await s.world.setTime(T0 + 2 * HOUR);
    expect((await join(c.id, b.agentId, b.apiKey)).status).to.equal(200);
    await s.world.setTime(T0 + 2 * HOUR + 1);
    expectError(await join(c.id, d.agentId, d.apiKey), 403, 'Competition joining closed at 2025-01-01T02:00:00.000Z');
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(2);
    // The window takes precedence over the status check.
    await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { competitionId: c.id } });
    expectError(await join(c.id, e.agentId, e.apiKey), 403, 'Competition joining closed at 2025-01-01T02:00:00.000Z');
  });

  it('rejects a suspended or deleted agent (403, domain-level: such keys do not authenticate)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY);
    const principal: Principal = { kind: 'agent', agentId: a.agentId, ownerId: a.userId, generation: 'current' };
    for (const status of ['suspended', 'deleted'] as const) {
      await s.world.deps.store.transact((tx) => { tx.put('agents', { ...(tx.get('agents', a.agentId))!, status }); });
      const err = await domainError(joinCompetition(s.world.deps, { principal, competitionId: c.id, agentId: a.agentId }));
      expect([err.status, err.message]).to.deep.equal([403, 'Agent is not eligible to join competitions']);
    }
  });

  it('requires a wallet for perpetual futures and spot-live competitions (400), before the status check', async () => {
    for (const type of ['perpetual_futures', 'spot_live_trading']) {
      const c = await createCompetition(ctx.s, ADMIN_KEY, { type });
      expectError(await join(c.id, ctx.a.agentId, ctx.a.apiKey), 400, 'Agent must have a wallet address to participate in this competition');
    }
    const walleted = await createAgent(ctx.s, ADMIN_KEY, 'Walleted', { agentWalletAddress: nextWallet() });
    const perps = await createCompetition(ctx.s, ADMIN_KEY, { type: 'perpetual_futures' });
    expect((await join(perps.id, walleted.agentId, walleted.apiKey)).status).to.equal(200);
    const live = await ctx.s.call('POST', '/api/admin/competition/start', {
      key: ADMIN_KEY, body: { name: 'Spot', type: 'spot_live_trading', agentIds: [walleted.agentId] },
    });
    expect(live.body.competition.status).to.equal('active');
    expectError(await join(live.body.competition.id, ctx.a.agentId, ctx.a.apiKey), 400, 'Agent must have a wallet address to participate in this competition');
  });

  it('rejects active, ending and ended competitions (403)', async () => {
    const { s, a } = ctx;
    const first = await createAgent(s, ADMIN_KEY, 'First');
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Live', agentIds: [first.agentId] } });
    const cid = start.body.competition.id;
    expectError(await join(cid, a.agentId, a.apiKey), 403, 'Cannot join competition that has already started/ended');
    await s.world.deps.store.transact((tx) => { tx.put('competitions', { ...(tx.get('competitions', cid))!, status: 'ending' }); });
    expectError(await join(cid, a.agentId, a.apiKey), 403, 'Cannot join competition that has already started/ended');
    await s.world.deps.store.transact((tx) => { tx.put('competitions', { ...(tx.get('competitions', cid))!, status: 'active' }); });
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
    expectError(await join(cid, a.agentId, a.apiKey), 403, 'Cannot join competition that has already started/ended');
  });

  it('rejects a second join of an active registration (403)', async () => {
    const c = await createCompetition(ctx.s, ADMIN_KEY);
    await join(c.id, ctx.a.agentId, ctx.a.apiKey);
    expectError(await join(c.id, ctx.a.agentId, ctx.a.apiKey), 403, 'Agent is already actively registered for this competition');
    expect((await competitionRow(ctx.s, c.id)).registeredParticipants).to.equal(1);
  });

  it('applies the blocklist, VIPs and allowlist-only rules (403)', async () => {
    const { s, a } = ctx;
    const vip = await createAgent(s, ADMIN_KEY, 'Vip');
    const listed = await createAgent(s, ADMIN_KEY, 'Listed');
    const blocked = await createCompetition(s, ADMIN_KEY, { blocklist: [a.agentId], vips: [a.agentId] });
    expectError(await join(blocked.id, a.agentId, a.apiKey), 403, 'This agent is not permitted to join this competition');
    const only = await createCompetition(s, ADMIN_KEY, { allowlistOnly: true, allowlist: [listed.agentId], vips: [vip.agentId] });
    expectError(await join(only.id, a.agentId, a.apiKey), 403, 'This competition is allowlist-only. Your agent is not on the allowlist');
    expect((await join(only.id, listed.agentId, listed.apiKey)).status).to.equal(200);
    expect((await join(only.id, vip.agentId, vip.apiKey)).status).to.equal(200);
    // Upstream answers an empty allowlist with its text and a 500; compsim keeps the text with a 400.
    const empty = await createCompetition(s, ADMIN_KEY, { allowlistOnly: true });
    expectError(await join(empty.id, a.agentId, a.apiKey), 400,
      'This competition is misconfigured: allowlist-only mode is enabled but no allowlist is defined. Please contact an administrator.');
    expect((await competitionRow(s, empty.id)).registeredParticipants).to.equal(0);
  });

  it('enforces minRecallRank with the global rank of the competition\'s type (403); an allowlisted agent skips it', async () => {
    const { s, a } = ctx;
    const top = await createAgent(s, ADMIN_KEY, 'Top', { agentWalletAddress: nextWallet() });
    const [second, third] = [await createAgent(s, ADMIN_KEY, 'Second'), await createAgent(s, ADMIN_KEY, 'Third')];
    await playCup(s, 'Rating Cup', [top, second, third], [30, 20, 10]);
    const c = await createCompetition(s, ADMIN_KEY, { minRecallRank: 2, allowlist: [a.agentId] });
    expectError(await join(c.id, third.agentId, third.apiKey), 403, "This competition requires a minimum Recall rank of 2. Your agent's current rank is 3.");
    const unrated = await createAgent(s, ADMIN_KEY, 'Unrated');
    expectError(await join(c.id, unrated.agentId, unrated.apiKey), 403,
      'This competition requires a minimum Recall rank of 2. Your agent has not yet established a rank.');
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(0);
    expect((await join(c.id, top.agentId, top.apiKey)).status).to.equal(200);
    expect((await join(c.id, a.agentId, a.apiKey)).status).to.equal(200); // unrated, but on the (non-exclusive) allowlist
    // Ranks are per competition type: the paper-trading winner has no perps rank.
    const perps = await createCompetition(s, ADMIN_KEY, { type: 'perpetual_futures', minRecallRank: 5 });
    expectError(await join(perps.id, top.agentId, top.apiKey), 403,
      'This competition requires a minimum Recall rank of 5. Your agent has not yet established a rank.');
    // minRecallRank has no lower bound upstream.
    expect((await createCompetition(s, ADMIN_KEY, { minRecallRank: 0 })).minRecallRank).to.equal(0);
  });

  it('enforces the participant limit (409)', async () => {
    const { s, a } = ctx;
    const b = await createAgent(s, ADMIN_KEY, 'Second');
    const c = await createCompetition(s, ADMIN_KEY, { maxParticipants: 1 });
    await join(c.id, a.agentId, a.apiKey);
    expectError(await join(c.id, b.agentId, b.apiKey), 409, 'Competition has reached maximum participant limit (1)');
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(1);
  });

  it("rejects a second agent of the same owner with the join endpoint's wording (409)", async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY);
    await join(c.id, a.agentId, a.apiKey);
    const sibling = await s.call('POST', '/api/admin/agents', { key: ADMIN_KEY, body: { user: { id: a.userId }, agent: { name: 'Sibling' } } });
    expectError(await join(c.id, sibling.body.agent.id, sibling.body.agent.apiKey), 409,
      'You already have an agent registered in this competition. Each user can only register one agent per competition.');
    // The admin add route keeps its own wording for the same rule.
    expectError(await s.call('POST', `/api/admin/competitions/${c.id}/agents/${sibling.body.agent.id}`, { key: ADMIN_KEY }), 409,
      'This user already has another agent registered in this competition. Each user can only register one agent per competition.');
  });

  it('answers 200 to a withdrawn agent joining again, which stays withdrawn (upstream quirk)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY, { name: 'Again' });
    await join(c.id, a.agentId, a.apiKey);
    await s.call('DELETE', path(c.id, a.agentId), { key: a.apiKey });
    const res = await join(c.id, a.agentId, a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, message: 'Successfully joined competition' });
    expect(await registration(s, c.id, a.agentId)).to.include({ status: 'withdrawn', deactivationReason: 'Withdrew from competition Again before it started' });
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(0);
  });
});

describe('DELETE /api/competitions/{competitionId}/agents/{agentId}', () => {
  const ctx = setup();
  const leave = (cid: string, aid: string, key?: string) => ctx.s.call('DELETE', path(cid, aid), key === undefined ? {} : { key });
  const startWith = async (name: string, ...agentIds: string[]) =>
    (await ctx.s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name, agentIds } })).body.competition.id as string;

  it('withdraws from a pending competition with the "before it started" reason (200)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY, { name: 'Soon' });
    await s.call('POST', path(c.id, a.agentId), { key: a.apiKey });
    await s.world.advance(60_000);
    const res = await leave(c.id, a.agentId, a.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, message: 'Successfully left competition' });
    expect(await registration(s, c.id, a.agentId)).to.include({
      status: 'withdrawn', deactivationReason: 'Withdrew from competition Soon before it started', deactivatedAt: T0 + 60_000,
    });
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(0);
  });

  it('withdraws from an active competition and keeps balances, trades and snapshots (200)', async () => {
    const { s, a } = ctx;
    const other = await createAgent(s, ADMIN_KEY, 'Stayer');
    const cid = await startWith('Live Cup', a.agentId, other.agentId);
    const trade: Trade = {
      id: 'trade-1', agentId: a.agentId, competitionId: cid, fromToken: 'x', toToken: 'y', fromAmount: 1, toAmount: 2,
      tradeAmountUsd: 1, toTokenSymbol: 'Y', fromTokenSymbol: 'X', reason: 'test', timestamp: T0, fromChain: 'svm', toChain: 'svm',
      fromSpecificChain: 'svm', toSpecificChain: 'svm', slippage: 0,
    };
    await s.world.deps.store.transact((tx) => { tx.insert('trades', trade); });
    const history = () => s.world.deps.store.read((tx) => ({
      balances: (tx.find('balances', 'agentCompetition', `${a.agentId}:${cid}`)).length,
      trades: (tx.find('trades', 'agentCompetition', `${a.agentId}:${cid}`)).length,
      snapshots: (tx.find('snapshots', 'agentCompetition', `${a.agentId}:${cid}`)).length,
    }));
    const before = await history();
    expect(before.balances).to.be.greaterThan(0);
    expect(before.snapshots).to.equal(1);
    expect((await leave(cid, a.agentId, a.apiKey)).status).to.equal(200);
    expect(await registration(s, cid, a.agentId)).to.include({ status: 'withdrawn', deactivationReason: 'Withdrew from competition Live Cup' });
    expect((await competitionRow(s, cid)).registeredParticipants).to.equal(1);
    expect(await history()).to.deep.equal({ ...before, trades: 1 });
    // A withdrawn agent drops out of the periodic snapshots; the stayer does not.
    await s.world.advance(s.world.config.snapshotIntervalMs);
    expect((await history()).snapshots).to.equal(1);
    const stayer = await s.world.deps.store.read((tx) => tx.find('snapshots', 'agentCompetition', `${other.agentId}:${cid}`));
    expect(stayer).to.have.length(2);
  });

  it('answers 200 and changes nothing for an already withdrawn agent', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY);
    await s.call('POST', path(c.id, a.agentId), { key: a.apiKey });
    await leave(c.id, a.agentId, a.apiKey);
    const reg = await registration(s, c.id, a.agentId);
    await s.world.advance(1000);
    expect((await leave(c.id, a.agentId, a.apiKey)).status).to.equal(200);
    expect(await registration(s, c.id, a.agentId)).to.deep.equal(reg);
  });

  it('turns a disqualified registration into a withdrawn one without touching the counter (200, as upstream)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY, { name: 'Dq' });
    await s.call('POST', path(c.id, a.agentId), { key: a.apiKey });
    await s.call('POST', `/api/admin/competitions/${c.id}/agents/${a.agentId}/remove`, { key: ADMIN_KEY, body: { reason: 'x' } });
    expect((await leave(c.id, a.agentId, a.apiKey)).status).to.equal(200);
    expect(await registration(s, c.id, a.agentId)).to.include({ status: 'withdrawn', deactivationReason: 'Withdrew from competition Dq before it started' });
    expect((await competitionRow(s, c.id)).registeredParticipants).to.equal(0);
  });

  it('requires an agent key (401), the path agent (403), known ids (404) and uuids (400)', async () => {
    const { s, a } = ctx;
    const c = await createCompetition(s, ADMIN_KEY);
    const other = await createAgent(s, ADMIN_KEY, 'Other');
    expectError(await leave(c.id, a.agentId, ADMIN_KEY), 401, 'Authentication required');
    expectError(await leave(c.id, other.agentId, a.apiKey), 403, 'Agent API key does not match agent ID in URL');
    expectError(await leave(MISSING, a.agentId, a.apiKey), 404, `Competition not found: ${MISSING}`);
    expectError(await leave('x', a.agentId, a.apiKey), 400, 'Invalid UUID');
    const principal: Principal = { kind: 'agent', agentId: MISSING, ownerId: a.userId, generation: 'current' };
    const err = await domainError(leaveCompetition(s.world.deps, { principal, competitionId: c.id, agentId: MISSING }));
    expect([err.status, err.message]).to.deep.equal([404, `Agent not found: ${MISSING}`]);
  });

  it('rejects an agent that is not in the competition (403), checked before the ended status', async () => {
    const { s, a } = ctx;
    const other = await createAgent(s, ADMIN_KEY, 'Other');
    const cid = await startWith('Closed', other.agentId);
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
    expectError(await leave(cid, a.agentId, a.apiKey), 403, 'Agent is not in this competition');
  });

  it('refuses to leave an ended competition (403)', async () => {
    const { s, a } = ctx;
    const cid = await startWith('Over', a.agentId);
    await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
    expectError(await leave(cid, a.agentId, a.apiKey), 403, 'Cannot leave competition that has already ended');
    expect((await registration(s, cid, a.agentId))!.status).to.equal('active');
  });

  it('answers 200 and changes nothing while the competition is ending', async () => {
    const { s, a } = ctx;
    const cid = await startWith('Closing', a.agentId);
    await s.world.deps.store.transact((tx) => { tx.put('competitions', { ...(tx.get('competitions', cid))!, status: 'ending' }); });
    expect((await leave(cid, a.agentId, a.apiKey)).status).to.equal(200);
    expect((await registration(s, cid, a.agentId))!.status).to.equal('active');
    expect((await competitionRow(s, cid)).registeredParticipants).to.equal(1);
  });
});
