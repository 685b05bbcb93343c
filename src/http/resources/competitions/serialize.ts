// Competitions as the API shows them: rows, list entries, details, participants, leaderboards, status, rules, timelines, snapshots, rewards.
import type { ParticipantRow } from '../../../domain/competitions/participant-list.js';
import type { EarnedReward } from '../../../domain/competitions/rewards.js';
import type { CompetitionRules } from '../../../domain/competitions/rules.js';
import type { AgentTimeline } from '../../../domain/competitions/timeline.js';
import type { CompetitionDetail, CompetitionStatusView, ListedCompetition } from '../../../domain/competitions/views.js';
import type { UserVotingState } from '../../../domain/competitions/votes.js';
import type { Caches } from '../../../domain/data/caches.js';
import type { Agent, Competition, PortfolioSnapshot } from '../../../domain/model.js';
import type { LeaderboardView, RankedEntry } from '../../../domain/rankings/leaderboard.js';
import type { RiskMetrics } from '../../../domain/rankings/risk-metrics.js';
import { iso } from '../shared/time.js';

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

/** Portfolio snapshot object. */
export function apiSnapshot(s: PortfolioSnapshot) {
  return { id: s.id, agentId: s.agentId, competitionId: s.competitionId, timestamp: iso(s.timestamp), totalValue: s.totalValue };
}

/** `userVotingInfo`: `reason`, `agentId` and `votedAt` only when present (upstream left them undefined). */
export function apiVotingInfo(s: UserVotingState) {
  const info = {
    hasVoted: s.info.hasVoted,
    ...(s.info.agentId !== undefined ? { agentId: s.info.agentId } : {}),
    ...(s.info.votedAt !== undefined ? { votedAt: iso(s.info.votedAt) } : {}),
  };
  return { canVote: s.canVote, ...(s.reason !== undefined ? { reason: s.reason } : {}), info };
}

/** An element of `GET /api/competitions`; agent callers also get the vote fields. */
export function apiListedCompetition(l: ListedCompetition) {
  const row = apiCompetition(l.competition);
  if (!l.voting) return row;
  return { ...row, votingEnabled: l.voting.votingEnabled, totalVotes: l.voting.totalVotes, userVotingInfo: apiVotingInfo(l.voting.userVotingInfo) };
}

/** The `competition` object of `GET /api/competitions/{competitionId}`. */
export function apiCompetitionDetail(d: CompetitionDetail) {
  return {
    ...apiCompetition(d.competition), stats: d.stats, tradingConstraints: d.competition.tradingConstraints, rewards: d.rewards,
    rewardsTge: null, votingEnabled: d.votingEnabled,
    ...(d.userVotingInfo ? { userVotingInfo: apiVotingInfo(d.userVotingInfo) } : {}),
  };
}

/** A participant row: upstream's current fields plus the spec era's `position` and `voteCount` (risk fields: perps only). */
export function apiParticipant(r: ParticipantRow) {
  const active = r.registration.status === 'active';
  return {
    id: r.agent.id, name: r.agent.name, handle: r.agent.handle, description: r.agent.description, imageUrl: r.agent.imageUrl,
    score: r.score, active, deactivationReason: active ? null : r.registration.deactivationReason, rank: r.rank, position: r.rank,
    portfolioValue: r.score, pnl: r.pnl, pnlPercent: r.pnlPercent, change24h: r.change24h, change24hPercent: r.change24hPercent,
    voteCount: r.voteCount, calmarRatio: r.risk?.calmarRatio ?? null, sortinoRatio: r.risk?.sortinoRatio ?? null,
    simpleReturn: r.risk?.simpleReturn ?? null, maxDrawdown: r.risk?.maxDrawdown ?? null, downsideDeviation: r.risk?.downsideDeviation ?? null,
    hasRiskMetrics: r.risk !== null,
  };
}

const agentName = (a: Agent | undefined) => a?.name ?? 'Unknown Agent';
const agentHandle = (a: Agent | undefined) => a?.handle ?? 'unknown_agent';

