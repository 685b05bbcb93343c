// Wire shapes of competitions, arenas and portfolio snapshots.
import type { Arena, Competition, PortfolioSnapshot } from '../../domain/model.js';
import { iso } from './time.js';

/** A competition row as upstream returns it (plus the paper-trading settings, a harmless superset). */
export function apiCompetition(c: Competition) {
  return {
    id: c.id, name: c.name, description: c.description, type: c.type, status: c.status,
    crossChainTradingType: c.crossChainTradingType, sandboxMode: c.sandboxMode, externalUrl: c.externalUrl,
    imageUrl: c.imageUrl, startDate: iso(c.startDate), endDate: iso(c.endDate), joinStartDate: iso(c.joinStartDate),
    joinEndDate: iso(c.joinEndDate), boostStartDate: iso(c.boostStartDate), boostEndDate: iso(c.boostEndDate),
    maxParticipants: c.maxParticipants, registeredParticipants: c.registeredParticipants, minimumStake: c.minimumStake,
    arenaId: c.arenaId, vips: c.vips, allowlist: c.allowlist, blocklist: c.blocklist, minRecallRank: c.minRecallRank,
    allowlistOnly: c.allowlistOnly, votingStartDate: iso(c.votingStartDate), votingEndDate: iso(c.votingEndDate),
    rewards: c.rewards, tradingConstraints: c.tradingConstraints,
    paperTradingConfig: c.paperTradingConfig, paperTradingInitialBalances: c.initialBalances,
    createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
    // HEAD's evaluationMetric (the stored one), and the perps starting equity (perps and spot-live only).
    ...(c.type === 'perpetual_futures' ? { evaluationMetric: c.perpsConfig?.evaluationMetric ?? 'calmar_ratio', perpsInitialEquityUsd: c.perpsInitialEquityUsd ?? 10_000 } : {}),
    ...(c.type === 'spot_live_trading' ? { evaluationMetric: 'simple_return' } : {}),
  };
}

/** The start response: row plus competitionId and the final participant list. */
export function apiStartedCompetition(c: Competition, agentIds: string[]) {
  return { ...apiCompetition(c), competitionId: c.id, agentIds };
}

/** Arena object (stored fields verbatim). */
export function apiArena(a: Arena) {
  return { ...a, createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt) };
}

/** Portfolio snapshot object. */
export function apiSnapshot(s: PortfolioSnapshot) {
  return { id: s.id, agentId: s.agentId, competitionId: s.competitionId, timestamp: iso(s.timestamp), totalValue: s.totalValue };
}
