// Competition timeline: each active agent's portfolio snapshots, thinned to the latest one per time bucket (perps points add risk metrics).
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import type { PortfolioSnapshot } from '../model.js';
import { riskMetricsSeries, type RiskMetrics } from '../rankings/risk-metrics.js';

/** One point of a series; `risk` only in perps competitions (null while the agent has fewer than two snapshots). */
export interface TimelinePoint { timestamp: number; totalValue: number; risk?: RiskMetrics | null }

/** One agent's series (points in time order). */
export interface AgentTimeline { agentId: string; agentName: string; points: TimelinePoint[] }

/**
 * `GET /api/competitions/{competitionId}/timeline` (reference §4.9): agents actively registered
 * now; each snapshot falls in bucket `floor(minutes since the competition's start / bucket)`, and
 * per (agent, bucket) the latest snapshot is kept. Points are ordered by time then agent id, and
 * agents appear in order of their first point.
 *
 * Perps competitions add the risk metrics to each point, as upstream does from its risk-metrics
 * time series (a row per sync, computed over the agent's snapshots up to that sync, joined to the
 * point by bucket): here the metrics of the agent's snapshot series up to and including the point's
 * snapshot, null before the second snapshot.
 */
export async function competitionTimeline(deps: Deps, input: { competitionId: string; bucket: number }): Promise<AgentTimeline[]> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, input.competitionId);
    const withRisk = comp.type === 'perpetual_futures';
    const start = comp.startDate ?? 0;
    const kept: { snap: PortfolioSnapshot; risk: RiskMetrics | null }[] = [];
    const names = new Map<string, string>();
    for (const reg of tx.find('competitionAgents', 'competition', comp.id)) {
      if (reg.status !== 'active') continue;
      names.set(reg.agentId, (tx.get('agents', reg.agentId))?.name ?? 'Unknown Agent');
      const snaps = tx.find('snapshots', 'agentCompetition', `${reg.agentId}:${comp.id}`);
      // The series oldest first (a stable sort: equal timestamps keep write order), for the running metrics.
      const order = snaps.map((_, i) => i).sort((a, b) => snaps[a]!.timestamp - snaps[b]!.timestamp || a - b);
      const risk = withRisk ? riskMetricsSeries(order.map((i) => snaps[i]!.totalValue)) : [];
      const perBucket = new Map<number, number>();
      order.forEach((at, pos) => {
        const bucket = Math.floor((snaps[at]!.timestamp - start) / 60_000 / input.bucket);
        // Later in the series wins: the latest snapshot, and on equal timestamps the later write.
        perBucket.set(bucket, pos);
      });
      for (const pos of perBucket.values()) kept.push({ snap: snaps[order[pos]!]!, risk: withRisk ? risk[pos]! : null });
    }
    kept.sort((a, b) => a.snap.timestamp - b.snap.timestamp || (a.snap.agentId < b.snap.agentId ? -1 : a.snap.agentId > b.snap.agentId ? 1 : 0));
    const series = new Map<string, AgentTimeline>();
    for (const { snap: s, risk } of kept) {
      let line = series.get(s.agentId);
      if (!line) series.set(s.agentId, (line = { agentId: s.agentId, agentName: names.get(s.agentId)!, points: [] }));
      line.points.push(withRisk ? { timestamp: s.timestamp, totalValue: s.totalValue, risk } : { timestamp: s.timestamp, totalValue: s.totalValue });
    }
    return [...series.values()];
  });
}
