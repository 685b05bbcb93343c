// A scripted perps competition (timed opens/closes, a SOL price tape) replayed on virtual time: equity snapshots, Calmar ranking and the final leaderboard by hand.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { WorldFixture } from '../../src/world/fixture.js';
import { expectError } from '../helpers/actors.js';
import { MINUTE, loadScript, tapedPerpsCup, type Actor } from '../helpers/perps.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';


describe('perps ranking on a scripted equity path', () => {
  let s: TestServer;
  let A: Actor;
  let B: Actor;
  let C: Actor;
  let cid: string;
  let t0: number;

  beforeEach(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    ({ A, B, C, cid, t0 } = await tapedPerpsCup(s, 'Scripted Perps'));
    await loadScript(s, cid, [
      { afterMs: MINUTE, action: 'open', ref: 'a-long', agentId: A.agentId, asset: 'SOL', side: 'long', sizeUsd: 10000, leverage: 2 },
      { at: new Date(t0 + MINUTE).toISOString(), action: 'open', ref: 'b-short', agentHandle: 'bravo', asset: 'SOL', side: 'short', sizeUsd: 1000, leverage: 1 },
      { afterMs: 2 * MINUTE, action: 'open', agentId: C.agentId, asset: 'DOGE', side: 'long', sizeUsd: 100, leverage: 1 },
      { at: t0 + 12 * MINUTE, action: 'close', ref: 'b-short' },
    ]);
  });
  afterEach(() => s.close());

  it('runs the script at its virtual times and snapshots equity every 5 minutes (hand computation)', async () => {
    const jobs = await s.world.advance(20 * MINUTE);
    expect(jobs.map((j) => [j.kind, (j.at - t0) / MINUTE])).to.deep.equal([
      ['script', 1], ['script', 2], ['snapshot', 5], ['snapshot', 10], ['script', 12], ['snapshot', 15], ['snapshot', 20],
    ]);
    const script = await s.call('GET', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY });
    expect(script.body.actions.map((a: any) => [a.action, a.status, a.error])).to.deep.equal([
      ['open', 'done', null], ['open', 'done', null], ['open', 'failed', 'Unknown perps asset: DOGE'], ['close', 'done', null],
    ]);
    const series = async (a: Actor) => {
      const res = await s.call('GET', `/api/admin/competition/${cid}/snapshots`, { key: ADMIN_KEY, query: { agentId: a.agentId } });
      return res.body.snapshots.map((x: any) => Math.round(x.totalValue * 1e6) / 1e6).reverse();
    };
    // A: 200/3 SOL long from 150; B: 20/3 SOL short from 150, closed at 120 (+200); C: flat.
    expect(await series(A)).to.deep.equal([10000, 11000, 8000, 12000, 12000]);
    expect(await series(B)).to.deep.equal([10000, 9900, 10200, 10200, 10200]);
    expect(await series(C)).to.deep.equal([10000, 10000, 10000, 10000, 10000]);
    const bPositions = await s.call('GET', '/api/agent/perps/positions', { key: B.apiKey, query: { competitionId: cid } });
    expect(bPositions.body.positions[0]).to.include({ status: 'Closed', markPrice: 120, closedAt: new Date(t0 + 12 * MINUTE).toISOString() });
    expect(bPositions.body.positions[0].realizedPnl).to.be.closeTo(200, 1e-9);
  });

  it('ranks by Calmar ratio, not by equity, and fills the participants\' risk fields', async () => {
    await s.world.advance(20 * MINUTE);
    const res = await s.call('GET', `/api/competitions/${cid}/agents`);
    expect(res.status).to.equal(200);
    const rows = res.body.agents;
    // Calmar = simple return / |max drawdown|: B 0.02 / 0.01 = 2; A 0.2 / (3/11) = 0.7333; C 0 / 0.0001 = 0.
    expect(rows.map((r: any) => [r.name, r.rank, Math.round(r.score)])).to.deep.equal([['Bravo', 1, 10200], ['Alpha', 2, 12000], ['Charlie', 3, 10000]]);
    const [b, a, c] = rows;
    expect(b.calmarRatio).to.be.closeTo(2, 1e-9);
    expect(a.calmarRatio).to.be.closeTo(0.2 / (3 / 11), 1e-9);
    expect(c.calmarRatio).to.equal(0);
    expect(a.simpleReturn).to.be.closeTo(0.2, 1e-12);
    expect(a.maxDrawdown).to.be.closeTo(-3 / 11, 1e-12);
    // Sortino: A's steps 0.1, -3/11, 0.5, 0 -> mean 0.0818..., downside sqrt((3/11)^2 / 4) = 3/22 -> 0.6.
    expect(a.sortinoRatio).to.be.closeTo(0.6, 1e-9);
    expect(a.downsideDeviation).to.be.closeTo(3 / 22, 1e-12);
    expect(rows.every((r: any) => r.hasRiskMetrics === true)).to.equal(true);
    const bySortino = await s.call('GET', `/api/competitions/${cid}/agents`, { query: { sort: '-sortinoRatio' } });
    expect(bySortino.body.agents.map((r: any) => r.name)).to.deep.equal(['Bravo', 'Alpha', 'Charlie']);
    const board = await s.call('GET', '/api/competitions/leaderboard', { key: ADMIN_KEY, query: { competitionId: cid } });
    expect(board.body.leaderboard.map((r: any) => r.agentName)).to.deep.equal(['Bravo', 'Alpha', 'Charlie']);
  });

  it('freezes the Calmar order at the end and stores the ratio as the score', async () => {
    await s.world.advance(20 * MINUTE);
    const end = await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } });
    expect(end.status, JSON.stringify(end.body)).to.equal(200);
    const lb = end.body.leaderboard;
    expect(lb.map((r: any) => r.agentId)).to.deep.equal([B.agentId, A.agentId, C.agentId]);
    expect(lb[0].value).to.be.closeTo(2, 1e-9);
    expect(lb[1].value).to.be.closeTo(11 / 15, 1e-9);
    expect(lb[2].value).to.equal(0);
    expect(lb.map((r: any) => Math.round(r.pnl))).to.deep.equal([200, 2000, 0]);
    // After the end: positions valued at the end date, ranks frozen even if prices move.
    s.world.deps.prices.overrides.set({ address: 'So11111111111111111111111111111111111111112', specificChain: 'svm', price: 10 });
    await s.world.advance(60 * MINUTE);
    const aPos = await s.call('GET', '/api/agent/perps/positions', { key: A.apiKey, query: { competitionId: cid } });
    expect(aPos.body.positions[0]).to.include({ status: 'Open', markPrice: 180 });
    const rows = (await s.call('GET', `/api/competitions/${cid}/agents`)).body.agents;
    expect(rows.map((r: any) => r.name)).to.deep.equal(['Bravo', 'Alpha', 'Charlie']);
    expectError(await s.call('POST', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY, body: { actions: [] } }), 400,
      'Competition is not pending or active (status: ended)');
  });

  it('validates a script before storing any of it (400)', async () => {
    const post = (actions: unknown[]) => s.call('POST', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY, body: { actions } });
    expectError(await post([{ action: 'swap', afterMs: 0 }]), 400, 'Invalid request: actions.0.action (must be one of: open, close)');
    expectError(await post([{ action: 'close', afterMs: 0 }]), 400, 'Invalid request: actions.0.ref (a close needs ref or positionId)');
    expectError(await post([{ action: 'open', at: 'soon', agentId: A.agentId, asset: 'SOL', side: 'long', sizeUsd: 1, leverage: 1 }]), 400,
      'Invalid request: actions.0.at (an epoch-ms number or an ISO time, or afterMs >= 0)');
    expectError(await post([{ action: 'open', afterMs: 0, agentHandle: 'nobody', asset: 'SOL', side: 'long', sizeUsd: 1, leverage: 1 }]), 400,
      "Invalid request: actions.0.agentHandle (no agent with handle 'nobody')");
    expectError(await post([{ action: 'open', afterMs: 0, agentId: A.agentId, side: 'long', sizeUsd: 1, leverage: 1 }]), 400, 'Invalid request: actions.0.asset (required)');
    const open = { action: 'open', afterMs: 0, agentId: A.agentId, asset: 'SOL', side: 'long', sizeUsd: 1, leverage: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ asset: 5 }, 'asset (must be a non-empty string)'],
      [{ side: 'up' }, "side (must be 'long' or 'short')"],
      [{ sizeUsd: '10' }, 'sizeUsd (must be a number > 0)'],
      [{ sizeUsd: 0 }, 'sizeUsd (must be a number > 0)'],
      [{ leverage: 51 }, 'leverage (must be a number from 1 to 50)'],
      [{ agentId: 5 }, 'agentId (must be a string)'],
      [{ ref: 7 }, 'ref (must be string)'], // the route's schema answers first
    ];
    for (const [bad, reason] of cases) expectError(await post([open, { ...open, ...bad }]), 400, `Invalid request: actions.1.${reason}`);
    expectError(await post([{ action: 'close', afterMs: 0, positionId: 7 }]), 400, 'Invalid request: actions.0.positionId (must be a non-empty string)');
    expect((await s.call('GET', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY })).body.actions).to.have.length(4);
    const paper = await s.call('POST', '/api/admin/competition/create', { key: ADMIN_KEY, body: { name: 'Paper' } });
    expectError(await s.call('POST', `/api/admin/competitions/${paper.body.competition.id}/script`, { key: ADMIN_KEY, body: { actions: [] } }), 400,
      'Scripted actions are only available for perpetual futures and spot live trading competitions');
  });
});

