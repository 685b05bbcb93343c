// Wire shapes of the public competition reads: vote fields, detail, participants, leaderboard, status, rules, timeline.
import type { ParticipantRow } from '../../domain/competitions/participant-list.js';
import type { CompetitionRules } from '../../domain/competitions/rules.js';
import type { AgentTimeline } from '../../domain/competitions/timeline.js';
import type { CompetitionDetail, CompetitionStatusView, ListedCompetition } from '../../domain/competitions/views.js';
import type { LeaderboardView, RankedEntry } from '../../domain/rankings/leaderboard.js';
import type { Agent } from '../../domain/model.js';
import type { RiskMetrics } from '../../domain/rankings/risk-metrics.js';
import type { UserVotingState } from '../../domain/competitions/votes.js';
import { apiCompetition } from './competitions.js';
import { iso } from './time.js';

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

/**
 * Wire rows of a ranked list. The domain hands out the same frozen list while the standings are
 * unchanged, so its wire rows (10k at 10k agents) are made once per list, not per request.
 */
const rankedWire = new WeakMap<readonly RankedEntry[], readonly ReturnType<typeof rankedEntry>[]>();

function apiRanked(list: readonly RankedEntry[]) {
  let rows = rankedWire.get(list);
  if (rows === undefined) {
    rows = list.map(rankedEntry);
    // A frozen list is the domain's shared one: its wire rows are kept with it.
    if (Object.isFrozen(list)) rankedWire.set(list, rows);
  }
  return rows;
}

/** Body of `GET /api/competitions/leaderboard` (without `success`). */
export function apiLeaderboard(v: LeaderboardView) {
  const inactiveAgents = v.inactive.map((e) => ({
    agentId: e.agentId, agentName: agentName(e.agent), agentHandle: agentHandle(e.agent), portfolioValue: e.value,
    active: false, deactivationReason: e.reason,
  }));
  return {
    competition: apiCompetition(v.competition),
    leaderboard: apiRanked(v.leaderboard),
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
