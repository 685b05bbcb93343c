// Competition leaderboards: the value source behind every ranking (upstream's getLeaderboard) and the older era's leaderboard view.
import { pairKey } from '../data/keys.js';
import type { ReadTx } from '../../ports/store.js';
import { activeCompetitions, requireCompetition } from '../competitions/create.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Agent, Competition, CompetitionAgent, PortfolioSnapshot, Principal } from '../model.js';
import { activeAgentIds, latestSnapshot, latestSnapshots, portfolioValue } from '../trading/portfolio.js';
import { isMetricRanked, metricRanking, type RiskMetrics } from './risk-metrics.js';
import type { Tables } from '../tables.js';
import { memoDef } from '../data/caches.js';

/**
 * One leaderboard entry: an agent and its value (USD). Perps entries also carry the agent's risk
 * metrics (null before its second snapshot), which upstream's perps leaderboard entries hold.
 */
export interface LeaderboardValue { agentId: string; value: number; risk?: RiskMetrics | null }

/** The newest of an agent's snapshots (latest timestamp; on a tie the later write). */
export function newestSnapshot(snaps: readonly PortfolioSnapshot[]): PortfolioSnapshot | undefined {
  let best: PortfolioSnapshot | undefined;
  for (const s of snaps) if (!best || s.timestamp >= best.timestamp) best = s;
  return best;
}

// Array.prototype.sort is stable, so equal values keep registration order.
const byValueDesc = (rows: LeaderboardValue[]) => rows.sort((a, b) => b.value - a.value);

/** A competition's ranked values and whether they are live portfolio values (clock and prices), which no cache may keep. */
export interface Standings { values: readonly LeaderboardValue[]; live: boolean }

/** Everything the values read besides live portfolio values (which are never cached). */
const STANDINGS = memoDef<Standings>(['competitionAgents', 'snapshots', 'leaderboards']);

/** Cache key of what a competition's standings depend on besides the tables. */
export const standingsKey = (comp: Competition) => `${comp.id}\n${comp.status}\n${comp.type}`;

/** One registration of a competition, its agent (undefined when the agent row is gone) and the agent's lower-cased name. */
export interface RosterEntry { registration: CompetitionAgent; agent: Agent | undefined; name: string }

/** Every registration of a competition in registration order, and each registered agent's position in it (frozen, shared). */
export interface Roster { entries: readonly RosterEntry[]; index: ReadonlyMap<string, number> }

/** Registrations and agent rows change rarely: a snapshot round or a trade leaves the roster cached. */
const ROSTER = memoDef<Roster>(['competitionAgents', 'agents']);

/** The {@link Roster} of a competition, memoised per store while registrations and agents are unchanged. */
export function competitionRoster(deps: Deps, tx: ReadTx<Tables>, competitionId: string): Roster {
  return deps.caches.memo(ROSTER).get(tx, competitionId, () => {
    const entries: RosterEntry[] = [];
    const index = new Map<string, number>();
    for (const registration of tx.find('competitionAgents', 'competition', competitionId)) {
      const agent = tx.get('agents', registration.agentId);
      index.set(registration.agentId, entries.length);
      entries.push({ registration, agent, name: agent ? agent.name.toLowerCase() : '' });
    }
    return { entries: Object.freeze(entries), index };
  });
}

/** The agent row of `agentId`, from the roster when it is registered. */
function rosterAgent(tx: ReadTx<Tables>, roster: Roster, agentId: string): Agent | undefined {
  const at = roster.index.get(agentId);
  return at !== undefined ? roster.entries[at]!.agent : tx.get('agents', agentId);
}

/**
 * {@link leaderboardValues} with the `live` flag. Memoised per store while the registrations,
 * snapshots and frozen leaderboards are unchanged (a trade changes none of them), unless the
 * values are live; the array is frozen and shared.
 */
export function leaderboardStandings(deps: Deps, tx: ReadTx<Tables>, comp: Competition): Standings {
  return deps.caches.memo(STANDINGS).get(tx, standingsKey(comp), () => computeStandings(deps, tx, comp), (s) => !s.live);
}

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
export function leaderboardValues(deps: Deps, tx: ReadTx<Tables>, comp: Competition): readonly LeaderboardValue[] {
  return (leaderboardStandings(deps, tx, comp)).values;
}

const fixed = (values: LeaderboardValue[]): Standings => ({ values: Object.freeze(values), live: false });

function computeStandings(deps: Deps, tx: ReadTx<Tables>, comp: Competition): Standings {
  const active = activeAgentIds(tx, comp.id);
  if (comp.status === 'pending') return fixed(active.map((agentId) => ({ agentId, value: 0 })));
  if (isMetricRanked(comp)) return fixed(metricValues(tx, comp, active));
  if (comp.status === 'ended') {
    const frozen = tx.find('leaderboards', 'competition', comp.id);
    if (frozen.length > 0) return fixed([...frozen].sort((a, b) => a.rank - b.rank).map((r) => ({ agentId: r.agentId, value: r.score })));
  }
  const latest: LeaderboardValue[] = [];
  const newest = latestSnapshots(tx, comp.id, active);
  for (const agentId of active) {
    const snap = newest.get(agentId);
    if (snap) latest.push({ agentId, value: snap.totalValue });
  }
  if (latest.length > 0) return fixed(byValueDesc(latest));
  const now = deps.clock.now();
  const live: LeaderboardValue[] = [];
  for (const agentId of active) {
    const balances = tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id));
    live.push({ agentId, value: portfolioValue(deps, balances, now) ?? 0 });
  }
  return { values: Object.freeze(byValueDesc(live)), live: true };
}