/** A ranked row; the risk fields are filled for perps agents with metrics (upstream's perps leaderboard entries). */
const rankedEntry = (e: RankedEntry) => ({
  rank: e.rank, agentId: e.agentId, agentName: agentName(e.agent), agentHandle: agentHandle(e.agent), portfolioValue: e.value,
  active: true, deactivationReason: null, calmarRatio: e.risk?.calmarRatio ?? null, simpleReturn: e.risk?.simpleReturn ?? null,
  maxDrawdown: e.risk?.maxDrawdown ?? null, hasRiskMetrics: e.risk !== null,
});

/** A serialised leaderboard page and the competition row it shows. */
interface LeaderboardPage { competition: Competition; body: unknown; json: string }

/**
 * The answer of `GET /api/competitions/leaderboard`, serialised once per competition row and
 * standings: the world's caches keep it with the memoised ranked list, so it lasts until the next
 * snapshot round (or a registration or agent change) makes new standings. At 10k agents the page
 * is 2.6 MB of JSON, and serialising it was most of the request.
 */
export function leaderboardAnswer(caches: Caches, v: LeaderboardView): { body: unknown; json: string } {
  const kept = caches.derived(v.leaderboard, (): { page?: LeaderboardPage } => ({}));
  if (kept.page?.competition !== v.competition) {
    const body = { success: true, ...apiLeaderboard(v) };
    kept.page = { competition: v.competition, body, json: JSON.stringify(body) };
  }
  return { body: kept.page.body, json: kept.page.json };
}

/** Body of `GET /api/competitions/leaderboard` (without `success`). */
export function apiLeaderboard(v: LeaderboardView) {
  const inactiveAgents = v.inactive.map((e) => ({
    agentId: e.agentId, agentName: agentName(e.agent), agentHandle: agentHandle(e.agent), portfolioValue: e.value,
    active: false, deactivationReason: e.reason,
  }));
  return {
    competition: apiCompetition(v.competition),
    leaderboard: v.leaderboard.map(rankedEntry),
    inactiveAgents, hasInactiveAgents: inactiveAgents.length > 0,
  };
}

/** Body of `GET /api/competitions/status` (without `success`): upstream's four answers. */
export function apiCompetitionStatus(v: CompetitionStatusView) {
  if (v.kind === 'none') return { active: false, competition: null, message: 'No active competition found' };
  const c = v.competition;
  const basic = { id: c.id, name: c.name, status: c.status, externalUrl: c.externalUrl, imageUrl: c.imageUrl };
  switch (v.kind) {
    case 'admin': return { active: true, competition: apiCompetition(c), isAdmin: true, participating: false };
    case 'participating': return { active: true, competition: apiCompetition(c), participating: true };
    case 'anonymous': return { active: true, competition: basic, message: 'Authentication required to check participation status' };
    default: return {
      active: true, competition: { ...basic, startDate: iso(c.startDate) }, participating: false,
      message: 'Your agent is not participating in this competition',
    };
  }
}

/** The rules object (already wire-shaped: strings, numbers and the chain list). */
export function apiRules(r: CompetitionRules) {
  return {
    tradingRules: r.tradingRules, rateLimits: r.rateLimits, availableChains: r.availableChains, slippageFormula: r.slippageFormula,
    tradingConstraints: r.tradingConstraints, portfolioSnapshots: r.portfolioSnapshots,
  };
}

/** Upstream's six risk fields of a perps timeline point (all null before the metrics exist). */
const timelineRisk = (r: RiskMetrics | null) => ({
  calmarRatio: r?.calmarRatio ?? null, sortinoRatio: r?.sortinoRatio ?? null, maxDrawdown: r?.maxDrawdown ?? null,
  downsideDeviation: r?.downsideDeviation ?? null, simpleReturn: r?.simpleReturn ?? null, annualizedReturn: r?.annualizedReturn ?? null,
});

/** Timeline series; each point carries both the spec's `date` and upstream's `timestamp` (perps points: plus the risk fields). */
export function apiTimeline(lines: AgentTimeline[]) {
  return lines.map((l) => ({
    agentId: l.agentId, agentName: l.agentName,
    timeline: l.points.map((p) => ({
      date: iso(p.timestamp), timestamp: iso(p.timestamp), totalValue: p.totalValue,
      ...(p.risk !== undefined ? timelineRisk(p.risk) : {}),
    })),
  }));
}

/** The reward object of the claim answer. */
export function apiReward(r: EarnedReward) {
  return { competitionId: r.competitionId, agentId: r.agentId, rank: r.rank, reward: r.reward, claimed: r.claimed };
}
