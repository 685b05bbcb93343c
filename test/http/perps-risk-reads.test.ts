// Risk metrics on the perps reads: per-point metrics on the timeline, the leaderboard's risk fields and the agent-competitions summary, checked against hand-computed equity series.
import { expect } from 'chai';
import { MINUTE, loadScript, tapedPerpsCup, type Actor } from '../helpers/perps.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';

/** The six risk fields of a timeline point, as plain numbers (or nulls). */
interface PointRisk {
  calmarRatio: number | null; sortinoRatio: number | null; maxDrawdown: number | null; downsideDeviation: number | null;
  simpleReturn: number | null; annualizedReturn: number | null;
}
const NO_RISK: PointRisk = { calmarRatio: null, sortinoRatio: null, maxDrawdown: null, downsideDeviation: null, simpleReturn: null, annualizedReturn: null };

/**
 * Hand-derived metrics of Alpha's equity prefixes. Equity 10000, 11000, 8000, 12000, 12000 (one
 * snapshot every 5 minutes); per-step returns 0.1, -3/11, 0.5, 0; running peak 11000 from the
 * second point, so the drawdown is -3/11 from the third point on.
 */
const ALPHA: PointRisk[] = [
  NO_RISK,
  // Two points: return 0.1, no drawdown (Calmar divides by the 0.0001 floor), no negative step (Sortino too).
  { calmarRatio: 1000, sortinoRatio: 1000, maxDrawdown: 0, downsideDeviation: 0, simpleReturn: 0.1, annualizedReturn: 0.1 },
  // Three: return -0.2 over drawdown 3/11; steps 0.1 and -3/11 -> mean -1.9/22, downside sqrt((3/11)^2 / 2).
  {
    calmarRatio: -11 / 15, sortinoRatio: (-1.9 / 22) / ((3 / 11) / Math.SQRT2), maxDrawdown: -3 / 11,
    downsideDeviation: (3 / 11) / Math.SQRT2, simpleReturn: -0.2, annualizedReturn: -0.2,
  },
  // Four: return 0.2 -> Calmar 11/15; steps add 0.5 -> mean (0.6 - 3/11) / 3 = 3.6/33, downside (3/11) / sqrt 3.
  {
    calmarRatio: 11 / 15, sortinoRatio: (3.6 / 33) / ((3 / 11) / Math.sqrt(3)), maxDrawdown: -3 / 11,
    downsideDeviation: (3 / 11) / Math.sqrt(3), simpleReturn: 0.2, annualizedReturn: 0.2,
  },
  // Five: a flat step -> mean 3.6/44 = 0.9/11, downside 3/22 -> Sortino 0.6.
  { calmarRatio: 11 / 15, sortinoRatio: 0.6, maxDrawdown: -3 / 11, downsideDeviation: 3 / 22, simpleReturn: 0.2, annualizedReturn: 0.2 },
];

function expectRisk(point: Record<string, unknown>, want: PointRisk, label: string): void {
  for (const [field, value] of Object.entries(want)) {
    if (value === null) expect(point[field], `${label} ${field}`).to.equal(null);
    else expect(point[field] as number, `${label} ${field}`).to.be.closeTo(value, 1e-9);
  }
}

