// Competition timeline: each active agent's portfolio snapshots, thinned to the latest one per time bucket.
import { requireCompetition } from './competitions.js';
import type { Deps } from './deps.js';
import type { PortfolioSnapshot } from './model.js';

/** One agent's series (points in time order). */
export interface AgentTimeline { agentId: string; agentName: string; points: { timestamp: number; totalValue: number }[] }

/**
 * `GET /api/competitions/{competitionId}/timeline` (reference §4.9): agents actively registered
 * now; each snapshot falls in bucket `floor(minutes since the competition's start / bucket)`, and
 * per (agent, bucket) the latest snapshot is kept. Points are ordered by time then agent id, and
 * agents appear in order of their first point.
 */
export async function competitionTimeline(deps: Deps, input: { competitionId: string; bucket: number }): Promise<AgentTimeline[]> {
  return deps.store.read(async (tx) => {
    const comp = await requireCompetition(tx, input.competitionId);
    const start = comp.startDate ?? 0;
    const kept: PortfolioSnapshot[] = [];
    const names = new Map<string, string>();
    for (const reg of await tx.find('competitionAgents', 'competition', comp.id)) {
      if (reg.status !== 'active') continue;
      names.set(reg.agentId, (await tx.get('agents', reg.agentId))?.name ?? 'Unknown Agent');
      const perBucket = new Map<number, PortfolioSnapshot>();
      for (const s of await tx.find('snapshots', 'agentCompetition', `${reg.agentId}:${comp.id}`)) {
        const bucket = Math.floor((s.timestamp - start) / 60_000 / input.bucket);
        const prev = perBucket.get(bucket);
        // Snapshots are stored in time order: a later write with the same timestamp wins too.
        if (!prev || s.timestamp >= prev.timestamp) perBucket.set(bucket, s);
      }
      kept.push(...perBucket.values());
    }
    kept.sort((a, b) => a.timestamp - b.timestamp || (a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0));
    const series = new Map<string, AgentTimeline>();
    for (const s of kept) {
      let line = series.get(s.agentId);
      if (!line) series.set(s.agentId, (line = { agentId: s.agentId, agentName: names.get(s.agentId)!, points: [] }));
      line.points.push({ timestamp: s.timestamp, totalValue: s.totalValue });
    }
    return [...series.values()];
  });
}