/**
 * Perps and spot-live (reference features §3.6, §4): ranked by Calmar ratio or simple return from
 * the equity snapshots (the frozen rank order once ended), valued at the latest snapshot (upstream
 * shows equity as score and portfolioValue); agents without a snapshot are absent. Perps entries
 * carry the risk metrics of the snapshot series.
 */
function metricValues(tx: ReadTx<Tables>, comp: Competition, active: string[]): LeaderboardValue[] {
  const perps = comp.type === 'perpetual_futures';
  const live: LeaderboardValue[] = (metricRanking(tx, comp, active))
    .map((r) => (perps ? { agentId: r.agentId, value: r.value, risk: r.risk } : { agentId: r.agentId, value: r.value }));
  const frozen = comp.status === 'ended' ? tx.find('leaderboards', 'competition', comp.id) : [];
  if (frozen.length === 0) return live;
  const byId = new Map(live.map((v) => [v.agentId, v]));
  return [...frozen].sort((a, b) => a.rank - b.rank).map((r) => {
    const v = byId.get(r.agentId);
    return perps ? { agentId: r.agentId, value: v?.value ?? 0, risk: v?.risk ?? null } : { agentId: r.agentId, value: v?.value ?? 0 };
  });
}

/**
 * Active competitions a caller most likely means: for an agent, the ones it is actively
 * registered in (when there are any), otherwise all of them; storage order.
 */
export function activeCompetitionsFor(tx: ReadTx<Tables>, principal: Principal): Competition[] {
  const active = activeCompetitions(tx);
  if (principal.kind !== 'agent') return active;
  const mine: Competition[] = [];
  for (const c of active) if ((tx.get('competitionAgents', pairKey(c.id, principal.agentId)))?.status === 'active') mine.push(c);
  return mine.length > 0 ? mine : active;
}

/** True when the agent's registration in the competition is active. */
export function isActiveParticipant(tx: ReadTx<Tables>, competitionId: string, agentId: string): boolean {
  return (tx.get('competitionAgents', pairKey(competitionId, agentId)))?.status === 'active';
}

/** A ranked row of the leaderboard view; `risk`: the perps risk metrics (null otherwise, or before an agent's second snapshot). */
export interface RankedEntry { rank: number; agentId: string; agent: Agent | undefined; value: number; risk: RiskMetrics | null }
/** An agent registered at some point but not ranked (not active, or no snapshot). */
export interface UnrankedEntry { agentId: string; agent: Agent | undefined; value: number; reason: string }
/** Result of {@link competitionLeaderboard} (the lists may be shared with a cache: read-only). */
export interface LeaderboardView { competition: Competition; leaderboard: readonly RankedEntry[]; inactive: readonly UnrankedEntry[] }

/** The ranked and unranked lists of a competition's leaderboard view, and whether they are live values. */
interface BoardLists { leaderboard: readonly RankedEntry[]; inactive: readonly UnrankedEntry[]; live: boolean }

/** The view adds agent rows to the standings. */
const BOARD = memoDef<BoardLists>(['competitionAgents', 'snapshots', 'leaderboards', 'agents']);

function boardLists(deps: Deps, tx: ReadTx<Tables>, competition: Competition): BoardLists {
  const { values, live } = leaderboardStandings(deps, tx, competition);
  const roster = competitionRoster(deps, tx, competition.id);
  const leaderboard: RankedEntry[] = [];
  for (const [i, v] of values.entries()) {
    leaderboard.push({ rank: i + 1, agentId: v.agentId, agent: rosterAgent(tx, roster, v.agentId), value: v.value, risk: v.risk ?? null });
  }
  const ranked = new Set(values.map((v) => v.agentId));
  const inactive: UnrankedEntry[] = [];
  for (const { registration: reg, agent } of roster.entries) {
    if (ranked.has(reg.agentId)) continue;
    const snap = latestSnapshot(tx, competition.id, reg.agentId);
    inactive.push({
      agentId: reg.agentId, agent, value: snap?.totalValue ?? 0,
      reason: reg.deactivationReason || 'Not actively participating in this competition',
    });
  }
  return { leaderboard: Object.freeze(leaderboard), inactive: Object.freeze(inactive), live };
}

function resolveCompetitionId(tx: ReadTx<Tables>, principal: Principal, given: string | undefined): string {
  if (given !== undefined) return given;
  const candidates = activeCompetitionsFor(tx, principal);
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
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, resolveCompetitionId(tx, principal, input.competitionId));
    if (principal.kind === 'anonymous') throw new DomainError('LEADERBOARD_AUTH_REQUIRED');
    if (principal.kind === 'agent') {
      if (deps.config.leaderboardAccess === 'admin') throw new DomainError('LEADERBOARD_ADMIN_ONLY');
      if (!(isActiveParticipant(tx, competition.id, principal.agentId))) throw new DomainError('LEADERBOARD_NOT_PARTICIPANT');
    }
    // Memoised while registrations, snapshots, frozen leaderboards and agents are unchanged (not for live values).
    const lists = deps.caches.memo(BOARD).get(tx, standingsKey(competition), () => boardLists(deps, tx, competition), (l) => !l.live);
    return { competition, leaderboard: lists.leaderboard, inactive: lists.inactive };
  });
}
