// Team-era clients: the bare create body in a team-era world, legacy slippage kept through a start with teamIds, and the team era's snapshots.
import { expect } from 'chai';
import type { TestServer } from '../../helpers/server.js';
import { createAgent } from '../../helpers/actors.js';
import { ADMIN_KEY, expectError, MISSING, registerTeam, SOL, startLegacyServer, USDC, USDC_10K, type Team } from './legacy-helpers.js';

describe('team-era clients on the shared admin competition endpoints', () => {
  let s: TestServer;
  let a: Team;
  let b: Team;
  beforeEach(async () => {
    s = await startLegacyServer();
    a = await registerTeam(s, 'Alpha');
    b = await registerTeam(s, 'Bravo');
  });
  afterEach(() => s.close());
  const admin = (path: string, body: unknown) => s.call('POST', path, { key: ADMIN_KEY, body });
  const row = (id: string) => s.world.deps.store.read((tx) => tx.get('competitions', id)!);

  it('a bare {name, description} create in a world of teams answers the legacy PENDING object and fixes the legacy formula', async () => {
    const res = await admin('/api/admin/competition/create', { name: 'Bare Cup', description: 'd' });
    expect(res.status).to.equal(201);
    expect(res.body.competition).to.include({ name: 'Bare Cup', description: 'd', status: 'PENDING', startDate: null, endDate: null });
    expect(res.body.competition).to.not.have.any.keys('type', 'crossChainTradingType', 'sandboxMode', 'rewards');
    expect((await row(res.body.competition.id)).slippageModel).to.equal('legacy');
  });

  it('the same body is a current competition once the world holds a current agent, or with any current field', async () => {
    const withField = await admin('/api/admin/competition/create', { name: 'Typed', type: 'trading' });
    expect(withField.body.competition.status).to.equal('pending');
    await createAgent(s, ADMIN_KEY, 'Modern');
    const res = await admin('/api/admin/competition/create', { name: 'Bare Cup', description: 'd' });
    expect(res.body.competition).to.include({ status: 'pending', type: 'trading' });
    expect((await row(res.body.competition.id)).slippageModel).to.equal(undefined);
  });

  it('a competition created without a formula and started with teamIds takes the legacy one; an explicit current one is kept', async () => {
    await createAgent(s, ADMIN_KEY, 'Modern'); // so the bare create is a current one
    const plain = (await admin('/api/admin/competition/create', { name: 'Plain', paperTradingInitialBalances: USDC_10K })).body.competition;
    const started = await admin('/api/admin/competition/start', { competitionId: plain.id, teamIds: [a.teamId] });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    expect(started.body.competition.status).to.equal('ACTIVE');
    expect((await row(plain.id)).slippageModel).to.equal('legacy');
    const chosen = (await admin('/api/admin/competition/create', { name: 'Chosen', slippageModel: 'current' })).body.competition;
    expect((await admin('/api/admin/competition/start', { competitionId: chosen.id, teamIds: [b.teamId] })).status).to.equal(200);
    expect((await row(chosen.id)).slippageModel).to.equal('current');
  });

  it('GET /api/admin/competition/{id}/snapshots gives a legacy competition the team era\'s shape, oldest first per team, ?teamId=', async () => {
    const cid = (await admin('/api/admin/competition/start', { name: 'Snap Cup', teamIds: [a.teamId, b.teamId], paperTradingInitialBalances: USDC_10K })).body.competition.id;
    await s.world.advance(s.world.config.snapshotIntervalMs);
    const res = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY });
    expect(res.status).to.equal(200);
    expect(res.body.snapshots.map((x: any) => x.teamId)).to.deep.equal([a.teamId, a.teamId, b.teamId, b.teamId]);
    const first = res.body.snapshots[0];
    expect(Object.keys(first)).to.deep.equal(['teamId', 'competitionId', 'timestamp', 'totalValue', 'valuesByToken']);
    expect(first).to.deep.include({ competitionId: cid, timestamp: '2025-01-01T00:00:00.000Z', totalValue: 10000 });
    expect(first.valuesByToken).to.deep.equal({ [USDC]: { amount: 10000, valueUsd: 10000 } });
    expect(res.body.snapshots[1].timestamp > first.timestamp).to.equal(true);
    const one = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { teamId: b.teamId } });
    expect(one.body.snapshots.map((x: any) => x.teamId)).to.deep.equal([b.teamId, b.teamId]);
    expectError(await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { teamId: MISSING } }), 404, 'Team not found');
    const outsider = await registerTeam(s, 'Outsider');
    expectError(await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { teamId: outsider.teamId } }), 400,
      'Team is not participating in this competition');
  });

  it('a legacy snapshot leaves an unpriced token out of valuesByToken and the total, and is still taken', async () => {
    const cid = (await admin('/api/admin/competition/start', {
      name: 'Gap Cup', teamIds: [a.teamId], paperTradingInitialBalances: [...USDC_10K, { specificChain: 'svm', tokenSymbol: 'sol', amount: 2 }],
    })).body.competition.id;
    expect((await s.call('POST', '/api/sim/faults', { key: ADMIN_KEY, body: { kind: 'priceMissing', token: SOL } })).status).to.equal(200);
    await s.world.advance(s.world.config.snapshotIntervalMs);
    const snaps = (await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY })).body.snapshots;
    expect(snaps).to.have.length(2);
    expect(snaps[0].totalValue).to.equal(10300);
    expect(snaps[1].totalValue).to.equal(10000);
    expect(Object.keys(snaps[1].valuesByToken)).to.deep.equal([USDC]);
  });
});
