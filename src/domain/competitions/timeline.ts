// Competition timeline: each active agent's portfolio snapshots, thinned to the latest one per time bucket (perps points add risk metrics).
import { pairKey } from '../data/keys.js';
import { requireCompetition } from './create.js';
import type { Deps } from '../deps.js';
import type { PortfolioSnapshot } from '../model.js';
import { riskMetricsSeries, type RiskMetrics } from '../rankings/risk-metrics.js';
import { DomainError } from '../errors.js';
import { TIMELINE_AGENT_LIMIT, TIMELINE_TOTAL_LIMIT } from '../data/limits.js';

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
 *
 * The points are counted before any is built: above {@link TIMELINE_AGENT_LIMIT} for one agent or
 * {@link TIMELINE_TOTAL_LIMIT} in all, the answer is a 400 suggesting a bucket that fits.
 */
export async function competitionTimeline(deps: Deps, input: { competitionId: string; bucket: number }): Promise<AgentTimeline[]> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, input.competitionId);
    const withRisk = comp.type === 'perpetual_futures';
    const start = comp.startDate ?? 0;
    const names = new Map<string, string>();
    const agents: { snaps: PortfolioSnapshot[]; perBucket: Map<number, number> }[] = [];
    for (const reg of tx.find('competitionAgents', 'competition', comp.id)) {
      if (reg.status !== 'active') continue;
      names.set(reg.agentId, (tx.get('agents', reg.agentId))?.name ?? 'Unknown Agent');
      // Oldest first: snapshots are only written at the current virtual time, which never moves
      // back, so insertion order is time order (equal timestamps in write order).
      const snaps = tx.find('snapshots', 'agentCompetition', pairKey(reg.agentId, comp.id));
      const perBucket = new Map<number, number>();
      snaps.forEach((snap, pos) => {
        // Later in the series wins: the latest snapshot, and on equal timestamps the later write.
        perBucket.set(Math.floor((snap.timestamp - start) / 60_000 / input.bucket), pos);
      });
      agents.push({ snaps, perBucket });
    }
    checkSize(agents.map((a) => ({ points: a.perBucket.size, minutes: spanMinutes(a.snaps) })), input.bucket);
    const kept: { snap: PortfolioSnapshot; risk: RiskMetrics | null }[] = [];
    for (const { snaps, perBucket } of agents) {
      const risk = withRisk ? riskMetricsSeries(snaps.map((snap) => snap.totalValue)) : [];
      for (const pos of perBucket.values()) kept.push({ snap: snaps[pos]!, risk: withRisk ? risk[pos]! : null });
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

function spanMinutes(snaps: PortfolioSnapshot[]): number {
  return snaps.length === 0 ? 0 : (snaps[snaps.length - 1]!.timestamp - snaps[0]!.timestamp) / 60_000;
}

/**
 * Throws TIMELINE_TOO_LARGE when one agent's points or all points pass their cap. The suggested
 * bucket fits: a series spanning `m` minutes falls in at most `m / bucket + 2` buckets.
 */
function checkSize(agents: { points: number; minutes: number }[], bucket: number): void {
  const fit = (minutes: number, room: number) => (room > 0 ? Math.min(1440, Math.max(bucket + 1, Math.ceil(minutes / room))) : 1440);
  for (const a of agents) {
    if (a.points > TIMELINE_AGENT_LIMIT) {
      const worst = agents.reduce((m, x) => Math.max(m, x.minutes), 0);
      throw new DomainError('TIMELINE_TOO_LARGE', { points: a.points, scope: 'for one agent', bucket, limit: TIMELINE_AGENT_LIMIT, suggest: fit(worst, TIMELINE_AGENT_LIMIT - 2) });
    }
  }
  const total = agents.reduce((n, a) => n + a.points, 0);
  if (total > TIMELINE_TOTAL_LIMIT) {
    const minutes = agents.reduce((n, a) => n + a.minutes, 0);
    throw new DomainError('TIMELINE_TOO_LARGE', { points: total, scope: 'in all', bucket, limit: TIMELINE_TOTAL_LIMIT, suggest: fit(minutes, TIMELINE_TOTAL_LIMIT - 2 * agents.length) });
  }
}
