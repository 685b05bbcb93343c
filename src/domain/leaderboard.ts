// Competition leaderboards: the value source behind every ranking (upstream's getLeaderboard) and the older era's leaderboard view.
import type { ReadTx } from '../ports/store.js';
import { activeCompetitions, requireCompetition } from './competitions.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import type { Agent, Competition, PortfolioSnapshot, Principal } from './model.js';
import { activeAgentIds, latestSnapshot, portfolioValue } from './portfolio.js';
import { isMetricRanked, metricRanking } from './risk-metrics.js';
import type { Tables } from './tables.js';
import { pairKey } from './keys.js';

/** One leaderboard entry: an agent and the value it is ranked by (USD). */
export interface LeaderboardValue { agentId: string; value: number }

/** The newest of an agent's snapshots (latest timestamp; on a tie the later write). */
export function newestSnapshot(snaps: readonly PortfolioSnapshot[]): PortfolioSnapshot | undefined {
  let best: PortfolioSnapshot | undefined;
  for (const s of snaps) if (!best || s.timestamp >= best.timestamp) best = s;
  return best;
}

// Array.prototype.sort is stable, so equal values keep registration order.
const byValueDesc = (rows: LeaderboardValue[]) => rows.sort((a, b) => b.value - a.value);

/**
 * The ranked values of a competition, best first (reference §4.3):
 * - pending: every actively registered agent with value 0 (compsim has no global rank to order
 *   them by, so registration order);
 * - active / ending: the latest snapshot of each active agent, highest first; agents without a
 *   snapshot are absent, and only when no agent has one do live portfolio values stand in;
 * - ended: the frozen final leaderboard in rank order (computed as for active if none was stored);
 * - perps and spot-live (active or ended): see {@link metricValues}.
 * Between snapshots the ranking therefore does not move with trades, as upstream's.
 */
export async function leaderboardValues(deps: Deps, tx: ReadTx<Tables>, comp: Competition): Promise<LeaderboardValue[]> {
  const active = await activeAgentIds(tx, comp.id);
  if (comp.status === 'pending') return active.map((agentId) => ({ agentId, value: 0 }));
  if (isMetricRanked(comp)) return metricValues(tx, comp, active);
  if (comp.status === 'ended') {
    const frozen = await tx.find('leaderboards', 'competition', comp.id);
    if (frozen.length > 0) return [...frozen].sort((a, b) => a.rank - b.rank).map((r) => ({ agentId: r.agentId, value: r.score }));
  }
  const latest: LeaderboardValue[] = [];
  for (const agentId of active) {
    const snap = await latestSnapshot(tx, comp.id, agentId);
    if (snap) latest.push({ agentId, value: snap.totalValue });
  }
  if (latest.length > 0) return byValueDesc(latest);
  const now = deps.clock.now();
  const live: LeaderboardValue[] = [];
  for (const agentId of active) {
    const balances = await tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id));
    live.push({ agentId, value: portfolioValue(deps, balances, now) ?? 0 });
  }
  return byValueDesc(live);
}

/**
 * Perps and spot-live (reference features §3.6, §4): ranked by Calmar ratio or simple return from
 * the equity snapshots (the frozen rank order once ended), valued at the latest snapshot (upstream
 * shows equity as score and portfolioValue); agents without a snapshot are absent.
 */
async function metricValues(tx: ReadTx<Tables>, comp: Competition, active: string[]): Promise<LeaderboardValue[]> {
  const live = (await metricRanking(tx, comp, active)).map((r) => ({ agentId: r.agentId, value: r.value }));
  const frozen = comp.status === 'ended' ? await tx.find('leaderboards', 'competition', comp.id) : [];
  if (frozen.length === 0) return live;
  const value = new Map(live.map((v) => [v.agentId, v.value]));
  return [...frozen].sort((a, b) => a.rank - b.rank).map((r) => ({ agentId: r.agentId, value: value.get(r.agentId) ?? 0 }));
}

/**
 * Active competitions a caller most likely means: for an agent, the ones it is actively
 * registered in (when there are any), otherwise all of them; storage order.
 */
export async function activeCompetitionsFor(tx: ReadTx<Tables>, principal: Principal): Promise<Competition[]> {
  const active = await activeCompetitions(tx);
  if (principal.kind !== 'agent') return active;
  const mine: Competition[] = [];
  for (const c of active) if ((await tx.get('competitionAgents', pairKey(c.id, principal.agentId)))?.status === 'active') mine.push(c);
  return mine.length > 0 ? mine : active;
}

/** True when the agent's registration in the competition is active. */
export async function isActiveParticipant(tx: ReadTx<Tables>, competitionId: string, agentId: string): Promise<boolean> {
  return (await tx.get('competitionAgents', pairKey(competitionId, agentId)))?.status === 'active';
}

/** A ranked row of the leaderboard view. */
export interface RankedEntry { rank: number; agentId: string; agent: Agent | undefined; value: number }
/** An agent registered at some point but not ranked (not active, or no snapshot). */
export interface UnrankedEntry { agentId: string; agent: Agent | undefined; value: number; reason: string }
/** Result of {@link competitionLeaderboard}. */
export interface LeaderboardView { competition: Competition; leaderboard: RankedEntry[]; inactive: UnrankedEntry[] }

async function resolveCompetitionId(tx: ReadTx<Tables>, principal: Principal, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const candidates = await activeCompetitionsFor(tx, principal);
  if (candidates.length === 0) throw new DomainError('LEADERBOARD_NO_COMPETITION');
  if (candidates.length > 1) throw new DomainError('COMPETITION_ID_REQUIRED', { usage: 'GET /api/competitions/leaderboard?competitionId=xxx' });
  return candidates[0]!.id;
}

/**
 * `GET /api/competitions/leaderboard` (the era before 2025-10-07): the named competition, or the
 * single active one. Admins always see it; an agent must be actively registered (403), and with
 * `leaderboardAccess: 'admin'` agents are refused outright (the older "restricted to
 * administrators" rule).
 */
export async function competitionLeaderboard(deps: Deps, input: { principal: Principal; competitionId?: string }): Promise<LeaderboardView> {
  const { principal } = input;
  return deps.store.read(async (tx) => {
    const competition = await requireCompetition(tx, await resolveCompetitionId(tx, principal, input.competitionId));
    if (principal.kind === 'anonymous') throw new DomainError('LEADERBOARD_AUTH_REQUIRED');
    if (principal.kind === 'agent') {
      if (deps.config.leaderboardAccess === 'admin') throw new DomainError('LEADERBOARD_ADMIN_ONLY');
      if (!(await isActiveParticipant(tx, competition.id, principal.agentId))) throw new DomainError('LEADERBOARD_NOT_PARTICIPANT');
    }
    const values = await leaderboardValues(deps, tx, competition);
    const leaderboard: RankedEntry[] = [];
    for (const [i, v] of values.entries()) leaderboard.push({ rank: i + 1, agentId: v.agentId, agent: await tx.get('agents', v.agentId), value: v.value });
    const ranked = new Set(values.map((v) => v.agentId));
    const inactive: UnrankedEntry[] = [];
    for (const reg of await tx.find('competitionAgents', 'competition', competition.id)) {
      if (ranked.has(reg.agentId)) continue;
      const snap = await latestSnapshot(tx, competition.id, reg.agentId);
      inactive.push({
        agentId: reg.agentId, agent: await tx.get('agents', reg.agentId), value: snap?.totalValue ?? 0,
        reason: reg.deactivationReason || 'Not actively participating in this competition',
      });
    }
    return { competition, leaderboard, inactive };
  });
}