describe('perps risk metrics on the competition reads', () => {
  let s: TestServer;
  let A: Actor;
  let B: Actor;
  let C: Actor;
  let cid: string;
  let t0: number;
  let started: string;

  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    ({ A, B, C, cid, t0 } = await tapedPerpsCup(s, 'Risky Perps'));
    // Alpha: 10000 USD long at 2x from 150 (equity 10000 + 200/3 x (mark - 150)); Bravo: 1000 USD short at 1x,
    // closed at 120 (+200); Charlie: no position. Equity at the ticks: A 10000/11000/8000/12000/12000,
    // B 10000/9900/10200/10200/10200, C 10000 throughout.
    await loadScript(s, cid, [
      { afterMs: MINUTE, action: 'open', agentId: A.agentId, asset: 'SOL', side: 'long', sizeUsd: 10000, leverage: 2 },
      { afterMs: MINUTE, action: 'open', ref: 'b-short', agentId: B.agentId, asset: 'SOL', side: 'short', sizeUsd: 1000, leverage: 1 },
      { at: t0 + 12 * MINUTE, action: 'close', ref: 'b-short' },
    ]);
    started = await s.world.snapshot();
  });
  beforeEach(() => s.world.restore(started));
  after(() => s.close());

  const at = (m: number) => new Date(t0 + m * MINUTE).toISOString();
  const timeline = async (bucket: number) => {
    const res = await s.call('GET', `/api/competitions/${cid}/timeline`, { query: { bucket: String(bucket) } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (agent: Actor) => res.body.timeline.find((l: any) => l.agentId === agent.agentId).timeline as Record<string, unknown>[];
  };
  const leaderboard = async () => {
    const res = await s.call('GET', '/api/competitions/leaderboard', { key: ADMIN_KEY, query: { competitionId: cid } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.leaderboard as any[];
  };
  const summary = async (agent: Actor) => {
    const res = await s.call('GET', `/api/agents/${agent.agentId}/competitions`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.competitions.find((c: any) => c.id === cid);
  };

  describe('GET /api/competitions/{competitionId}/timeline', () => {
    it('adds the risk metrics of the series up to each point, null before the second snapshot (200)', async () => {
      await s.world.advance(20 * MINUTE);
      const series = await timeline(5);
      const alpha = series(A);
      expect(alpha.map((p) => [p.timestamp, p.date, Math.round((p.totalValue as number) * 1e6) / 1e6]))
        .to.deep.equal([0, 5, 10, 15, 20].map((m, i) => [at(m), at(m), [10000, 11000, 8000, 12000, 12000][i]]));
      alpha.forEach((p, i) => expectRisk(p, ALPHA[i]!, `Alpha point ${i}`));
      expect(Object.keys(alpha[0]!)).to.deep.equal([
        'date', 'timestamp', 'totalValue', 'calmarRatio', 'sortinoRatio', 'maxDrawdown', 'downsideDeviation', 'simpleReturn', 'annualizedReturn',
      ]);
      // Bravo 10000, 9900, 10200, ...: one step of -1 % -> return, drawdown and mean step -0.01, downside 0.01.
      const bravo = series(B);
      expectRisk(bravo[1]!, { calmarRatio: -1, sortinoRatio: -1, maxDrawdown: -0.01, downsideDeviation: 0.01, simpleReturn: -0.01, annualizedReturn: -0.01 }, 'Bravo 1');
      expect(bravo[4]!.calmarRatio as number).to.be.closeTo(0.02 / 0.01, 1e-9);
      // Charlie is flat: every ratio 0 once it has two snapshots.
      expectRisk(series(C)[3]!, { calmarRatio: 0, sortinoRatio: 0, maxDrawdown: 0, downsideDeviation: 0, simpleReturn: 0, annualizedReturn: 0 }, 'Charlie 3');
    });

    it('keeps the metrics of the latest snapshot in each bucket (200)', async () => {
      await s.world.advance(20 * MINUTE);
      // 10-minute buckets: [0, 10) keeps +5, [10, 20) keeps +15, [20, 30) keeps +20.
      const alpha = (await timeline(10))(A);
      expect(alpha.map((p) => p.timestamp)).to.deep.equal([at(5), at(15), at(20)]);
      expectRisk(alpha[0]!, ALPHA[1]!, 'bucket 0');
      expectRisk(alpha[1]!, ALPHA[3]!, 'bucket 1');
      expectRisk(alpha[2]!, ALPHA[4]!, 'bucket 2');
    });

    it('shows null risk fields while every agent has one snapshot (200)', async () => {
      const alpha = (await timeline(30))(A);
      expect(alpha).to.have.length(1);
      expect(alpha[0]).to.deep.equal({ date: at(0), timestamp: at(0), totalValue: 10000, ...NO_RISK });
    });
  });

  describe('GET /api/competitions/leaderboard', () => {
    it('fills calmarRatio, simpleReturn and maxDrawdown for perps agents in Calmar order (200)', async () => {
      // One snapshot each: no metrics yet, equal equity keeps registration order.
      const before = await leaderboard();
      expect(before.map((r) => [r.agentName, r.calmarRatio, r.simpleReturn, r.maxDrawdown, r.hasRiskMetrics])).to.deep.equal([
        ['Alpha', null, null, null, false], ['Bravo', null, null, null, false], ['Charlie', null, null, null, false],
      ]);
      await s.world.advance(20 * MINUTE);
      // New snapshots must not be served from the memoised standings or the cached wire rows.
      const rows = await leaderboard();
      expect(rows.map((r) => [r.rank, r.agentName, Math.round(r.portfolioValue), r.hasRiskMetrics])).to.deep.equal([
        [1, 'Bravo', 10200, true], [2, 'Alpha', 12000, true], [3, 'Charlie', 10000, true],
      ]);
      const [b, a, c] = rows;
      expect(b.calmarRatio).to.be.closeTo(2, 1e-9);
      expect(b.simpleReturn).to.be.closeTo(0.02, 1e-12);
      expect(b.maxDrawdown).to.be.closeTo(-0.01, 1e-12);
      expect(a.calmarRatio).to.be.closeTo(11 / 15, 1e-9);
      expect(a.simpleReturn).to.be.closeTo(0.2, 1e-12);
      expect(a.maxDrawdown).to.be.closeTo(-3 / 11, 1e-12);
      expect([c.calmarRatio, c.simpleReturn, c.maxDrawdown]).to.deep.equal([0, 0, 0]);
      expect(Object.keys(a)).to.not.include('sortinoRatio');
      // The participants list shows the same numbers.
      const agents = (await s.call('GET', `/api/competitions/${cid}/agents`)).body.agents;
      expect(agents.map((r: any) => [r.name, r.rank, r.calmarRatio])).to.deep.equal(rows.map((r) => [r.agentName, r.rank, r.calmarRatio]));
    });

    it('keeps the risk fields on the frozen leaderboard after the end (200)', async () => {
      await s.world.advance(20 * MINUTE);
      expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } })).status).to.equal(200);
      const rows = await leaderboard();
      expect(rows.map((r) => r.agentName)).to.deep.equal(['Bravo', 'Alpha', 'Charlie']);
      expect(rows[1].calmarRatio).to.be.closeTo(11 / 15, 1e-9);
      expect(rows[1].maxDrawdown).to.be.closeTo(-3 / 11, 1e-12);
      expect(rows.every((r) => r.hasRiskMetrics === true)).to.equal(true);
    });
  });

  describe('GET /api/agents/{agentId}/competitions', () => {
    it('fills the perps risk fields and counts position rows (200)', async () => {
      const early = await summary(A);
      expect(early).to.include({ competitionType: 'perpetual_futures', calmarRatio: null, simpleReturn: null, maxDrawdown: null, hasRiskMetrics: false });
      await s.world.advance(20 * MINUTE);
      const a = await summary(A);
      expect(a).to.include({ totalTrades: 0, totalPositions: 1, hasRiskMetrics: true });
      expect(a.calmarRatio).to.be.closeTo(11 / 15, 1e-9);
      expect(a.simpleReturn).to.be.closeTo(0.2, 1e-12);
      expect(a.maxDrawdown).to.be.closeTo(-3 / 11, 1e-12);
      // Bravo's closed position still counts; Charlie never opened one.
      expect(await summary(B)).to.include({ totalPositions: 1 });
      expect(await summary(C)).to.include({ totalPositions: 0, calmarRatio: 0, simpleReturn: 0, maxDrawdown: 0, hasRiskMetrics: true });
    });

    it('places a running perps agent by equity, as upstream does, and by the final (Calmar) rank once ended', async () => {
      await s.world.advance(20 * MINUTE);
      // Running: SQL RANK() of the latest snapshot value (A 12000, B 10200, C 10000), unlike the Calmar leaderboard.
      expect((await summary(A)).bestPlacement).to.deep.equal({ rank: 1, totalAgents: 3 });
      expect((await summary(B)).bestPlacement).to.deep.equal({ rank: 2, totalAgents: 3 });
      expect((await s.call('POST', '/api/admin/competition/end', { key: ADMIN_KEY, body: { competitionId: cid } })).status).to.equal(200);
      // Ended: the stored final rank, which is the leaderboard's order.
      const board = await leaderboard();
      for (const agent of [A, B, C]) {
        const rank = board.find((r) => r.agentId === agent.agentId).rank;
        expect((await summary(agent)).bestPlacement).to.deep.equal({ rank, totalAgents: 3 });
      }
      expect((await summary(B)).bestPlacement.rank).to.equal(1);
    });
  });
});