describe('the shipped perps script fixture (fixtures/scripts/perps-demo.json)', () => {
  it('runs on the demo world\'s agents: every action done, positions and accounts follow', async () => {
    const root = new URL('../../', import.meta.url);
    const fixture = JSON.parse(readFileSync(new URL('fixtures/worlds/demo.json', root), 'utf8')) as WorldFixture;
    const s = await startTestServer({ fixture, admin: { apiKey: ADMIN_KEY } });
    try {
      const agents = s.world.fixture.agents;
      const start = await s.call('POST', '/api/admin/competition/start', {
        key: ADMIN_KEY, body: { name: 'Demo Perps', type: 'perpetual_futures', agentIds: agents.map((a) => a.id) },
      });
      expect(start.status, JSON.stringify(start.body)).to.equal(200);
      const cid = start.body.competition.id;
      const script = JSON.parse(readFileSync(new URL('fixtures/scripts/perps-demo.json', root), 'utf8'));
      expect((await s.call('POST', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY, body: script })).status).to.equal(200);
      await s.world.advance(3 * 60 * MINUTE);
      const actions = (await s.call('GET', `/api/admin/competitions/${cid}/script`, { key: ADMIN_KEY })).body.actions;
      expect(actions.map((a: any) => a.status)).to.deep.equal(['done', 'done', 'done', 'done', 'done']);
      const max = agents.find((a) => a.handle === 'momentum_max')!;
      const pos = (await s.call('GET', '/api/agent/perps/positions', { key: max.apiKey, query: { competitionId: cid } })).body.positions;
      expect(pos.map((p: any) => [p.asset, p.side, p.status, p.leverage, p.collateral])).to.deep.equal([['BTC', 'long', 'Closed', 5, 4000]]);
      const acc = (await s.call('GET', '/api/agent/perps/account', { key: max.apiKey, query: { competitionId: cid } })).body.account;
      expect(Number(acc.totalEquity)).to.be.closeTo(10000 + pos[0].realizedPnl, 1e-6);
    } finally {
      await s.close();
    }
  });
});
