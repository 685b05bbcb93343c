// Scheduler on virtual time: auto-start, auto-end, snapshot cadence aligned to the start (perps too), sandbox skips.
import { expect } from 'chai';
import { createWorld, type World } from '../../src/world/world.js';
import { setupAdmin } from '../../src/domain/access/admins.js';
import { registerUser } from '../../src/domain/agents/users.js';
import { createCompetition } from '../../src/domain/competitions/create.js';
import { addAgentToCompetition } from '../../src/domain/competitions/admin-participants.js';
import { startCompetition } from '../../src/domain/competitions/lifecycle.js';
import { dueJobs } from '../../src/world/scheduler.js';

const T0 = Date.UTC(2025, 0, 1);
const MIN = 60_000;

async function worldWithAgent(): Promise<{ w: World; agentId: string }> {
  const w = await createWorld({ startTime: T0, snapshotIntervalMs: 5 * MIN });
  await setupAdmin(w.deps, { username: 'a', password: 'password1', email: 'a@x.io' });
  const r = await registerUser(w.deps, { walletAddress: '0x' + '9'.repeat(40), agentName: 'Ticker', agentWalletAddress: '0x' + '8'.repeat(40) });
  return { w, agentId: r.agent!.id };
}

const snapTimes = (w: World, cid: string) =>
  w.deps.store.read((tx) => (tx.find('snapshots', 'competition', cid)).map((x) => (x.timestamp - T0) / MIN));

describe('scheduler', () => {
  it('auto-starts a pending competition at its start date, then snapshots every interval aligned to the start', async () => {
    const { w, agentId } = await worldWithAgent();
    const c = await createCompetition(w.deps, { name: 'Auto', startDate: T0 + 2 * MIN });
    await addAgentToCompetition(w.deps, c.id, agentId);
    const jobs = await w.advance(13 * MIN);
    expect(jobs.map((j) => [j.kind, (j.at - T0) / MIN])).to.deep.equal([['start', 2], ['snapshot', 7], ['snapshot', 12]]);
    const comp = await w.deps.store.read((tx) => tx.get('competitions', c.id));
    expect(comp).to.include({ status: 'active', startDate: T0 + 2 * MIN });
    expect(await snapTimes(w, c.id)).to.deep.equal([2, 7, 12]);
    expect(w.deps.clock.now()).to.equal(T0 + 13 * MIN);
  });

  it('gives the same snapshots whether time moves in one jump or many small steps', async () => {
    const run = async (steps: number[]) => {
      const { w, agentId } = await worldWithAgent();
      const r = await startCompetition(w.deps, { create: { name: 'Steps' }, agentIds: [agentId] });
      for (const s of steps) await w.advance(s);
      return snapTimes(w, r.competition.id);
    };
    expect(await run([31 * MIN])).to.deep.equal(await run([MIN, 9 * MIN, 1000, 20 * MIN - 1000, MIN]));
  });

  it('auto-ends an active competition at its end date with a final snapshot and leaderboard', async () => {
    const { w, agentId } = await worldWithAgent();
    const r = await startCompetition(w.deps, { create: { name: 'Ends', endDate: T0 + 12 * MIN }, agentIds: [agentId] });
    const jobs = await w.advance(60 * MIN);
    expect(jobs.map((j) => [j.kind, (j.at - T0) / MIN])).to.deep.equal([['snapshot', 5], ['snapshot', 10], ['end', 12]]);
    const comp = await w.deps.store.read((tx) => tx.get('competitions', r.competition.id));
    expect(comp).to.include({ status: 'ended', endDate: T0 + 12 * MIN });
    expect(await snapTimes(w, r.competition.id)).to.deep.equal([0, 5, 10, 12]);
    expect(await w.deps.store.read((tx) => tx.count('leaderboards'))).to.equal(1);
  });

  it('skips sandbox competitions for auto-start; perps competitions snapshot account equity on the same cadence', async () => {
    const { w, agentId } = await worldWithAgent();
    await createCompetition(w.deps, { name: 'Sandbox', sandboxMode: true, startDate: T0 });
    const perps = await startCompetition(w.deps, { create: { name: 'Perps', type: 'perpetual_futures' }, agentIds: [agentId] });
    const jobs = await w.advance(30 * MIN);
    expect(jobs.map((j) => [j.kind, (j.at - T0) / MIN])).to.deep.equal([5, 10, 15, 20, 25, 30].map((m) => ['snapshot', m]));
    expect(await snapTimes(w, perps.competition.id)).to.deep.equal([0, 5, 10, 15, 20, 25, 30]);
  });

  it('retries a failing auto-start on the next advance instead of looping', async () => {
    const { w, agentId } = await worldWithAgent();
    const c = await createCompetition(w.deps, { name: 'Empty', startDate: T0 + MIN });
    expect(await w.advance(5 * MIN)).to.deep.equal([]);
    await addAgentToCompetition(w.deps, c.id, agentId);
    const jobs = await w.advance(0);
    expect(jobs.map((j) => j.kind)).to.deep.equal(['start']);
  });

  it('orders jobs due at the same instant: start, then snapshot, then end', () => {
    const base = { startDate: T0, endDate: T0 + 5 * MIN, sandboxMode: false, type: 'trading', lastSnapshotAt: T0 } as const;
    const jobs = dueJobs([
      { ...base, id: 'e', status: 'active', endDate: T0 + 10 * MIN } as never,
      { ...base, id: 'p', status: 'pending', startDate: T0 + 10 * MIN } as never,
      { ...base, id: 's', status: 'active', endDate: null } as never,
    ], T0 + 10 * MIN, 5 * MIN);
    expect(jobs.map((j) => `${j.kind}:${j.competitionId}:${(j.at - T0) / MIN}`)).to.deep.equal(['snapshot:e:5', 'snapshot:s:5', 'start:p:10', 'end:e:10']);
  });
});
