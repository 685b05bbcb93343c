// Wire shapes of the legacy (team) generation: upper-case statuses, teamId/teamName, the team era's trade, quote, balance and portfolio objects.
import type { Portfolio } from '../../../domain/legacy/accounts.js';
import { parentChain, type Account } from '../../../domain/legacy/accounts.js';
import { legacyStatusOf } from '../../../domain/legacy/competition.js';
import type { TeamView } from '../../../domain/legacy/teams.js';
import type { LegacyLeaderboardView, LegacyRanked, LegacyStatusView } from '../../../domain/legacy/views.js';
import { tradePrice, type Agent, type Balance, type Competition, type PortfolioSnapshot, type Trade } from '../../../domain/model.js';
import { iso } from '../shared/time.js';

/** A competition as the team era showed it; `allowCrossChainTrading` is true iff the type is `allow`. */
const metadataOf = (a: Agent) => (a.metadata !== null && a.metadata !== undefined ? { metadata: a.metadata } : {});
export function apiLegacyCompetition(c: Competition) {
  return {
    id: c.id, name: c.name, description: c.description, startDate: iso(c.startDate), endDate: iso(c.endDate),
    status: legacyStatusOf(c.status), allowCrossChainTrading: c.crossChainTradingType === 'allow',
    createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
  };
}

/** The registration answer's team (plaintext key shown only here; metadata omitted when not given). */
export function apiRegisteredTeam(t: TeamView, apiKey: string, walletAddress: string) {
  const a = t.agent;
  return {
    id: a.id, name: a.name, email: a.email, contactPerson: t.owner?.name ?? null, walletAddress, apiKey, ...metadataOf(a), createdAt: iso(a.createdAt),
  };
}

/** `team` of `GET/PUT /api/account/profile`; an admin shows as the team era's admin row. */
export function apiTeamProfile(acc: Account) {
  if (acc.kind === 'admin') {
    const a = acc.admin;
    return { id: a.id, name: a.username, email: a.email, contactPerson: 'System Administrator', createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt) };
  }
  const { agent: a, owner } = acc.team;
  return { id: a.id, name: a.name, email: a.email, contactPerson: owner?.name ?? null, ...metadataOf(a), createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt) };
}

/** An element of `GET /api/admin/teams` (no wallet, no metadata; deactivationDate only when set). */
export function apiListedTeam(t: TeamView) {
  const a = t.agent;
  return {
    id: a.id, name: a.name, email: a.email, contactPerson: t.owner?.name ?? null, active: a.status === 'active',
    deactivationReason: a.deactivationReason, ...(a.deactivationDate !== null ? { deactivationDate: iso(a.deactivationDate) } : {}),
    createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
  };
}

/** The short team object of the deactivate/reactivate answers. */
export function apiTeamStatus(a: Agent) {
  if (a.status === 'active') return { id: a.id, name: a.name, active: true };
  return { id: a.id, name: a.name, active: false, deactivationReason: a.deactivationReason, deactivationDate: iso(a.deactivationDate) };
}

/** A legacy trade record in upstream's key order; `error: null` only in history lists. */
export function apiLegacyTrade(t: Trade, inHistory = false) {
  return {
    id: t.id, timestamp: iso(t.timestamp), fromToken: t.fromToken, toToken: t.toToken, fromAmount: t.fromAmount, toAmount: t.toAmount,
    price: tradePrice(t), success: true, teamId: t.agentId, competitionId: t.competitionId, reason: t.reason, fromChain: t.fromChain,
    toChain: t.toChain, fromSpecificChain: t.fromSpecificChain, toSpecificChain: t.toSpecificChain, ...(inHistory ? { error: null } : {}),
  };
}

/** A balance item `{token, amount, chain, specificChain}`. */
export function apiLegacyBalance(b: Balance) {
  return { token: b.tokenAddress, amount: b.amount, chain: parentChain(b.specificChain), specificChain: b.specificChain };
}

/** Body of `GET /api/account/portfolio` (snapshot answers name `specificChain` only for svm tokens, as upstream). */
export function apiPortfolio(p: Portfolio) {
  const snapshot = p.source === 'snapshot';
  return {
    success: true, teamId: p.teamId, totalValue: p.totalValue,
    tokens: p.tokens.map((t) => ({
      token: t.token, amount: t.amount, price: t.price, value: t.value, chain: t.chain,
      ...(!snapshot || t.specificChain === 'svm' ? { specificChain: t.specificChain } : {}),
    })),
    ...(p.snapshotTime !== null ? { snapshotTime: iso(p.snapshotTime) } : {}), source: p.source,
  };
}

const teamName = (a: Agent | undefined) => a?.name ?? 'Unknown Team';

/** Body of `GET /api/competition/leaderboard` (without `success`). */
export function apiLegacyLeaderboard(v: LegacyLeaderboardView) {
  const inactiveTeams = v.inactive.map((e) => ({
    teamId: e.agentId, teamName: teamName(e.agent), portfolioValue: e.value, active: false, deactivationReason: e.reason,
  }));
  return {
    competition: apiLegacyCompetition(v.competition),
    leaderboard: v.leaderboard.map((e) => ({ rank: e.rank, teamId: e.agentId, teamName: teamName(e.agent), portfolioValue: e.value, active: true, deactivationReason: null })),
    inactiveTeams, hasInactiveTeams: inactiveTeams.length > 0,
  };
}

/** Rows of the performance report. */
export function apiPerformanceRows(rows: LegacyRanked[]) {
  return rows.map((e) => ({ rank: e.rank, teamId: e.agentId, teamName: teamName(e.agent), portfolioValue: e.value }));
}

/** Body of `GET /api/competition/status` (with `success`): upstream's three answers. */
export function apiLegacyStatus(v: LegacyStatusView) {
  if (v.kind === 'none') return { success: true, active: false, competition: null, message: 'No active competition found' };
  const c = v.competition;
  if (v.kind === 'participating') return { success: true, active: true, competition: apiLegacyCompetition(c), participating: true };
  return {
    success: true, active: true, competition: { id: c.id, name: c.name, status: legacyStatusOf(c.status), startDate: iso(c.startDate) },
    message: 'Your team is not participating in this competition',
  };
}

/** A snapshot of a competition marked legacy: `teamId`, no `id`, the priced tokens' values by address. */
export function apiLegacySnapshot(s: PortfolioSnapshot) {
  return { teamId: s.agentId, competitionId: s.competitionId, timestamp: iso(s.timestamp), totalValue: s.totalValue, valuesByToken: s.valuesByToken ?? {} };
}
